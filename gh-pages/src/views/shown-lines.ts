/**
 * Which lines a Trends or Sweeps chart draws by default, and the sentence under it that says what
 * is drawn. Fourteen crossing variants answer nothing: a chart draws the references (C), then the
 * lines that stepped (a change point in a trend's window: what a trend is read for), then the best
 * and the worst at the last point (the newest commit, the largest swept value), inwards, up to
 * MAX_SHOWN; the rest stay one click away in the legend. Pure.
 */
import { formatValue } from '../../../harness/src/lib/format.js';
import type { Direction } from '../../../harness/src/model/metrics.js';
import { MAX_SHOWN } from '../../../harness/src/report/overview-model.js';

export interface Candidate {
  label: string;
  values: readonly (number | null)[];
  direction: Direction;
  /** A reference line (the experiment's C): always drawn. */
  reference: boolean;
  /** A change point (a step) in the window. */
  changed: boolean;
}

/** The line's value at its last point (the newest commit of a trend, the largest x of a sweep). */
export function newest(values: readonly (number | null)[]): number | undefined {
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i];
    if (v !== null && v !== undefined) return v;
  }
  return undefined;
}

/** Per line, whether it is drawn by default. */
export function shownLines(lines: readonly Candidate[], max = MAX_SHOWN): boolean[] {
  const idx = lines.map((_, i) => i);
  const refs = idx.filter((i) => lines[i]!.reference);
  const changed = idx.filter((i) => !lines[i]!.reference && lines[i]!.changed);
  // A line with no value in the window draws nothing: it stays in the legend.
  const rest = idx.filter((i) => !lines[i]!.reference && !lines[i]!.changed && newest(lines[i]!.values) !== undefined);
  const sign = lines[0]?.direction === 'bigger' ? -1 : 1;
  rest.sort((a, b) => sign * (newest(lines[a]!.values)! - newest(lines[b]!.values)!));
  // The best and the worst first, then inwards: the drawn lines span what the chart holds.
  const ends: number[] = [];
  while (rest.length) {
    ends.push(rest.shift()!);
    const last = rest.pop();
    if (last !== undefined) ends.push(last);
  }
  const shown = new Set([...refs, ...changed, ...ends].slice(0, Math.max(max, refs.length)));
  return lines.map((_, i) => shown.has(i));
}

/**
 * What a chart draws, said under it: each drawn line with its own value at the last point (`at`:
 * "at each line's newest commit"), the lines left in the legend as one range (never "and N more" for
 * different values).
 */
export function shownSentence(
  lines: readonly Candidate[],
  shown: readonly boolean[],
  unit: string,
  at = "at each line's newest commit",
): string {
  const value = (l: Candidate) => {
    const v = newest(l.values);
    return v === undefined ? 'no value' : formatValue(v, unit);
  };
  const drawn = lines
    .filter((_, i) => shown[i])
    .map((l) => `${l.label} ${value(l)}${l.reference ? ' (reference)' : ''}${l.changed ? ' (changed)' : ''}`);
  const left = lines.filter((_, i) => !shown[i]);
  const said = drawn.length ? `Drawn, ${at}: ${drawn.join(', ')}.` : '';
  if (!left.length) return said;
  const vs = left.map((l) => newest(l.values)).filter((v): v is number => v !== undefined);
  const range = !vs.length
    ? 'no value'
    : Math.min(...vs) === Math.max(...vs)
      ? formatValue(vs[0]!, unit)
      : `${formatValue(Math.min(...vs), unit)} to ${formatValue(Math.max(...vs), unit)}`;
  const n = left.length === 1 ? '1 more line' : `${left.length} more lines`;
  return `${said}${said ? ' ' : ''}${n} in the legend (greyed; ${range} ${at}): click a name to draw it.`;
}
