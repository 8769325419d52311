/**
 * Counted work on the Trends view, pure: which work metric a trend draws (per operation where the
 * experiment has it, else per run), how a line says what its counts were (evidence only, or
 * repeats that disagreed: no trend to act on), and the note under a work chart. The counts' facts
 * per commit come from the store (formats/parts/store-layout.ts CountFacts).
 */
import { COUNT_TOLERANCE } from '../../../harness/src/counts/count-rule.js';
import type { CountFacts } from '../../../harness/src/formats/parts/store-layout.js';

export { countMetric, isCountMetric } from '../count-metric.js';

/** Why one commit's count is no figure to act on, or null (a count that decides, or none). */
export function factNote(f: CountFacts | null | undefined): string | null {
  if (!f) return null;
  const why = [
    ...(f.role === 'evidence' ? [`evidence only${f.because ? `: ${f.because}` : ''}`] : []),
    ...(f.deterministic ? [] : ['not deterministic: its repeated counts disagreed']),
  ];
  return why.length ? why.join('; ') : null;
}

/** The newest facts of a line (its last commit with a count). */
function newestFacts(counts: readonly (CountFacts | null)[] | undefined): CountFacts | undefined {
  for (let i = (counts?.length ?? 0) - 1; i >= 0; i--) if (counts![i]) return counts![i]!;
  return undefined;
}

/** A line's label, marked when its newest count is evidence only or did not repeat. */
export function countLabel(label: string, counts: readonly (CountFacts | null)[] | undefined): string {
  const f = newestFacts(counts);
  if (!f) return label;
  if (f.role === 'evidence') return `${label} (evidence only)`;
  return f.deterministic ? label : `${label} (not deterministic)`;
}

export interface CountLine {
  label: string;
  counts?: readonly (CountFacts | null)[];
}

/**
 * Under a work chart: what the counts cover and leave out, the settings they were counted with,
 * and which lines are no trend to act on (evidence only; counts that did not repeat at some
 * commits, which mark no change).
 */
export function countChartNote(lines: readonly CountLine[]): string {
  const settings = new Map<string, string[]>();
  const evidence: string[] = [];
  const unsteady: string[] = [];
  for (const l of lines) {
    const facts = (l.counts ?? []).filter((f): f is CountFacts => f !== null);
    const newest = facts.at(-1);
    if (newest) settings.set(newest.settings, [...(settings.get(newest.settings) ?? []), l.label]);
    if (facts.some((f) => f.role === 'evidence')) evidence.push(l.label);
    const n = facts.filter((f) => !f.deterministic).length;
    if (n) unsteady.push(`${l.label} at ${n} commit${n === 1 ? '' : 's'}`);
  }
  return [
    `User-space instructions of the measured process, counted under Valgrind; kernel work is not in them (the system calls stand for it). A step is called only beyond ${COUNT_TOLERANCE * 100}% between two counts that decide and repeated.`,
    settings.size ? ` Counted with: ${[...settings].map(([s, ls]) => `${s} (${ls.join(', ')})`).join('; ')}.` : '',
    evidence.length ? ` Evidence only, no trend to act on: ${evidence.join(', ')}.` : '',
    unsteady.length ? ` Counts that did not repeat (no step is called on them): ${unsteady.join(', ')}.` : '',
  ].join('');
}
