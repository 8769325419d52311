/**
 * What a paired diff answers, from what the engine measured (./pair-engine.ts): comparison.json's
 * points, what could not be measured and why, the warnings, and pairs.json — every pair's values
 * and what judging them again needs. The caller adds what it alone knows: the impact plan's
 * reasons, each point's counted work.
 */

import { busyByOthers, isBusy } from '../../analysis/busy.js';
import type { PairRecordDocument } from '../../formats/pair-record-format.js';
import type { PairsComparison } from '../../formats/pairs-format.js';
import { currentConditions } from '../../machine/conditions.js';
import type { Host } from '../../pipeline/setup.js';
import { type ImpactPlan, reasonLine } from '../decide/impact.js';
import { FALSE_POSITIVE_LEVEL, falsePositiveNote } from '../decide/multiplicity.js';
import { type PairRecord, type PointResult, pairRecord, pointRow } from '../decide/rows.js';
import type { Budget } from './budget.js';
import { pairsComparison } from './comparison-json.js';
import { type PointWork, pairsWork } from './count-sides.js';
import type { Matched, PreparedSide } from './diff-sides.js';
import type { Engine, Measured } from './pair-engine.js';
import { pairRecordDocument } from './record-pairs.js';
import type { DecidedPoint, SamplingResult } from './scheduler.js';

export interface PairsResult {
  comparison: PairsComparison;
  /** Every point's pairs in run order: the lead's (A/A calibration replays them) and every other metric's. */
  record: PairRecord[];
  /** pairs.json: every pair's values and what judging them again needs (formats/pair-record-format.ts). */
  document: PairRecordDocument;
  interrupted: boolean;
}

/** What only the caller knows: why points were measured, and their counted work as comparison.json holds it. */
export interface OutcomeExtras {
  impact?: ImpactPlan;
  work?: ReadonlyMap<string, PointWork>;
}

/** A decided point as the rows see it. */
const pointResult = (p: DecidedPoint): PointResult => ({
  ...p,
  changed: p.plan.changed,
  ...(p.plan.workloadChange ? { workloadChange: p.plan.workloadChange } : {}),
  benchmark: p.plan.id,
  experiment: p.plan.head.experiment.id,
  variant: p.plan.head.variant.id,
  params: p.plan.head.params,
  placement: p.plan.head.placement,
});

/** Conditions that make this diff's timings or coverage less than a full answer. */
function warningsOf(budget: Budget, host: Host, s: Measured): string[] {
  const warnings: string[] = [];
  const cores = host.machine.cores;
  const interference =
    'pairs share the interference, but noisier pairs need more of them, so more points may be inconclusive';
  // The load average counts the diff's own programs (an idle runner's rises during a diff too,
  // docs/reading-results.md), so it decides only where the CPU time other processes took cannot be measured.
  if (s.foreignCores !== undefined) {
    if (busyByOthers(s.foreignCores, cores))
      warnings.push(
        `other processes used ${s.foreignCores.toFixed(2)} of the ${cores} cores while the pairs ran (the machine's CPU time less the diff's own): ${interference}`,
      );
  } else {
    const cond = currentConditions(undefined);
    if (isBusy(cond, cores))
      warnings.push(
        `the machine was busy at the end of the diff (load average ${cond.loadAverage[0].toFixed(1)} on ${cores} cores, the diff's own programs included): ${interference}`,
      );
  }
  if (s.interrupted) warnings.push('the diff was interrupted: points were judged on the pairs measured so far');
  if (budget.cutShort(s.measured, s.leftSeconds)) warnings.push(budget.cutText(s.setupSeconds, s.leftSeconds));
  return warnings;
}

/** The points that could not be measured (a failed check or batch), as comparison.json lists them. */
function failuresOf(s: Measured, matched: Matched): PairsComparison['notMeasured'] {
  const changed = new Set(matched.plans.filter((p) => p.changed).map((p) => p.id));
  return s.failures.flatMap(({ id, failed: f }) =>
    [{ side: f.side, reason: f.reason }, ...(f.headToo ? [{ side: 'head' as const, reason: f.headToo }] : [])].map(
      (x) => ({
        benchmark: id,
        side: x.side,
        status: 'failed' as const,
        reason: x.reason.slice(0, 2000),
        // A program that crashes is as changed as one that runs.
        ...(changed.has(id) ? { changed: true } : {}),
      }),
    ),
  );
}

/**
 * Points an interrupt left before any pair or failure (never prepared, or prepared and not yet
 * sampled): listed, so every matched point has an answer in the comparison.
 */
export function notReached(
  s: Pick<SamplingResult, 'measured' | 'failures'>,
  matched: Pick<Matched, 'plans'>,
): PairsComparison['notMeasured'] {
  const answered = new Set([...s.measured.map((p) => p.plan.id), ...s.failures.map((f) => f.id)]);
  return matched.plans
    .filter((p) => !answered.has(p.id))
    .flatMap((p) =>
      (['base', 'head'] as const).map((side) => ({
        benchmark: p.id,
        side,
        status: 'skipped' as const,
        reason: 'the diff was interrupted before this point was measured',
        ...(p.changed ? { changed: true } : {}),
      })),
    );
}

const levelOf = (levels: Map<string, number>, id: string) => {
  const a = levels.get(id);
  return a === undefined ? {} : { alpha: Number(a.toPrecision(6)) };
};

/** Why each measured point was measured, where an impact plan chose them. */
function impactRows(impact: ImpactPlan | undefined) {
  if (!impact) return {};
  return {
    notAffected: impact.notAffected,
    affectedBecause: [...impact.affected].map(([benchmark, reasons]) => ({
      benchmark,
      reason: reasonLine(reasons).slice(0, 600),
    })),
  };
}

/** The diff's answer: comparison.json (without the caller's sections), its rows and pairs.json. */
export function pairsOutcome(
  engine: Engine,
  sides: { base: PreparedSide; head: PreparedSide },
  matched: Matched,
  s: Measured,
  extras: OutcomeExtras = {},
): PairsResult {
  const points = s.measured.map(pointResult);
  const planOf = new Map(matched.plans.map((p) => [p.id, p]));
  const workRow = (id: string) => {
    const w = extras.work?.get(id);
    const plan = planOf.get(id);
    return w && plan ? { work: pairsWork(w, plan) } : {};
  };
  const comparison = pairsComparison({
    plan: engine.plan,
    falsePositiveNote: falsePositiveNote(matched.plans),
    seed: engine.seed,
    machine: engine.host.machine,
    budget: engine.budget.record(s.setupSeconds),
    base: sides.base,
    head: sides.head,
    points: points.map((p) => ({
      ...pointRow(p),
      ...levelOf(s.levels, p.benchmark),
      ...workRow(p.benchmark),
    })),
    added: matched.added,
    removed: matched.removed,
    notMeasured: [...matched.notMeasured, ...failuresOf(s, matched), ...notReached(s, matched)],
    warnings: warningsOf(engine.budget, engine.host, s),
    ...impactRows(extras.impact),
  });
  const document = pairRecordDocument({
    points: s.measured,
    work: extras.work ?? new Map(),
    seed: engine.seed,
    plan: engine.plan,
    level: FALSE_POSITIVE_LEVEL,
  });
  return { comparison, record: points.map(pairRecord), document, interrupted: s.interrupted };
}
