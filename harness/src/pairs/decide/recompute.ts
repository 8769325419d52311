/**
 * Every verdict of a PR diff judged again, by the code that reads the artifact (the default
 * branch's, in the PR-comment job), from the pairs themselves (pairs.json) rather than from the
 * verdicts the measuring harness wrote (comparison.json). The measuring harness may be the pull
 * request's own: what it says a point's pairs mean is a claim, checked here. The statistics are
 * this code's: its plan of looks, its diff-wide level shared out among the recorded points, its
 * minimum effects (a calibrated threshold where the caller has one, never below MIN_EFFECT).
 *
 * The result is the comparison with every row's lead, other metrics and counted work replaced by
 * the recomputed ones, and the list of what disagreed. A row whose pairs are not in the record
 * cannot be checked: it leaves the rows and is listed as not measured (no trusted answer). Pure.
 */

import { compareCounts } from '../../counts/count-verdict.js';
import type { PairRecordDocument, RecordedPoint } from '../../formats/pair-record-format.js';
import type { PairsComparison, PairsPoint, PairsWork } from '../../formats/pairs-format.js';
import { planAtLevel, pointLevels } from './multiplicity.js';
import { MIN_EFFECT } from './pair-statistics.js';
import { finalStep, type MeasuredPair, type PointSoFar, type Values } from './point.js';
import { pointRow } from './rows.js';
import { DEFAULT_PLAN, type SequentialPlan } from './sequential.js';

export interface RecomputeOptions {
  /** The sequential plan to judge with (default: this code's). */
  plan?: SequentialPlan;
  /** A calibrated minimum effect for a point's metric, where the caller has one. */
  threshold?: (benchmark: string, metric: string) => number | undefined;
}

export interface Recomputed {
  comparison: PairsComparison;
  /** One line per point or count where the measuring harness said otherwise. */
  disagreements: string[];
}

/** The reason a row leaves the comparison when the record does not hold its pairs. */
export const NO_RECORDED_PAIRS = 'its pairs are not in the pair record (pairs.json), so its verdict cannot be checked';

function pairsOf(rp: RecordedPoint): MeasuredPair[] {
  const values = (side: Record<string, number | null>): Values => {
    const out: Values = {};
    for (const [name, v] of Object.entries(side)) {
      const m = rp.metrics[name];
      if (m && v !== null) out[name] = { value: v, unit: m.unit, direction: m.direction };
    }
    return out;
  };
  return rp.pairs.map((q) => ({
    order: q.order,
    base: values(q.base),
    head: values(q.head),
    ...(q.fit ? { fit: q.fit } : {}),
  }));
}

/** A recorded point's row, as this code's statistics make it; `row` gives what it describes. */
function recomputedRow(
  rp: RecordedPoint,
  row: PairsPoint,
  levels: { lead: number; others: number },
  o: Required<Pick<RecomputeOptions, 'plan'>> & RecomputeOptions,
): PairsPoint {
  const minEffect = (metric: string) => Math.max(MIN_EFFECT, o.threshold?.(rp.benchmark, metric) ?? MIN_EFFECT);
  const leadPlan = planAtLevel(o.plan, levels.lead);
  const point: PointSoFar = {
    kind: rp.kind,
    lead: rp.lead,
    minEffect: minEffect(rp.lead.metric),
    pairs: pairsOf(rp),
    ...(rp.others
      ? {
          others: {
            leadPlan,
            ...(levels.others > 0 ? { plan: planAtLevel(o.plan, levels.others) } : {}),
            metrics: rp.others.map((m) => ({
              metric: m.metric,
              ...(m.of ? { of: m.of } : {}),
              minEffect: minEffect(m.metric),
            })),
          },
        }
      : {}),
  };
  const d = finalStep(point, leadPlan);
  const made = pointRow({
    ...point,
    lead: d.lead,
    minEffect: d.minEffect,
    stop: d.step,
    ...(d.fitProblem ? { fitProblem: d.fitProblem } : {}),
    benchmark: rp.benchmark,
    experiment: row.experiment,
    variant: row.variant,
    params: row.params,
    placement: row.placement,
    changed: row.changed === true,
    ...(row.workloadChanged ? { workloadChange: row.workloadChanged } : {}),
    impact: rp.impact,
    counters: row.counters,
    ...(rp.sizes ? { sizes: rp.sizes } : {}),
    secondsPerPair: row.secondsPerPair,
  });
  return {
    ...made,
    alpha: Number((levels.lead + levels.others).toPrecision(6)),
    ...(row.work ? { work: row.work } : {}),
  };
}

/** A row's counted work judged again from the recorded repeats (a count not in the record is not counted). */
function recomputedWork(
  work: PairsWork | undefined,
  counts: PairRecordDocument['counts'],
  id: string,
): PairsWork | undefined {
  if (work?.status !== 'counted') return work;
  const c = counts.find((x) => x.benchmark === id);
  if (!c) return { status: 'not-counted', reason: 'its counts are not in the pair record (pairs.json)' };
  const v = compareCounts(c.base, c.head);
  return {
    ...work,
    base: c.base,
    head: c.head,
    role: c.role,
    verdict: v.kind,
    ...(v.kind !== 'not-deterministic' ? { change: v.change } : {}),
  };
}

const pct = (r: number) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)} %`;

/** What differs between the measuring harness's row and the recomputed one, in words. */
function disagreement(was: PairsPoint, now: PairsPoint): string | undefined {
  const lines: string[] = [];
  if (was.lead.metric !== now.lead.metric || was.lead.verdict !== now.lead.verdict)
    lines.push(
      `${was.lead.metric} ${was.lead.verdict} (${pct(was.lead.ratio)}) where the pairs say ${now.lead.metric} ${now.lead.verdict} (${pct(now.lead.ratio)})`,
    );
  const also = (p: PairsPoint) => [...(p.also ?? [])].sort().join(', ');
  if (also(was) !== also(now)) lines.push(`also moved: [${also(was)}] where the pairs say [${also(now)}]`);
  const w = (p: PairsPoint) => (p.work?.status === 'counted' ? p.work.verdict : (p.work?.status ?? 'none'));
  if (w(was) !== w(now)) lines.push(`work ${w(was)} where the counts say ${w(now)}`);
  return lines.length ? `${now.benchmark}: the measuring harness said ${lines.join('; ')}` : undefined;
}

/** The comparison judged again from its pair record. */
export function recomputeVerdicts(
  c: PairsComparison,
  record: PairRecordDocument,
  opts: RecomputeOptions = {},
): Recomputed {
  const o = { ...opts, plan: opts.plan ?? DEFAULT_PLAN };
  const byId = new Map(record.points.map((p) => [p.benchmark, p]));
  const levels = new Map(pointLevels(record.points).map((l, i) => [record.points[i]!.benchmark, l]));
  const disagreements: string[] = [];
  const points: PairsPoint[] = [];
  const notMeasured = [...c.notMeasured];
  for (const row of c.points) {
    const rp = byId.get(row.benchmark);
    if (!rp || (row.pairs > 0 && rp.pairs.length !== row.pairs)) {
      disagreements.push(`${row.benchmark}: ${NO_RECORDED_PAIRS}`);
      notMeasured.push({ benchmark: row.benchmark, side: 'head', status: 'skipped', reason: NO_RECORDED_PAIRS });
      continue;
    }
    const now = rp.pairs.length
      ? recomputedRow(rp, row, levels.get(rp.benchmark)!, o)
      : { ...row, ...(row.work ? { work: row.work } : {}) };
    const work = recomputedWork(row.work, record.counts, row.benchmark);
    const fixed: PairsPoint = { ...now, ...(work ? { work } : {}) };
    const d = disagreement(row, fixed);
    if (d) disagreements.push(d.slice(0, 600));
    points.push(fixed);
  }
  for (const rp of record.points)
    if (!c.points.some((p) => p.benchmark === rp.benchmark))
      disagreements.push(
        `${rp.benchmark}: recorded with ${rp.pairs.length} pairs, yet comparison.json has no row for it`,
      );
  return { comparison: { ...c, points, notMeasured }, disagreements };
}
