/**
 * The paired diff's counts: before any pair is timed, each measured point's work is counted on both
 * sides under Valgrind (counts/count-instructions.ts), every core at once (a count does not depend
 * on load), the affected points first, the control after, until the counting share of the budget
 * is spent. Each side is counted twice — a fit at both its sizes, so its instructions per
 * operation come with a repeat — and the sides are compared by the exact-counter rule with the
 * one tolerance (counts/count-verdict.ts). A point that could not be counted says why.
 */

import { median } from '../../analysis/two-sample.js';
import { breakdownInstructions } from '../../counts/callgrind.js';
import { diffBreakdowns } from '../../counts/count-breakdown.js';
import { countInstructions } from '../../counts/count-instructions.js';
import { COUNT_TOLERANCE, type CountedRun, relSpread, spanOf } from '../../counts/count-rule.js';
import { unmeasurableText } from '../../counts/count-span-text.js';
import { type CountVerdict, compareCounts } from '../../counts/count-verdict.js';
import { evidenceBecause } from '../../counts/under-valgrind.js';
import type { PairsWork } from '../../formats/pairs-format.js';
import type { WorkBreakdown } from '../../formats/parts/work-breakdown-fields.js';
import type { Tools } from '../../machine/tools.js';
import type { Job } from '../../model/job.js';
import { HARNESS_METRICS } from '../../model/metrics.js';
import type { PointPlan, SideName } from './executor.js';

/** Counted runs of each size per side: one repeat tells whether the counts are deterministic here. */
const COUNTS_PER_SIDE = 2;

export type PointWork =
  | {
      status: 'counted';
      /** instructions_per_op for a fit (start-up cancelled), else instructions (per run, start-up included). */
      metric: 'instructions_per_op' | 'instructions';
      unit: string;
      /** Each side's values, one per repeat. */
      base: number[];
      head: number[];
      verdict: CountVerdict;
      /** decides, or evidence: why its cost is the kernel's, the disk's or the threads' (the comment says). */
      role: 'decides' | 'evidence';
      because?: string;
      settings: string;
      seconds: number;
      /** Where the instructions went (callgrind, both sides at the larger counted size), for a changed count. */
      breakdown?: WorkBreakdown | { unavailable: string };
      /** The base's count taken from the trend store (its key matched): the commit whose run counted it. */
      baseStored?: { commit: string };
      /** Each side's counted runs, as the store keeps them: a re-check compares them with a stored count. */
      runs: { base: CountedRun[]; head: CountedRun[] };
    }
  | { status: 'not-counted'; reason: string };

/** Points whose changed counts get a breakdown, at most: each costs a callgrind run per side. */
const MAX_BREAKDOWNS = 5;

type SideCount = { ok: true; values: number[]; runs: CountedRun[]; seconds: number } | { ok: false; reason: string };

/** One side's values of the point's quantity, with its counted runs, or why it could not be counted. */
async function countSide(job: Job, tools: Tools, pin: string | undefined): Promise<SideCount> {
  const sizes = job.counting?.sizes;
  const x = job.experiment.manifest.fit?.x;
  const runs: CountedRun[] = [];
  let seconds = 0;
  for (let i = 0; i < COUNTS_PER_SIDE; i++) {
    const own = await countInstructions(job, tools, sizes?.at(-1), pin);
    seconds += own.seconds;
    if (!own.ok) return own;
    if (!sizes || !x) {
      runs.push({ size: sizes ? 'large' : 'own', instructions: own.instructions });
      continue;
    }
    const small = await countInstructions(job, tools, sizes[0], pin);
    seconds += small.seconds;
    if (!small.ok) return small;
    runs.push(
      { size: 'small', instructions: small.instructions, x: small.fields[x] ?? sizes[0]!.expected ?? 0 },
      { size: 'large', instructions: own.instructions, x: own.fields[x] ?? sizes.at(-1)!.expected ?? 0 },
    );
  }
  const v = sideValues(job, runs);
  return v.ok ? { ...v, runs, seconds } : v;
}

/**
 * A side's values from its counted runs (counted now, or stored under its key by `bench`, which
 * counts a fit's smaller size once and its larger twice): a fit's instructions per operation, each
 * larger-size repeat against the smaller size's median, or why the span measures no cost; else
 * the count of each run.
 */
export function sideValues(
  job: Job,
  runs: readonly CountedRun[],
): { ok: true; values: number[] } | { ok: false; reason: string } {
  const x = job.experiment.manifest.fit?.x;
  const of = (size: CountedRun['size']) => runs.filter((r) => r.size === size);
  if (!job.counting?.sizes || !x) return { ok: true, values: runs.map((r) => r.instructions) };
  const [small, large] = [of('small'), of('large')];
  const ops = { small: small[0]?.x ?? 0, large: large[0]?.x ?? 0 };
  const dx = ops.large - ops.small;
  if (!small.length || !large.length || !(dx > 0))
    return { ok: false, reason: `counts unavailable: both sizes made the same number of ${x}` };
  const totals = { small: small.map((r) => r.instructions), large: large.map((r) => r.instructions) };
  // Two totals whose difference is no more than their repeats' spread make no cost per operation.
  const span = spanOf({ ops: ops.small, totals: totals.small }, { ops: ops.large, totals: totals.large });
  if ('unmeasurable' in span) return { ok: false, reason: unmeasurableText(span.unmeasurable, x.replace(/s$/, '')) };
  const base = median(totals.small);
  return { ok: true, values: totals.large.map((l) => (l - base) / dx) };
}

/** Runs `run` when a slot is free (./count-sides.ts `slots`). */
export type Gate = <T>(run: () => Promise<T>) => Promise<T>;

/** A gate of `n` slots, first come first served: countings that run side by side share the cores. */
export function slots(n: number): Gate {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (run) => {
    // A slot freed is handed to the first waiting run directly, so no newcomer takes it in between.
    if (active >= n) await new Promise<void>((r) => waiting.push(r));
    else active++;
    try {
      return await run();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** How a point whose stored base count makes no value says so (a family that fails its re-check counts it again). */
export const STORED_BASE_FAILED = 'base (stored)';

/** A base's count taken from the trend store: the runs `bench` stored under the base job's key, and its commit. */
export interface StoredBase {
  runs: CountedRun[];
  commit: string;
}

/** Counts one point on both sides (the base from the store where `stored` is given) and compares them. */
async function countPoint(point: PointPlan, tools: Tools, pin?: string, stored?: StoredBase): Promise<PointWork> {
  const sides: Record<SideName, { values: number[]; runs: CountedRun[] }> = {
    base: { values: [], runs: [] },
    head: { values: [], runs: [] },
  };
  let seconds = 0;
  for (const side of ['base', 'head'] as const) {
    const c =
      side === 'base' && stored
        ? { ...sideValues(point.base, stored.runs), runs: stored.runs, seconds: 0 }
        : await countSide(point[side], tools, pin);
    if (!c.ok)
      return {
        status: 'not-counted',
        reason: `${stored && side === 'base' ? STORED_BASE_FAILED : side}: ${c.reason}`.slice(0, 600),
      };
    sides[side] = { values: c.values, runs: [...c.runs] };
    seconds += c.seconds;
  }
  const metric =
    point.head.counting?.sizes && point.head.experiment.manifest.fit ? 'instructions_per_op' : 'instructions';
  const because = evidenceBecause(point.head);
  return {
    status: 'counted',
    metric,
    unit: HARNESS_METRICS[metric].unit,
    base: sides.base.values,
    head: sides.head.values,
    verdict: compareCounts(sides.base.values, sides.head.values),
    role: because ? 'evidence' : 'decides',
    ...(because ? { because } : {}),
    settings: point.head.counting!.settings,
    seconds,
    ...(stored ? { baseStored: { commit: stored.commit } } : {}),
    runs: { base: sides.base.runs, head: sides.head.runs },
  };
}

/** Where a changed count's instructions went: each side once under callgrind at the larger counted size. */
async function breakdownPoint(point: PointPlan, tools: Tools, pin?: string): Promise<PointBreakdown> {
  const sides = [];
  for (const side of ['base', 'head'] as const) {
    const b = await breakdownInstructions(point[side], tools, point[side].counting?.sizes?.at(-1), pin);
    if (!b.ok) return { unavailable: `${side}: ${b.reason}`.slice(0, 600) };
    sides.push(b.processes);
  }
  return diffBreakdowns(sides[0]!, sides[1]!);
}
type PointBreakdown = WorkBreakdown | { unavailable: string };

/** The spread of a side's repeats (for the comment: how deterministic the counts were). */
const spreadOf = (values: readonly number[]) => relSpread(values);

/**
 * Counts `points` (the affected ones first, then the control), `parallel` at a time, until
 * `deadline` (a performance.now() time) passes: points not started by then are not counted, with
 * the reason. Without Valgrind nothing runs and every point says how to install it.
 */
export async function countPoints(
  points: readonly PointPlan[],
  tools: Tools,
  opts: {
    parallel: number;
    pin?: string;
    deadline: number;
    now: () => number;
    log: (m: string) => void;
    /** Bases whose count the store holds under their key: only their heads are counted. */
    storedBase?: ReadonlyMap<string, StoredBase>;
    /** Shares the cores with other countings running at the same time: each point waits for a slot. */
    gate?: Gate;
  },
): Promise<Map<string, PointWork>> {
  const out = new Map<string, PointWork>();
  if (!tools.valgrind) {
    for (const p of points)
      out.set(p.id, { status: 'not-counted', reason: 'valgrind missing (apt-get install valgrind)' });
    return out;
  }
  let breakdowns = 0;
  const queue = [...points].sort((a, b) => Number(a.impact === 'control') - Number(b.impact === 'control'));
  const gate = opts.gate ?? (<T>(run: () => Promise<T>) => run());
  const one = (p: PointPlan) =>
    gate(async (): Promise<PointWork> => {
      if (opts.now() > opts.deadline)
        return { status: 'not-counted', reason: "the counts' share of the budget was spent first" };
      const w = await countPoint(p, tools, opts.pin, opts.storedBase?.get(p.id));
      if (w.status === 'counted' && w.verdict.kind === 'changed' && breakdowns < MAX_BREAKDOWNS) {
        breakdowns++;
        w.breakdown = await breakdownPoint(p, tools, opts.pin);
      }
      return w;
    });
  const worker = async () => {
    for (let p = queue.shift(); p; p = queue.shift()) {
      const w = await one(p);
      out.set(p.id, w);
      if (w.status === 'counted' && w.verdict.kind === 'changed')
        opts.log(`counts: ${p.id}: work changed (${(w.verdict.change * 100).toFixed(2)} %)`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.parallel, points.length)) }, worker));
  return out;
}

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
    tolerance: COUNT_TOLERANCE,
    role: w.role,
    ...(w.because ? { because: w.because.slice(0, 300) } : {}),
    settings: w.settings.slice(0, 300),
    ...(w.breakdown ? { breakdown: w.breakdown } : {}),
    ...(w.baseStored ? { baseStored: { commit: w.baseStored.commit } } : {}),
  };
}
