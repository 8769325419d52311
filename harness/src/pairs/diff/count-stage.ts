/**
 * The paired diff's counting stage, between the builds and the first pair: every measured point's work
 * counted on both sides on every core (../run/count-sides.ts), the affected points first, within
 * a share of the budget — a base whose count the trend store holds under its key taken from it,
 * once its family's re-check agreed (./stored-base.ts); then whether this diff's counts can be
 * trusted (its control) and each point's counts as comparison.json holds them.
 */

import { COUNT_TOLERANCE } from '../../counts/count-rule.js';
import { type OpenedCounts, openStoredCounts } from '../../counts/stored-counts.js';
import type { CountStoreFile } from '../../formats/count-store-format.js';
import type { PairsComparison } from '../../formats/pairs-format.js';
import { shellQuote } from '../../lib/exec.js';
import { cacheRoot } from '../../machine/cache-root.js';
import type { Host } from '../../pipeline/setup.js';
import { countPoints, type Gate, type PointWork, STORED_BASE_FAILED, slots } from '../engine/count-sides.js';
import type { PreparedSide } from '../engine/diff-sides.js';
import type { PointPlan } from '../engine/executor.js';
import { planStoredBase, type Recheck, recheckAgrees, type StoredBasePlan, storedBases } from './stored-base.js';

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
  /** The cores, shared by countings that run side by side. */
  gate?: Gate;
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
    ...(c.gate ? { gate: c.gate } : {}),
  });
};

/**
 * One deciding family's points whose base is stored: its re-check beside the others, which take
 * their stored base at once (their heads are counted anyway); if the re-check disagrees, they are
 * all counted again with their bases live, and the taken counts are dropped.
 */
async function familyChain(c: Counting, order: readonly PointPlan[], plan: StoredBasePlan, r: Recheck) {
  const point = order.filter((p) => p.id === r.id);
  const others = order.filter((p) => p.id !== r.id && plan.reusable.get(p.id)?.family === r.family);
  const [work, rest] = await Promise.all([
    countWith(c, point, storedBases(plan, r.by === 'head' ? [r.id] : [])),
    countWith(
      c,
      others,
      storedBases(
        plan,
        others.map((p) => p.id),
      ),
    ),
  ]);
  const agreed = recheckAgrees(r, work.get(r.id));
  for (const [id, w] of rest) work.set(id, w);
  if (agreed) return { work, agreed };
  c.log(
    `counts: the stored base counts of ${r.family} were not confirmed live here (${recheckLine(r)}): its bases are counted live`,
  );
  // Every point of the family that took a stored base, the same-key re-check's own included.
  const again = [...point, ...others].filter((p) => {
    const w = work.get(p.id);
    return w?.status === 'counted' ? Boolean(w.baseStored) : w?.reason.startsWith(STORED_BASE_FAILED);
  });
  for (const [id, w] of await countWith(c, again)) work.set(id, w);
  return { work, agreed };
}

/**
 * Counts with the stored bases. Each deciding family with stored bases is re-checked (one point
 * compared live) beside its other points; a family whose re-check disagrees has them counted
 * again with live bases. The points of no re-checked family (a base the store lacks, a family whose
 * counts are evidence) count beside them. All share the cores, the re-checks asking first.
 */
async function countWithStore(
  c: Counting,
  order: readonly PointPlan[],
  opened: Extract<OpenedCounts, { ok: true }>,
): Promise<{ work: Map<string, PointWork>; summary: StoredSummary }> {
  const plan = planStoredBase(order, opened);
  const gated = { ...c, gate: slots(c.host.machine.cores) };
  const checked = new Set(plan.recheck.map((r) => r.family));
  const free = order.filter((p) => !checked.has(plan.reusable.get(p.id)?.family ?? ''));
  const [freeWork, ...chains] = await Promise.all([
    countWith(
      gated,
      free,
      storedBases(
        plan,
        free.map((p) => p.id),
      ),
    ),
    ...plan.recheck.map((r) => familyChain(gated, order, plan, r)),
  ]);
  const work = new Map<string, PointWork>();
  // In the plans' order, as comparison.json lists them.
  for (const p of order) {
    const w = freeWork.get(p.id) ?? chains.find((ch) => ch.work.has(p.id))?.work.get(p.id);
    if (w) work.set(p.id, w);
  }
  const taken = [...work.values()].filter((w) => w.status === 'counted' && w.baseStored).length;
  return {
    work,
    summary: {
      store: 'used',
      taken,
      rechecked: plan.recheck.map((r, i) => ({
        benchmark: r.id,
        family: r.family,
        by: r.by,
        agreed: chains[i]!.agreed,
      })),
    },
  };
}

const recheckLine = (r: Recheck) => `${r.id}, by its ${r.by === 'head' ? "head's live count" : 'base counted live'}`;

/**
 * Counts the plans' work within `seconds` (the budget's share for the counts, Budget.countSeconds).
 * `stored`: this machine's counts in the trend store (read only), or why there are none.
 */
export async function countStage(
  plans: readonly PointPlan[],
  host: Host,
  seconds: number,
  log: (m: string) => void,
  stored?: OpenedCounts,
): Promise<CountStage> {
  const t = performance.now();
  const c: Counting = { host, deadline: t + seconds * 1000, log };
  const order = countingOrder(plans);
  const withStore =
    stored?.ok && plans.length && host.tools.valgrind ? await countWithStore(c, order, stored) : undefined;
  const work = withStore?.work ?? (await countWith(c, order));
  const counted = [...work.values()].filter((w) => w.status === 'counted').length;
  const odd = unlikeControls(plans, work);
  const took = (performance.now() - t) / 1000;
  const taken = withStore ? `, ${withStore.summary.taken} of their bases taken from the stored counts` : '';
  log(`counts: ${counted} of ${plans.length} points counted on both sides in ${took.toFixed(0)} s${taken}`);
  const storedBase: StoredSummary | undefined =
    withStore?.summary ??
    (stored && !stored.ok ? { store: `not used: ${stored.why}`.slice(0, 200), taken: 0, rechecked: [] } : undefined);
  return {
    work,
    summary: {
      counted,
      notCounted: plans.length - counted,
      seconds: took,
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
      tolerance: COUNT_TOLERANCE,
      ...(storedBase ? { storedBase } : {}),
    },
  };
}

/**
 * The control points whose counts say the two sides do not count alike here: deterministic on each
 * side yet different between them. Only a point whose counts decide can say that: one whose
 * runtime's counts vary from run to run (evidence only: Bun's, say) differs between two countings
 * made at other times without the sides being at fault (a one-program diff once lost its exact answer
 * to a Bun control that moved 1.05 % between the stored base and the live head).
 */
export function unlikeControls(
  plans: readonly Pick<PointPlan, 'id' | 'impact'>[],
  work: ReadonlyMap<string, PointWork>,
) {
  return plans.filter((p) => {
    const w = work.get(p.id);
    return p.impact === 'control' && w?.status === 'counted' && w.role === 'decides' && w.verdict.kind === 'changed';
  });
}

/** This machine's counts in a trend store, read (and so checked) before anything ran; never written. */
export interface CountStoreOnDisk {
  dir: string;
  file: CountStoreFile;
}

/** The trend store's counts of this machine for the base side, when one was given (read only). */
export function storedCountsOf(
  countStore: CountStoreOnDisk | undefined,
  host: Host,
  base: PreparedSide,
): OpenedCounts | undefined {
  if (!countStore) return undefined;
  return openStoredCounts(
    {
      storeDir: countStore.dir,
      machine: host.machine.id,
      recount: false,
      // Every side runs in its sandbox here (planned with `sandbox: 'required'`), unless --no-sandbox.
      sandbox: base.jobs.every((j) => j.sandbox) ? 'bubblewrap' : 'none',
      tools: host.tools,
      toolchains: base.toolchains,
      // The harness's cache outside the checkouts, as bench's (the valgrind CPU probe is kept there).
      cacheDir: cacheRoot(),
    },
    countStore.file,
  );
}
