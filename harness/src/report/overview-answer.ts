/**
 * The Overview's one-sentence answer, from intervals, not extremes: a line is named as
 * the best or the worst only when its interval is apart from the next one's (else the lines whose
 * intervals overlap are named together), and a value that is physically implausible against the
 * experiment's own references is flagged as suspect instead of headlined. Pure.
 */

import type { Overview } from '../formats/manifest-format.js';
import type { OverviewLine, OverviewModel } from '../formats/parts/overview-vocabulary.js';
import { formatParam, formatRatio, formatValue } from '../lib/format.js';

/**
 * Better than the reference (C) by more than this factor is not believed: a JavaScript path doing
 * the same system calls cannot be twice as cheap per read as C; such a value is a noisy fit.
 */
const SUSPECT_FACTOR = 2;
/** Better than the ceiling (the pipe's own speed) by more than this is not possible either. */
const CEILING_TOLERANCE = 1.1;
/**
 * A slope from a looser fit than this does not carry a headline: its points are too far from a line
 * for one cost per unit to describe them.
 */
const MIN_R2 = 0.8;

interface Item {
  l: OverviewLine;
  /** Oriented so that smaller is better: a cost ratio, or the inverse of a throughput ratio. */
  r: number;
  lo: number;
  hi: number;
}

/** "64 KiB", "1 thread", "12 threads", "1500 files". */
const xText = (m: OverviewModel, x: number) => {
  if (m.xUnit === 'B') return formatParam(x, 'B');
  if (!m.xUnit) return String(x);
  return `${x} ${x === 1 && m.xUnit.endsWith('s') ? m.xUnit.slice(0, -1) : m.xUnit}`;
};

const refName = (spec: Overview, variant: string) =>
  spec.references.find((r) => r.variant === variant)?.label ?? variant;

/** The ratio of two values with the interval their own intervals allow (a missing interval: the value). */
function ratio(l: OverviewLine, ref: OverviewLine, i: number, smaller: boolean): Item | undefined {
  const v = l.values[i];
  const rv = ref.values[i];
  if (v === null || v === undefined || !rv) return undefined;
  const [lo, hi] = [l.low[i] ?? v, l.high[i] ?? v];
  const [rlo, rhi] = [ref.low[i] ?? rv, ref.high[i] ?? rv];
  const r = v / rv;
  const [a, b] = [rhi > 0 ? lo / rhi : 0, rlo > 0 ? hi / rlo : Number.POSITIVE_INFINITY];
  return smaller
    ? { l, r, lo: a, hi: b }
    : { l, r: 1 / r, lo: b > 0 ? 1 / b : 0, hi: a > 0 ? 1 / a : Number.POSITIVE_INFINITY };
}

/** The lines at one end whose intervals overlap the end line's: they are named together. */
function end(items: readonly Item[]): Item[] {
  const first = items[0]!;
  return items.filter((x) => x === first || (x.lo <= first.hi && first.lo <= x.hi));
}

/** At most this many lines of one end are named one by one; a larger group is said as a range. */
const NAMED_EACH = 3;

const list = (xs: readonly string[]) =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`;

export function answerSentence(
  spec: Overview,
  m: OverviewModel,
  label: (metric: string) => string = (x) => x,
): { answer: string; suspects: string[]; named: string[] } {
  const smaller = m.direction === 'smaller';
  const shown = (r: number) => formatRatio(smaller ? r : 1 / r);
  const ans = spec.answer;
  const metric = label(m.metric);
  const parts: string[] = [];
  const suspects: string[] = [];
  const named = new Set<string>();
  const say: Saying = { spec, m, metric, smaller, shown, suspects, named };
  for (const p of m.panels) {
    const main = p.lines.filter((l) => l.metric === m.metric);
    const lastX = p.xs.length - 1;
    const prefix = p.title ? `${p.title}: ` : '';
    const at = (l: OverviewLine, i: number) => l.values[i] ?? null;
    if (ans.kind === 'reference') {
      const part = referencePart(say, p, main, prefix);
      if (part) parts.push(part);
    } else if (ans.kind === 'slope') {
      const fitted = main.filter((l) => l.slope).sort((a, b) => a.slope!.value - b.slope!.value);
      const firm = fitted.filter((l) => l.slope!.r2 >= MIN_R2);
      for (const l of fitted.filter((x) => x.slope!.r2 < MIN_R2))
        suspects.push(`${prefix}${l.label}'s fit is too loose to say (R² ${l.slope!.r2.toFixed(2)})`);
      if (!firm.length) continue;
      const per = (l: OverviewLine) => formatValue(l.slope!.value, m.unit);
      const [lo, hi] = [firm[0]!, firm.at(-1)!];
      named.add(lo.label).add(hi.label);
      parts.push(
        `${prefix}each added ${spec.unitName ?? spec.x} costs ${per(lo)} (${lo.label})${firm.length > 1 ? ` to ${per(hi)} (${hi.label})${lo.slope!.value > 0 ? `, ${formatRatio(hi.slope!.value / lo.slope!.value)}` : ''}` : ''}`,
      );
    } else if (ans.kind === 'scaling') {
      const scaled = main
        .filter((l) => !l.flat && at(l, 0) && at(l, lastX) !== null)
        .map((l) => ({ l, r: at(l, lastX)! / at(l, 0)! }))
        .sort((a, b) => a.r - b.r);
      if (!scaled.length || lastX === 0) continue;
      const [lo, hi] = [scaled[0]!, scaled.at(-1)!];
      named.add(lo.l.label).add(hi.l.label);
      parts.push(
        `${prefix}from ${xText(m, p.xs[0]!)} to ${xText(m, p.xs[lastX]!)}, ${metric} changes ${formatRatio(lo.r)} (${lo.l.label})${scaled.length > 1 ? ` to ${formatRatio(hi.r)} (${hi.l.label})` : ''}`,
      );
    } else if (ans.kind === 'pairs') {
      const said = ans.pairs.flatMap(([a, b]) => {
        const la = main.find((l) => l.variant === a);
        const lb = main.find((l) => l.variant === b);
        const va = la && at(la, lastX);
        const vb = lb && at(lb, lastX);
        if (va && vb) named.add(la.label).add(lb.label);
        return va && vb ? [`${b} ${formatRatio(vb / va)} of ${a}`] : [];
      });
      if (said.length) parts.push(`${prefix}at ${xText(m, p.xs[lastX]!)}, ${metric}: ${said.join(', ')}`);
    }
  }
  if (!parts.length) return { answer: 'Not enough points in this run to answer.', suspects, named: [] };
  const sentence = parts.join('; ');
  return { answer: `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`, suspects, named: [...named] };
}

/** What each panel's part of the answer is said with; a suspect value is added to `suspects`. */
interface Saying {
  spec: Overview;
  m: OverviewModel;
  /** The metric's label. */
  metric: string;
  smaller: boolean;
  shown: (r: number) => string;
  suspects: string[];
  /** The labels of the lines the answer names: drawn by default. */
  named: Set<string>;
}

/** A panel's part of a `reference` answer: the best and the worst lines against the reference, at its largest x. */
function referencePart(
  say: Saying,
  p: OverviewModel['panels'][number],
  main: readonly OverviewLine[],
  prefix: string,
): string | undefined {
  const { spec, m, metric, smaller, shown, suspects, named } = say;
  const ans = spec.answer;
  if (ans.kind !== 'reference') return undefined;
  const ref = main.find((l) => l.variant === ans.to);
  // The largest x the reference has a value at (a fit a small run could not resolve has none).
  const i = ref ? ref.values.reduce<number>((last, v, k) => (v === null || v === undefined ? last : k), -1) : -1;
  if (!ref || i < 0) return undefined;
  const ceiling = ans.ceiling ? main.find((l) => l.variant === ans.ceiling) : undefined;
  const toCeiling = ceiling ? ratio(ref, ceiling, i, smaller) : undefined;
  const items: Item[] = [];
  for (const l of main.filter((x) => !x.reference)) {
    const it = ratio(l, ref, i, smaller);
    if (!it) continue;
    const c = ceiling && ratio(l, ceiling, i, smaller);
    if (it.r < 1 / SUSPECT_FACTOR)
      suspects.push(
        `${prefix}${l.label} ${shown(it.r)} of ${refName(spec, ref.variant)}'s ${metric} (implausibly better than the reference)`,
      );
    else if (c && c.r < 1 / CEILING_TOLERANCE)
      suspects.push(
        `${prefix}${l.label} ${shown(c.r)} of ${refName(spec, ceiling!.variant)}'s ${metric} (beyond the ceiling)`,
      );
    else items.push(it);
  }
  if (!items.length) return undefined;
  items.sort((a, b) => a.r - b.r);
  const best = end(items);
  const worst = end([...items].reverse()).filter((x) => !best.includes(x));
  const of = (g: Item[]) => (g === best ? ` of ${refName(spec, ref.variant)}'s` : '');
  // Each line with its own value; a group too large to list, as the range its values span.
  const said = (g: Item[]) => {
    if (g.length <= NAMED_EACH) {
      for (const x of g) named.add(x.l.label);
      return list(g.map((x, k) => `${shown(x.r)}${k === 0 ? of(g) : ''} for ${x.l.label}`));
    }
    const byValue = [...g].sort((x, y) => (smaller ? x.r - y.r : y.r - x.r));
    const [lo, hi] = [byValue[0]!, byValue.at(-1)!];
    named.add(lo.l.label).add(hi.l.label);
    return `${shown(lo.r)}–${shown(hi.r)}${of(g)} for ${g.length} lines whose intervals overlap (${lo.l.label} to ${hi.l.label})`;
  };
  let s = `${prefix}at ${xText(m, p.xs[i]!)}, ${metric} is ${said(best)}`;
  if (worst.length) s += `${best.length > 1 ? ',' : ''} and ${said(worst)}`;
  if (toCeiling) s += `; ${refName(spec, ref.variant)}'s is ${shown(toCeiling.r)} ${refName(spec, ceiling!.variant)}'s`;
  return s;
}
