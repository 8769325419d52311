/**
 * The reference's spread over a sweep and the sweep's cost, as text for a terminal (the
 * `releases spread` command). Pure.
 */
import { formatDuration, formatValue } from '../lib/format.js';
import {
  rowName,
  type SpreadRow,
  STEADY_RELEASES,
  STEADY_SPREAD,
  type SweepCost,
  steady,
} from './judge/reference-spread.js';

const pct = (x: number | undefined) => (x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`);

function verdict(r: SpreadRow): string {
  if (r.releases < STEADY_RELEASES) return `too few releases (${STEADY_RELEASES} needed)`;
  return steady(r) ? 'steady' : `over ${pct(STEADY_SPREAD)}`;
}

/** " (of it counting under valgrind: median Ns, max Ms, in K release(s))" where releases counted. */
function countingText(cost: SweepCost): string {
  const c = cost.counting;
  return c
    ? ` (of it counting under valgrind: median ${formatDuration(c.median)}, max ${formatDuration(c.max)}, in ${c.releases} release(s))`
    : '';
}

/** One line per reference point and metric, then the cost per release and of the whole sweep. */
export function spreadText(rows: readonly SpreadRow[], cost: SweepCost | undefined, releases: number): string {
  const out = [
    `the reference across ${releases} release(s): spread = (max - min) / median of its per-release values (steady: at most ${pct(STEADY_SPREAD)} over at least ${STEADY_RELEASES} releases)`,
  ];
  if (!rows.length) out.push('  no reference values in these releases');
  for (const r of rows)
    out.push(
      `  ${rowName(r)}: spread ${pct(r.spread)} over ${r.releases} release(s) (min ${formatValue(r.min, r.unit)}, median ${formatValue(r.median, r.unit)}, max ${formatValue(r.max, r.unit)}; widest 95% interval ${pct(r.widestInterval)} of its value): ${verdict(r)}`,
    );
  out.push(
    cost
      ? `cost per release: median ${formatDuration(cost.median)}, max ${formatDuration(cost.max)}${countingText(cost)}; the ${cost.releases} release(s) together: ${formatDuration(cost.total)}`
      : 'cost per release: not recorded (releases measured before the sweep kept it)',
  );
  return `${out.join('\n')}\n`;
}
