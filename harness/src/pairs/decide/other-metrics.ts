/**
 * A point's other timed metrics — every metric its processes report beside the lead (threadpool's
 * batch time beside its p50 latency, a fit's wall time beside its cost per read) — judged at the
 * diff-wide false-positive level like the lead (pairs/decide/multiplicity.ts: they share a part of
 * the point's level), on the pairs the point got, at the look where it stopped. A metric that
 * moved is a finding beside the lead ("also: batch_ms +5.1 % (+3.0 … +7.3 %)"), not a footnote.
 * Pure.
 */
import type { Direction } from '../../model/metrics.js';
import type { PairsVerdict } from '../../model/verdicts.js';
import { ALPHA, comparePairs, type Pair, type PairOrder, pairProblem } from './pair-statistics.js';
import { decidePairs, type LookAnalysis, type SequentialPlan } from './sequential.js';

/** Each side's values of one pair, by metric (the shape of point.ts's MeasuredPair). */
interface ValuesPair {
  order: PairOrder;
  base: Record<string, { value: number; unit: string; direction: Direction } | undefined>;
  head: Record<string, { value: number; unit: string; direction: Direction } | undefined>;
}

/** How a point's other metrics are judged: its levels, and each metric with its minimum effect. */
export interface OtherMetricsPlan {
  /** The lead's plan: a metric that repeats the lead's evidence (`of` the lead) is judged at it. */
  leadPlan: SequentialPlan;
  /**
   * The point's level for all its other metrics together, spent over the looks like the lead's.
   * Absent for a point with none of its own (a whole process reports only rates of its wall time):
   * a metric of its own would then go unjudged rather than spend a level the diff did not give.
   */
  plan?: SequentialPlan;
  /** Known after the first pair; `of`: the metric whose evidence it repeats (a rate over its time). */
  metrics: readonly { metric: string; of?: string; minEffect: number }[];
}

export interface OtherJudgement {
  metric: string;
  unit: string;
  direction: Direction;
  of?: string;
  minEffect: number;
  pairs: Pair[];
  analysis: LookAnalysis;
  verdict: PairsVerdict;
}

/** One metric's value in every pair (NaN where a side lacks it). */
function metricPairs(pairs: readonly ValuesPair[], metric: string): Pair[] {
  return pairs.map((p) => ({
    base: p.base[metric]?.value ?? Number.NaN,
    head: p.head[metric]?.value ?? Number.NaN,
    order: p.order,
  }));
}

/** A plan whose change-test levels are `share` of `plan`'s (the equivalence levels kept). */
function scaled(plan: SequentialPlan, share: number): SequentialPlan {
  return { ...plan, alphas: plan.alphas.map((a) => a * share) };
}

/**
 * The other metrics judged on the pairs so far, each at its level at the look these pairs stand
 * for: the others' plan divided equally among the metrics that are evidence of their own, a
 * repeat judged with what it repeats. Metrics whose pairs cannot be compared are left out.
 */
export function judgeOthers(pairs: readonly ValuesPair[], lead: string, o: OtherMetricsPlan): OtherJudgement[] {
  const present = o.metrics.filter(
    (m) =>
      m.metric !== lead && (o.plan || m.of === lead) && pairs.length >= 2 && !pairProblem(metricPairs(pairs, m.metric)),
  );
  // Tests of their own: a repeat shares the level of what it repeats (the same event, no new call).
  const own = present.filter((m) => m.of === undefined).length;
  const each = o.plan ? scaled(o.plan, 1 / Math.max(1, own)) : o.leadPlan;
  return present.map((m) => {
    const ps = metricPairs(pairs, m.metric);
    const spec = pairs[0]!.head[m.metric]!;
    const plan = m.of === lead ? o.leadPlan : each;
    const d = decidePairs(ps, spec.direction, { minEffect: m.minEffect, affordablePairs: 0, plan });
    if (d.action !== 'stop') throw new Error('a step without budget did not stop (a bug)');
    return {
      metric: m.metric,
      unit: spec.unit,
      direction: spec.direction,
      ...(m.of ? { of: m.of } : {}),
      minEffect: m.minEffect,
      pairs: ps,
      analysis: d.analysis,
      verdict: d.verdict,
    };
  });
}

/** A judgement that calls a change of its own (a repeat of another metric's evidence never does). */
export const moved = (j: Pick<OtherJudgement, 'verdict' | 'of'>) =>
  j.of === undefined && (j.verdict === 'slower' || j.verdict === 'faster');

/**
 * Whether a point whose lead is decided should take its next look for another metric: one that
 * looks moved by a single comparison at 5 % but is not yet called at its share of the diff-wide
 * level. More pairs then either call it or show it was noise; a metric that does not look moved
 * never holds a point.
 */
export function othersUnsettled(pairs: readonly ValuesPair[], lead: string, o: OtherMetricsPlan): boolean {
  return judgeOthers(pairs, lead, o).some((j) => {
    if (j.of !== undefined || moved(j)) return false;
    const single = comparePairs(j.pairs, j.direction, { minEffect: j.minEffect, alpha: ALPHA });
    return single.verdict === 'slower' || single.verdict === 'faster';
  });
}
