/**
 * The paired diff's counting stage, between the builds and the first pair: every measured point's work
 * counted on both sides on every core (../run/count-sides.ts), the affected points first, within
 * a share of the budget — a base whose count the trend store holds under its key taken from it,
 * once its family's re-check agreed (./stored-base.ts); then whether this diff's counts can be
 * trusted (its control) and each point's counts as comparison.json holds them.
 */

import { WORK_TOLERANCE } from '../../analysis/work.js';
import { shellQuote } from '../../lib/exec.js';
import type { PairsComparison, PairsWork } from '../../model/pairs-document.js';
import type { Host } from '../../pipeline/setup.js';
import type { OpenedCounts } from '../../pipeline/stored-counts.js';
import { countPoints, type PointWork, spreadOf } from '../run/count-sides.js';
import type { PointPlan } from '../run/executor.js';
import { planStoredBase, type Recheck, recheckAgrees, storedBases } from './stored-base.js';

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

type StoredSummary = NonNullable<NonNullable<PairsComparison['counts']>['storedBase']>;

/** How the counts are made: on every core, until the counting share of the budget is spent. */
interface Counting {
  host: Host;
  deadline: number;
  log: (m: string) => void;
}

const countWith = (
  c: Counting,
  plans: readonly PointPlan[],
  stored?: Parameters<typeof countPoints>[2]['storedBase'],
) => {
  const pin = c.host.cpus ? `${shellQuote(c.host.cpus.taskset)} -c ${c.host.cpus.all} ` : undefined;
  return countPoints(plans, c.host.tools, {
    parallel: c.host.machine.cores,
    ...(pin ? { pin } : {}),
    deadline: c.deadline,
    now: () => performance.now(),
    log: c.log,
    ...(stored ? { storedBase: stored } : {}),
  });
};

/**
 * Counts with the stored bases: first one point per deciding family whose stored count is compared
 * live, then the rest, each base from the store where its family agreed (or is evidence only).
 */
async function countWithStore(
  c: Counting,
  order: readonly PointPlan[],
  opened: Extract<OpenedCounts, { ok: true }>,
): Promise<{ work: Map<string, PointWork>; summary: StoredSummary }> {
  const plan = planStoredBase(order, opened);
  const byId = new Map(plan.recheck.map((r) => [r.id, r]));
  const first = order.filter((p) => byId.has(p.id));
  const viaHead = plan.recheck.filter((r) => r.by === 'head').map((r) => r.id);
  const work = await countWith(c, first, storedBases(plan, viaHead));
  const rechecked = plan.recheck.map((r) => ({ r, agreed: recheckAgrees(r, work.get(r.id)) }));
  const refused = new Set(rechecked.filter((x) => !x.agreed).map((x) => x.r.family));
  // A same-key re-check that disagreed took its base from the store: that base is counted live below.
  const again = new Set(rechecked.filter((x) => !x.agreed && x.r.by === 'head').map((x) => x.r.id));
  for (const id of again) work.delete(id);
  if (refused.size)
    c.log(
      `counts: the stored base counts of ${[...refused].join(', ')} were not confirmed live here (${rechecked
        .filter((x) => !x.agreed)
        .map((x) => recheckLine(x.r))
        .join('; ')}): their bases are counted live`,
    );
  const rest = order.filter((p) => !work.has(p.id));
  const usable = rest.filter((p) => plan.reusable.has(p.id) && !refused.has(plan.reusable.get(p.id)!.family));
  for (const [id, w] of await countWith(
    c,
    rest,
    storedBases(
      plan,
      usable.map((p) => p.id),
    ),
  ))
    work.set(id, w);
  const taken = [...work.values()].filter((w) => w.status === 'counted' && w.baseStored).length;
  return {
    work,
    summary: {
      store: 'used',
      taken,
      rechecked: rechecked.map(({ r, agreed }) => ({ benchmark: r.id, family: r.family, by: r.by, agreed })),
    },
  };
}

const recheckLine = (r: Recheck) => `${r.id}, by its ${r.by === 'head' ? "head's live count" : 'base counted live'}`;

/**
 * Counts the plans' work; `askedSeconds` is the pairs' budget as asked for, of which COUNT_SHARE
 * goes here. `stored`: this machine's counts in the trend store (read only), or why there are none.
 */
export async function countStage(
  plans: readonly PointPlan[],
  host: Host,
  askedSeconds: number,
  log: (m: string) => void,
  stored?: OpenedCounts,
): Promise<CountStage> {
  const t = performance.now();
  const c: Counting = { host, deadline: t + askedSeconds * COUNT_SHARE * 1000, log };
  const order = countingOrder(plans);
  const withStore =
    stored?.ok && plans.length && host.tools.valgrind ? await countWithStore(c, order, stored) : undefined;
  const work = withStore?.work ?? (await countWith(c, order));
  const counted = [...work.values()].filter((w) => w.status === 'counted').length;
  // A control point deterministic on each side yet different: the sides do not count alike here.
  const odd = plans.filter(
    (p) => p.impact === 'control' && work.get(p.id)?.status === 'counted' && changedWork(work.get(p.id)!),
  );
  const seconds = (performance.now() - t) / 1000;
  const taken = withStore ? `, ${withStore.summary.taken} of their bases taken from the stored counts` : '';
  log(`counts: ${counted} of ${plans.length} points counted on both sides in ${seconds.toFixed(0)} s${taken}`);
  const storedBase: StoredSummary | undefined =
    withStore?.summary ??
    (stored && !stored.ok ? { store: `not used: ${stored.why}`.slice(0, 200), taken: 0, rechecked: [] } : undefined);
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
      ...(storedBase ? { storedBase } : {}),
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
    ...(w.baseStored ? { baseStored: { commit: w.baseStored.commit } } : {}),
  };
}
