/**
 * One point of the paired diff as data: the pairs measured so far, the metric it is judged on,
 * and the sequential rule's next step as a pure function of those (no state kept between calls, so the
 * runner can ask after every batch and a replay of the same pairs gives the same answer).
 */

import { type Direction, HARNESS_METRICS } from '../../model/metrics.js';
import { decideFit, type FitPair } from './fit-pairs.js';
import { type OtherMetricsPlan, othersUnsettled } from './other-metrics.js';
import { MIN_EFFECT, type Pair, type PairOrder, pairProblem } from './pair-statistics.js';
import { decidePairs, pairsToward, type SequentialPlan, type SequentialStep } from './sequential.js';

/** How a point's pairs are made: whole processes timed by the harness, the program's own clock, or a fit over two sizes. */
export type PointKind = 'process' | 'self' | 'fit';

/** One process's metric values (the paired metrics of one run). */
export type Values = Record<string, { value: number; unit: string; direction: Direction }>;

/** The metric a point is judged on. */
export interface Lead {
  metric: string;
  unit: string;
  direction: Direction;
}

/** One measured pair: each side's values, in the order they ran; a fit pair also has the four wall times. */
export interface MeasuredPair {
  order: PairOrder;
  base: Values;
  head: Values;
  fit?: FitPair;
}

export type StopStep = Extract<SequentialStep, { action: 'stop' }>;

/** What the sequential rule needs to know about a point. */
export interface PointSoFar {
  kind: PointKind;
  lead: Lead;
  minEffect: number;
  pairs: readonly MeasuredPair[];
  /** Its other timed metrics and their levels (./other-metrics.ts); absent: the lead alone decides. */
  others?: OtherMetricsPlan;
}

/** The rule's step (stop with a verdict, or continue), with the lead it was taken on (a fit whose cost cannot be resolved falls back to wall time). */
export interface PointStep {
  step: SequentialStep;
  lead: Lead;
  minEffect: number;
  /** Why the per-operation cost of a fit point could not be resolved (it is then judged on wall time). */
  fitProblem?: string;
}

export const WALL_TIME: Lead = {
  metric: 'wall_time',
  unit: HARNESS_METRICS.wall_time.unit,
  direction: HARNESS_METRICS.wall_time.direction,
};

/** The lead metric's value of every pair (NaN where a side lacks it). */
export function leadPairs(pairs: readonly MeasuredPair[], metric: string): Pair[] {
  return pairs.map((p) => ({
    base: p.base[metric]?.value ?? Number.NaN,
    head: p.head[metric]?.value ?? Number.NaN,
    order: p.order,
  }));
}

export function fitPairs(pairs: readonly MeasuredPair[]): FitPair[] {
  return pairs.flatMap((p) => (p.fit ? [p.fit] : []));
}

/** Stops a point whose pairs cannot be compared (a value that is not positive and finite). */
function unmeasurable(n: number, problem: string, plan: SequentialPlan): StopStep {
  const alpha = plan.alphas[0]!;
  return {
    action: 'stop',
    verdict: 'inconclusive',
    reason: 'unmeasurable',
    analysis: {
      n,
      look: 0,
      alpha,
      interval: { centre: 0, confidence: 1 - alpha },
      ratio: Number.NaN,
      p: 1,
      verdict: 'inconclusive',
      note: problem,
    },
  };
}

/**
 * The sequential rule for a point, given the pairs it can still afford: its lead decides; a lead
 * decided at a look before the last goes on to the next while another of its timed metrics looks
 * moved but is not yet called at its level (./other-metrics.ts).
 */
export function decidePoint(point: PointSoFar, affordablePairs: number, plan: SequentialPlan): PointStep {
  const d = decideLead(point, affordablePairs, plan);
  const stop = d.step;
  if (stop.action !== 'stop' || stop.reason !== 'decided' || !point.others || affordablePairs <= 0) return d;
  const look = stop.analysis.look;
  // Only at a planned look (not one the budget cut short), and only toward a look the plan has.
  if (look >= plan.looks.length - 1 || point.pairs.length !== plan.looks[look]) return d;
  if (!othersUnsettled(point.pairs, d.lead.metric, point.others)) return d;
  const more = pairsToward(plan.looks[look + 1]! - point.pairs.length, affordablePairs);
  return { ...d, step: { action: 'continue', more, look: look + 1, analysis: stop.analysis } };
}

/** The lead's own sequential rule. */
function decideLead(point: PointSoFar, affordablePairs: number, plan: SequentialPlan): PointStep {
  let { lead, minEffect } = point;
  let fitProblem: string | undefined;
  if (point.kind === 'fit' && lead.metric !== WALL_TIME.metric) {
    const d = decideFit(fitPairs(point.pairs), { minEffect, affordablePairs, plan });
    if (d.action === 'continue' || d.reason !== 'unmeasurable') return { step: d, lead, minEffect };
    // The sizes are too close for this machine's noise: judge the point on its own size's wall
    // time instead (start-up included), and say so.
    fitProblem = d.analysis.note;
    lead = WALL_TIME;
    minEffect = Math.max(MIN_EFFECT, minEffect);
  }
  const pairs = leadPairs(point.pairs, lead.metric);
  const problem = pairs.length ? pairProblem(pairs) : undefined;
  const step = problem
    ? unmeasurable(pairs.length, problem, plan)
    : decidePairs(pairs, lead.direction, { minEffect, affordablePairs, plan });
  return { step, lead, minEffect, ...(fitProblem ? { fitProblem } : {}) };
}

/** The step on the pairs a point has, with no budget left: always a stop. */
export function finalStep(point: PointSoFar, plan: SequentialPlan): PointStep & { step: StopStep } {
  const d = decidePoint(point, 0, plan);
  if (d.step.action !== 'stop') throw new Error('a sequential step without budget did not stop (a bug)');
  return d as PointStep & { step: StopStep };
}
