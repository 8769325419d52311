/**
 * The per-point parts of a paired comparison.md, folded under its summary: one row per measured
 * point (its experiment named), the change column being the paired ratio with the interval the
 * verdict was decided on, counters largest change first; the other metrics of each point; the
 * not-measured points grouped by reason. Every string from the artifact is escaped here, at the sink.
 */

import { countVerdictText } from '../../counts/count-verdict-text.js';
import type { PairsComparison, PairsMetric, PairsPoint } from '../../formats/pairs-format.js';
import type { NotMeasuredGroup } from '../../formats/parts/diff-summary.js';
import { formatValue } from '../../lib/format.js';
import { escapeCell, markdownTable } from '../../lib/markdown.js';
import { counterName } from '../../model/metrics.js';
import { movedOthers } from '../decide/point-answers.js';
import { counterChange } from '../decide/summarize.js';

export const pct = (r: number) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;

const VERDICT = {
  slower: '🔴 slower',
  faster: '🟢 faster',
  unchanged: 'unchanged',
  inconclusive: '⚪ inconclusive',
} as const;

const STOP: Record<PairsPoint['stop'], string> = {
  decided: 'decided',
  'last-look': 'after the last look',
  budget: 'ran out of budget',
  unmeasurable: 'not measurable',
};

/** A point as a reader names it: experiment, variant, parameters (raw: escape where rendered). */
export function pointLabel(p: Pick<PairsPoint, 'experiment' | 'variant' | 'params'>): string {
  const params = Object.entries(p.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return `${p.experiment} ${p.variant} ${params}`.trim();
}

/** A point has a result to show: pairs, a finite ratio and the interval its verdict stands on. */
export const hasResult = (p: PairsPoint) =>
  p.pairs > 0 && p.stop !== 'unmeasurable' && Number.isFinite(p.lead.ratio) && p.lead.ci !== undefined;

export function interval(m: PairsMetric): string {
  return m.ci
    ? `${pct(m.ci[0])} … ${pct(m.ci[1])} (${(m.confidence * 100).toFixed(m.confidence > 0.999 ? 2 : 1)}%)`
    : '—';
}

/**
 * A change with its interval as a sentence reads it: "+96 % (+91 … +101 %)", "+5.1 % (+3.0 … +7.3 %)"
 * (whole percents from 10 % on). Oriented like the ratio: + is head worse.
 */
export function changeText(m: Pick<PairsMetric, 'ratio' | 'ci'>): string {
  const digits = Math.abs(m.ratio - 1) >= 0.1 ? 0 : 1;
  const f = (r: number) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(digits)}`;
  return m.ci ? `${f(m.ratio)} % (${f(m.ci[0])} … ${f(m.ci[1])} %)` : `${f(m.ratio)} % (no interval)`;
}

/** The other timed metrics that moved, beside the lead: "also: batch_ms +5.1 % (+3.0 … +7.3 %)" (raw: escape where rendered). */
export function alsoText(p: Pick<PairsPoint, 'also' | 'folded'>, shown = 3): string {
  // Largest change first.
  const ms = movedOthers(p).sort((a, b) => Math.abs(Math.log(b.ratio)) - Math.abs(Math.log(a.ratio)));
  if (!ms.length) return '';
  const text = ms.slice(0, shown).map((m) => `${m.metric} ${changeText(m)}`);
  return `also: ${text.join(', ')}${ms.length > shown ? `, +${ms.length - shown} more` : ''}`;
}

/** A point whose workload the PR changed reads as that, with its paired change and interval. */
export function workloadVerdict(p: PairsPoint): string {
  if (p.pairs === 0) return 'workload changed: no pairs';
  if (!hasResult(p)) return `workload changed: ${p.stop === 'unmeasurable' ? 'not measurable' : 'too few pairs'}`;
  return `workload changed: ${changeText(p.lead)}`;
}

function verdictText(p: PairsPoint): string {
  const also = alsoText(p);
  return `${leadVerdictText(p)}${also ? ` · ${also}` : ''}`;
}

function leadVerdictText(p: PairsPoint): string {
  if (p.workloadChanged) return `${workloadVerdict(p)}${p.changed ? ' · changed in this PR' : ''}`;
  const why = p.lead.verdict === 'inconclusive' ? ` (${STOP[p.stop]})` : '';
  const within = p.lead.verdict === 'unchanged' ? ` within ±${(p.minEffect * 100).toFixed(1)}%` : '';
  // An exact counter change is a verdict of its own, beside the timing's.
  const counters = p.counters.some((k) => !k.baseRange && !k.headRange) ? 'counters changed · time ' : '';
  const timing = counters ? p.lead.verdict : VERDICT[p.lead.verdict];
  const mark = p.impact === 'control' ? ' · control' : p.changed ? ' · changed in this PR' : '';
  return `${counters}${timing}${why}${within}${mark}`;
}

/** Counters, exact changes first, each group by how much it changed (relative). */
function counterText(p: Pick<PairsPoint, 'counters'>, shown = 3): string {
  const sorted = [...p.counters].sort(
    (a, b) =>
      Number(Boolean(a.baseRange || a.headRange)) - Number(Boolean(b.baseRange || b.headRange)) ||
      counterChange(b) - counterChange(a),
  );
  const text = sorted.slice(0, shown).map((c) => {
    // A side whose own runs disagreed shows its range.
    const v = (x: number, r?: [number, number]) =>
      r ? `${formatValue(r[0], c.unit)}–${formatValue(r[1], c.unit)}` : formatValue(x, c.unit);
    return `${counterName(c.metric)} ${v(c.base, c.baseRange)}→${v(c.head, c.headRange)}`;
  });
  return sorted.length > shown ? `${text.join(', ')}, +${sorted.length - shown} more` : text.join(', ');
}

const HEADERS = [
  'point',
  'metric',
  'base median',
  'head median',
  'change (paired ratio)',
  'interval of the verdict',
  'pairs',
  'verdict',
  'counters (base→head, largest change first)',
  'work (instructions counted exactly)',
];
const ALIGN = ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'l', 'l'] as const;

/** Rows of points that have pairs (the others are counted in one line); markdownTable escapes every cell. */
export function pointTable(ps: readonly PairsPoint[]): string {
  const rows = ps
    .filter((p) => p.pairs > 0)
    .map((p) => [
      pointLabel(p),
      p.lead.metric,
      formatValue(p.lead.baseMedian, p.lead.unit),
      formatValue(p.lead.headMedian, p.lead.unit),
      // A figure without an interval is not a result: no change is printed for it.
      hasResult(p) ? pct(p.lead.ratio) : '—',
      hasResult(p) ? interval(p.lead) : p.stop === 'unmeasurable' ? 'not measurable' : 'too few pairs',
      String(p.pairs),
      verdictText(p),
      counterText(p),
      countVerdictText(p) || '—',
    ]);
  return markdownTable(HEADERS, rows, ALIGN);
}

/** The folded metrics of some points: one line per point, every metric with its change and verdict. */
export function foldedList(ps: readonly PairsPoint[]): string {
  return ps
    .filter((p) => p.pairs > 0 && (p.folded.length || p.lead.note))
    .map((p) => {
      const ms = p.folded.map(
        (m) =>
          `${escapeCell(`${m.metric} ${formatValue(m.baseMedian, m.unit)}→${formatValue(m.headMedian, m.unit)} ${pct(m.ratio)} (${m.verdict}${m.of ? `, as ${m.of}` : ''})`)}`,
      );
      const note = p.lead.note ? ` — ${escapeCell(p.lead.note)}` : '';
      return `- ${escapeCell(pointLabel(p))}: ${ms.join('; ') || 'no other metric'}${note}`;
    })
    .join('\n');
}

const SIDES = { both: 'on both sides', base: 'on base only', head: 'on head only' } as const;

/** One line per reason a group of points was not measured. */
export function notMeasuredLine(g: NotMeasuredGroup): string {
  const what = g.status === 'failed' ? 'failed' : 'skipped';
  return `${g.points} ${g.points === 1 ? 'point' : 'points'} ${what} ${SIDES[g.sides]} (${escapeCell(g.experiments.join(', '))}): ${escapeCell(g.reason)}`;
}

/** Every not-measured point with its full reason, for the folded details. */
export function notMeasuredDetails(c: Pick<PairsComparison, 'notMeasured'>, cap: number): string {
  const items = c.notMeasured
    .slice(0, cap)
    .map((x) => `- ${escapeCell(x.benchmark)} (${x.side}, ${x.status}): ${escapeCell(x.reason.slice(0, 500))}`);
  const more = c.notMeasured.length > cap ? `\n- …and ${c.notMeasured.length - cap} more (see comparison.json)` : '';
  return `${items.join('\n')}${more}`;
}
