/**
 * The paired diff's counting stage, between the builds and the first pair: every measured point's work
 * counted on both sides on every core (../run/count-sides.ts), the affected points first, within
 * a share of the budget; then whether this diff's counts can be trusted (its control) and each
 * point's counts as comparison.json holds them.
 */

import { WORK_TOLERANCE } from '../../analysis/work.js';
import { shellQuote } from '../../lib/exec.js';
import type { PairsComparison, PairsWork } from '../../model/pairs-document.js';
import type { Host } from '../../pipeline/setup.js';
import { countPoints, type PointWork, spreadOf } from '../run/count-sides.js';
import type { PointPlan } from '../run/executor.js';

/** The share of the pairs' budget the counts may take before the pairs start. */
export const COUNT_SHARE = 1 / 3;

/** The affected points of each program first (one per program, then a second...), the control last. */
function countingOrder(plans: readonly PointPlan[]): PointPlan[] {
  const groups = new Map<string, PointPlan[]>();
  for (const p of plans.filter((q) => q.impact !== 'control')) {
    const key = `${p.head.experiment.id}/${p.head.variant.id}/${p.head.runtime}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const out: PointPlan[] = [];
  const queues = [...groups.values()];
  while (queues.some((q) => q.length)) for (const q of queues) if (q.length) out.push(q.shift()!);
  return [...out, ...plans.filter((q) => q.impact === 'control')];
}

export interface CountStage {
  work: Map<string, PointWork>;
  summary: NonNullable<PairsComparison['counts']>;
}

/** Counts the plans' work; `askedSeconds` is the pairs' budget as asked for, of which COUNT_SHARE goes here. */
export async function countStage(
  plans: readonly PointPlan[],
  host: Host,
  askedSeconds: number,
  log: (m: string) => void,
): Promise<CountStage> {
  const t = performance.now();
  const pin = host.cpus ? `${shellQuote(host.cpus.taskset)} -c ${host.cpus.all} ` : undefined;
  const work = await countPoints(countingOrder(plans), host.tools, {
    parallel: host.machine.cores,
    ...(pin ? { pin } : {}),
    deadline: t + askedSeconds * COUNT_SHARE * 1000,
    now: () => performance.now(),
    log,
  });
  const counted = [...work.values()].filter((w) => w.status === 'counted').length;
  // A control point deterministic on each side yet different: the sides do not count alike here.
  const odd = plans.filter(
    (p) => p.impact === 'control' && work.get(p.id)?.status === 'counted' && changedWork(work.get(p.id)!),
  );
  const seconds = (performance.now() - t) / 1000;
  log(`counts: ${counted} of ${plans.length} points counted on both sides in ${seconds.toFixed(0)} s`);
  return {
    work,
    summary: {
      counted,
      notCounted: plans.length - counted,
      seconds,
      trusted: odd.length === 0,
      ...(odd.length
        ? {
            untrustedBecause:
              `the control point ${odd[0]!.id} counted deterministically on each side yet differently between them${odd.length > 1 ? ` (and ${odd.length - 1} more)` : ''}`.slice(
                0,
                600,
              ),
          }
        : {}),
      tolerance: WORK_TOLERANCE,
    },
  };
}

const changedWork = (w: PointWork) => w.status === 'counted' && w.verdict.kind === 'changed';

/** A point's counts as comparison.json holds them. */
export function pairsWork(w: PointWork, plan: PointPlan): PairsWork {
  if (w.status === 'not-counted') return { status: 'not-counted', reason: w.reason.slice(0, 600) };
  const x = plan.head.experiment.manifest.fit?.x;
  return {
    status: 'counted',
    metric: w.metric,
    ...(w.metric === 'instructions_per_op' && x ? { per: x.replace(/s$/, '').slice(0, 40) } : {}),
    unit: w.unit,
    base: w.base,
    head: w.head,
    verdict: w.verdict.kind,
    ...(w.verdict.kind !== 'not-deterministic' ? { change: w.verdict.change } : {}),
    spread: Math.max(spreadOf(w.base), spreadOf(w.head)),
    tolerance: WORK_TOLERANCE,
    role: w.role,
    ...(w.because ? { because: w.because.slice(0, 300) } : {}),
    settings: w.settings.slice(0, 300),
    ...(w.breakdown ? { breakdown: w.breakdown } : {}),
  };
}
