/**
 * The paired runner's schedule: prepare every matched point, then rounds in which the undecided
 * points ask the sequential rule (pairs/decide/point.ts) how many more pairs they need and
 * share what is left of the time budget, until every point is decided, the budget is spent or
 * the diff is interrupted. Processes are run by a PairExecutor (./executor.ts); time comes from
 * an injected clock, so the schedule is tested with a fake executor and no processes.
 */

import type { PairsCounter } from '../../formats/pairs-format.js';
import type { FitSizes } from '../decide/fit-pairs.js';
import { decidePoint, finalStep, type PointSoFar, type PointStep, type StopStep } from '../decide/point.js';
import type { SequentialPlan } from '../decide/sequential.js';
import { shareBudget } from '../decide/time-budget.js';
import type { Budget } from './budget.js';
import type { Failure, PairExecutor, PointPlan } from './executor.js';
import { leadMetric, otherMetrics } from './lead-metric.js';

/** A point while it is measured: its plan, its pairs so far and what was decided on them. */
interface PointState extends PointSoFar {
  plan: PointPlan;
  impact: PointPlan['impact'];
  counters: PairsCounter[];
  sizes?: FitSizes;
  /** Seconds one pair costs (the warm-ups' estimate, then what the pairs took). */
  secondsPerPair: number;
  /** Seconds spent on this point's pairs. */
  spent: number;
  stop?: StopStep;
  fitProblem?: string;
  failed?: Failure;
}

export type DecidedPoint = PointState & { stop: StopStep };

const planFor = (o: Pick<ScheduleOptions, 'plan' | 'planOf'>, s: { plan: PointPlan }) =>
  o.planOf?.(s.plan.id) ?? o.plan;

export interface ScheduleOptions {
  plan: SequentialPlan;
  /** A point's own plan (its share of the diff-wide false-positive level, pairs/decide/multiplicity.ts); default `plan`. */
  planOf?: (id: string) => SequentialPlan;
  /**
   * The plan all a point's other timed metrics share (their part of its level; undefined for a
   * point given none). Without this option they are not judged at the diff-wide level at all (nor
   * do they keep a point sampling).
   */
  othersPlanOf?: (id: string) => SequentialPlan | undefined;
  /** The diff's time: its clock, set-up measured from its start, what set-up leaves the pairs and each tier's share. */
  budget: Pick<Budget, 'now' | 'startedAt' | 'askedSeconds' | 'pairsSeconds' | 'tiers' | 'cutText'>;
  /** A point's minimum effect for a lead metric (2%, or its calibrated threshold). */
  minEffectOf: (id: string, metric: string) => number;
  interrupted: () => boolean;
  log: (m: string) => void;
}

export interface SamplingResult {
  /** Points that have pairs or a stop, in plan order, each with its final stop. */
  measured: DecidedPoint[];
  /** Points that could not be measured, in the order they failed. */
  failures: { id: string; failed: Failure }[];
  setupSeconds: number;
  /** The pairs' budget left after set-up (the deadline's cut included). */
  leftSeconds: number;
}

/** The state after a step: its lead (a fit may fall back to wall time) and, when it stopped, the stop. */
function withStep(s: PointState, d: PointStep): PointState {
  const fitProblem = d.fitProblem ?? s.fitProblem;
  return {
    ...s,
    lead: d.lead,
    minEffect: d.minEffect,
    ...(fitProblem ? { fitProblem } : {}),
    ...(d.step.action === 'stop' ? { stop: d.step } : {}),
  };
}

/** Prepares the points in order; one that fails is left out, and listed. */
async function prepareAll(plans: readonly PointPlan[], exec: PairExecutor, o: ScheduleOptions) {
  const states: PointState[] = [];
  const failures: SamplingResult['failures'] = [];
  for (const [i, plan] of plans.entries()) {
    if (o.interrupted()) break;
    o.log(`pairs: preparing ${plan.id} (${i + 1}/${plans.length})`);
    const r = await exec.prepare(plan);
    if (o.interrupted()) break;
    if (!r.ok) {
      failures.push({ id: plan.id, failed: r.failed });
      continue;
    }
    // The lead metric is known after the first pair; before it, the warm-up tells wall_time only.
    const lead = leadMetric(plan.head, {});
    const { counters, sizes, secondsPerPair } = r.prepared;
    const othersPlan = o.othersPlanOf?.(plan.id);
    const leadPlan = planFor(o, { plan });
    states.push({
      ...(o.othersPlanOf ? { others: { leadPlan, ...(othersPlan ? { plan: othersPlan } : {}), metrics: [] } } : {}),
      plan,
      kind: plan.kind,
      impact: plan.impact,
      lead,
      minEffect: o.minEffectOf(plan.id, lead.metric),
      pairs: [],
      counters,
      ...(sizes ? { sizes } : {}),
      secondsPerPair,
      spent: 0,
    });
  }
  return { states, failures };
}

/** Measures the pairs granted to one point; returns its new state. */
async function measureBatch(
  s: PointState,
  n: number,
  exec: PairExecutor,
  o: ScheduleOptions,
  failures: SamplingResult['failures'],
): Promise<PointState> {
  const t = o.budget.now();
  const from = s.pairs.length;
  const b = await exec.measure(s.plan, from, n);
  const spent = s.spent + (o.budget.now() - t) / 1000;
  const next: PointState = { ...s, spent, pairs: b.ok ? [...s.pairs, ...b.pairs] : s.pairs };
  // A batch the interrupt killed is no failure of the program: its pairs are just missing.
  if (o.interrupted()) return next;
  if (!b.ok) {
    failures.push({ id: s.plan.id, failed: b.failed });
    return { ...next, failed: b.failed };
  }
  const lead = from === 0 ? leadMetric(s.plan.head, next.pairs[0]!.head) : s.lead;
  const minEffect = from === 0 ? o.minEffectOf(s.plan.id, lead.metric) : s.minEffect;
  // The other metrics are known from the first pair's values, each with its own minimum effect.
  const others =
    from === 0 && s.others
      ? {
          ...s.others,
          metrics: otherMetrics(s.plan.head, lead.metric, Object.keys(next.pairs[0]!.head)).map((m) => ({
            ...m,
            minEffect: o.minEffectOf(s.plan.id, m.metric),
          })),
        }
      : s.others;
  // The price of a pair, from what the pairs cost so far (warm-up estimate replaced).
  return { ...next, lead, minEffect, ...(others ? { others } : {}), secondsPerPair: spent / next.pairs.length };
}

/**
 * Rounds of steps and batches over some of the points (`ids`, one budget tier with `shareSeconds`),
 * until each has stopped, the tier's share is spent or the diff is interrupted.
 */
async function sampleRounds(
  states: PointState[],
  ids: ReadonlySet<string>,
  exec: PairExecutor,
  o: ScheduleOptions,
  shareSeconds: number,
  failures: SamplingResult['failures'],
): Promise<void> {
  const start = o.budget.now();
  const shareLeft = () => Math.max(0, shareSeconds - (o.budget.now() - start) / 1000);
  const index = new Map(states.map((s, i) => [s.plan.id, i]));
  const set = (s: PointState) => {
    states[index.get(s.plan.id)!] = s;
  };
  for (let roundNo = 1; !o.interrupted(); roundNo++) {
    const open = states.filter((s) => ids.has(s.plan.id) && !s.stop && !s.failed);
    if (!open.length) break;
    const pointSeconds = shareLeft() / open.length;
    const requests: { id: string; more: number; secondsPerPair: number }[] = [];
    for (const s of open) {
      const d = decidePoint(s, Math.floor(pointSeconds / Math.max(s.secondsPerPair, 1e-3)), planFor(o, s));
      set(withStep(s, d));
      if (d.step.action === 'continue')
        requests.push({ id: s.plan.id, more: d.step.more, secondsPerPair: s.secondsPerPair });
    }
    // Every open point stopped: the loop ends on the next check.
    if (!requests.length) continue;
    const granted = shareBudget(
      requests.map((r) => ({ pairs: r.more, secondsPerPair: Math.max(r.secondsPerPair, 1e-3) })),
      shareLeft(),
    );
    o.log(
      `pairs: round ${roundNo}: ${requests.length} points, ${granted.reduce((a, b) => a + b, 0)} pairs, ${shareLeft().toFixed(0)} s left`,
    );
    for (const [k, r] of requests.entries()) {
      if (o.interrupted()) break;
      const s = states[index.get(r.id)!]!;
      const n = granted[k]!;
      if (n === 0) set(withStep(s, finalStep(s, planFor(o, s))));
      else set(await measureBatch(s, n, exec, o, failures));
    }
  }
}

/** Prepares and measures the points; every point with pairs ends with a stop (its verdict). */
export async function runPairsPoints(
  plans: readonly PointPlan[],
  exec: PairExecutor,
  o: ScheduleOptions,
): Promise<SamplingResult> {
  const { states, failures } = await prepareAll(plans, exec, o);
  const setupSeconds = (o.budget.now() - o.budget.startedAt) / 1000;
  const leftSeconds = o.budget.pairsSeconds(setupSeconds);
  if (leftSeconds < o.budget.askedSeconds) o.log(`pairs: ${o.budget.cutText(setupSeconds, leftSeconds)}`);
  for (const tier of o.budget.tiers(states, leftSeconds))
    await sampleRounds(states, new Set(tier.points.map((s) => s.plan.id)), exec, o, tier.shareSeconds, failures);
  // Points the loop left undecided (interrupted) are judged on what they have, as cut by the budget.
  const measured = states
    .filter((s) => !s.failed && (s.stop || s.pairs.length))
    .map((s) => (s.stop ? s : withStep(s, finalStep(s, planFor(o, s)))) as DecidedPoint);
  return { measured, failures, setupSeconds, leftSeconds };
}
