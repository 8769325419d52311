/**
 * What happens once per point, before any pair: both sides' answers checked (at every size of a
 * fit), their counters compared exactly, and warm-ups of both that also price a pair.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareCounter } from '../../analysis/exact-counters.js';
import type { PairsCounter } from '../../formats/pairs-format.js';
import { refusedWritesReason } from '../../formats/trace-store-format.js';
import type { Tools } from '../../machine/tools.js';
import type { Job } from '../../model/job.js';
import { harnessMetric } from '../../model/metrics.js';
import { checkedRun, countSyscalls, verifyEviction } from '../../run/common.js';
import { freshScratch } from '../../run/measure.js';
import type { SyscallCounts } from '../../run/parse-strace.js';
import { traceJob } from '../../run/trace-files.js';
import type { Failure, PointPlan, Prepare, SideName } from './executor.js';
import { ordersOf, STRATEGIES, type StrategyContext } from './strategies.js';

/**
 * Untimed strace runs per side, at most, for a point whose counters differ between the sides.
 * Tracing stops as soon as no counter would be called; a difference is called only after
 * MAX_COUNTER_TRACES runs of each side agree on it. A counter with two values that the runs of a
 * threaded runtime (or a pipe's read sizes) take by chance then splits this way between identical
 * sides at most 2 / 4^6 ≈ 1 time in 2,000 (docs/reading-results.md).
 */
export const MAX_COUNTER_TRACES = 6;

type Counts = Record<string, { value: number; unit: string }>;

export interface PrepareContext extends StrategyContext {
  /** A check run's counters (the pipeline passes normalize's): reported fields and syscalls. */
  counters: (job: Job, fields: Record<string, number>, syscalls?: SyscallCounts) => Counts;
}

const SIDES = ['base', 'head'] as const;

/** Checks both sides at every size; returns a fit's operation counts of each side. */
async function checkSides(point: PointPlan, tools: Tools, work: string) {
  const xs: Record<SideName, number[]> = { base: [], head: [] };
  // A base that fails still has its head checked: failing on both sides (a harness or machine
  // problem) and passing on base only (broken by the PR) are different findings.
  let baseFailed: Failure | undefined;
  const fail = (side: SideName, reason: string) => {
    if (side === 'base') baseFailed = { side, reason };
    return side === 'head'
      ? { failed: (baseFailed ? { ...baseFailed, headToo: reason } : { side, reason }) satisfies Failure }
      : undefined;
  };
  for (const side of SIDES) {
    const job = point[side];
    // Kept for all of the point's pairs, removed at the end of the diff.
    freshScratch(job);
    const skip = await verifyEviction(job);
    if (skip) {
      const r = fail(side, skip);
      if (r) return r;
      continue;
    }
    const sizes = job.sizes ?? [{ scale: 1, scope: job.scope, command: job.command }];
    for (const size of sizes) {
      const label = job.sizes ? `at ${size.scale === 1 ? 'its own size' : `scale ${size.scale}`}` : undefined;
      const check = await checkedRun(job, tools, work, label, size);
      if (!check.ok) {
        const r = fail(side, check.reason);
        if (r) return r;
        break;
      }
      const fitX = job.experiment.manifest.fit?.x;
      if (fitX) xs[side].push(check.fields[fitX] ?? (size as { expected?: number }).expected ?? Number.NaN);
    }
    const refused = side === 'head' && point.changed ? await refusedWrites(job, tools, work) : undefined;
    if (refused) return fail(side, refused)!;
  }
  if (baseFailed) return { failed: baseFailed };
  return { xs };
}

/**
 * Whether a changed head's program, run once under the file trace, tried to write outside its
 * scratch folder: the sandbox refused it, but a program that swallows the error would be measured
 * doing something else. The base's points were traced when the diff was planned (its plan lists
 * theirs); the head's code runs only here. A run the trace could not make decides nothing.
 */
async function refusedWrites(job: Job, tools: Tools, work: string): Promise<string | undefined> {
  const t = await traceJob(job, tools, work);
  return t.ok && t.trace.refusedWrites.length ? refusedWritesReason(t.trace.refusedWrites) : undefined;
}

/**
 * Counters: exact, from untimed runs of each side (syscalls under strace, and the fields the
 * traced run itself reported), interleaved base, head, base, head. More runs are traced while
 * some counter would still be called; a counter a side's own runs disagree on (futex counts of
 * threaded runtimes) is judged by the range rule, not called a change. A point measured with
 * every point (calibration) whose inputs did not change is not traced: it can differ only by noise.
 * The control sample is traced like the affected points: a counter change there is a false positive.
 */
async function counterChanges(point: PointPlan, ctx: PrepareContext, work: string): Promise<PairsCounter[]> {
  if (!point.changed && point.impact !== 'control') return [];
  const settled = await traceUntilSettled(async (side) => {
    const t = await countSyscalls(point[side], ctx.tools, work);
    // A trace whose report could not be read has no program counters: never the check run's.
    return { counts: ctx.counters(point[side], t.fields ?? {}, t.syscalls), traced: t.syscalls !== undefined };
  });
  return settled.changed;
}

/**
 * Traces base, head, base, head, … while some counter would be called, at most
 * MAX_COUNTER_TRACES times per side; returns the changes that held over every trace and how many
 * traces each side took.
 */
export async function traceUntilSettled(
  trace: (side: SideName) => Promise<{ counts: Counts; traced: boolean }>,
): Promise<{ changed: PairsCounter[]; tracesPerSide: number }> {
  const traces: Record<SideName, Counts[]> = { base: [], head: [] };
  let traced = true;
  let changed: PairsCounter[] = [];
  let k = 0;
  for (; k < MAX_COUNTER_TRACES && (k === 0 || changed.length > 0); k++) {
    for (const side of SIDES) {
      const t = await trace(side);
      traced &&= t.traced;
      traces[side].push(t.counts);
    }
    changed = changedCounters(traces, traced);
  }
  return { changed, tracesPerSide: k };
}

/** The counters whose traced values differ between the sides by the exact or the range rule. */
function changedCounters(traces: Record<SideName, Counts[]>, traced: boolean): PairsCounter[] {
  const out: PairsCounter[] = [];
  const names = [...new Set([...traces.base, ...traces.head].flatMap((c) => Object.keys(c)))].sort();
  for (const name of names) {
    // strace lists only calls made: where every run was traced, a missing syscall was made 0 times.
    const zero = traced && harnessMetric(name)?.zeroWhenAbsent ? 0 : undefined;
    const values = (side: SideName) => traces[side].map((c) => c[name]?.value ?? zero);
    const [b, h] = [values('base'), values('head')];
    const known = (vs: (number | undefined)[]): vs is number[] => vs.every((v) => v !== undefined);
    if (!known(b) || !known(h)) continue;
    const c = compareCounter(b, h);
    if (!c.changed) continue;
    const unit = [...traces.base, ...traces.head].find((t) => t[name])![name]!.unit;
    out.push({
      metric: name,
      unit,
      base: c.base,
      head: c.head,
      ...(c.baseRange ? { baseRange: c.baseRange } : {}),
      ...(c.headRange ? { headRange: c.headRange } : {}),
    });
  }
  return out;
}

/**
 * A point timing each harness's recorded commands (PointPlan.recordedCommands): its answers were
 * checked by each harness in its recording, and only the timed commands were taken from there (a
 * check run wraps the harness's own command), so here it gets its scratch and eviction only; a
 * fit's operations per size are the manifest's expected counts.
 */
async function recordedSides(point: PointPlan) {
  for (const side of SIDES) {
    freshScratch(point[side]);
    const skip = await verifyEviction(point[side]);
    if (skip) return { failed: { side, reason: skip } satisfies Failure };
  }
  const xs = (point.head.sizes ?? []).map((s) => (s as { expected?: number }).expected ?? Number.NaN);
  return { xs: { base: xs, head: xs } };
}

/** Checks, counters and warm-ups of a point (the real executor's prepare). */
export async function preparePoint(point: PointPlan, ctx: PrepareContext): Promise<Prepare> {
  const work = mkdtempSync(join(tmpdir(), 'jsio-pairs-'));
  try {
    const checked = point.recordedCommands ? await recordedSides(point) : await checkSides(point, ctx.tools, work);
    if (checked.failed) return { ok: false, failed: checked.failed };
    // Their counts are each harness's own (pairs/harness-shift/shift-counts.ts), not a trace of these commands.
    const counters = point.recordedCommands ? [] : await counterChanges(point, ctx, work);
    // Warm-ups of both sides (at least one each), which also price a pair for the budget.
    const warm = Math.max(1, point.head.settings.warmup);
    const t = performance.now();
    for (let i = 0; i < warm; i++) {
      const r = await STRATEGIES[point.kind](point, ordersOf(0, 0, 1), () => 'warm-up', ctx);
      if (!r.ok) return r;
    }
    const xs = checked.xs!;
    return {
      ok: true,
      prepared: {
        counters,
        ...(point.kind === 'fit' ? { sizes: { small: xs.head[0]!, large: xs.head.at(-1)! } } : {}),
        secondsPerPair: (performance.now() - t) / 1000 / warm,
      },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
