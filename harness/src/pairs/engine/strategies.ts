/**
 * How one batch of pairs is measured, one strategy per point kind (as run/measure.ts has one
 * runner per job kind):
 * - process: base and head as whole processes, timed by harness/tools/pair-timer (C,
 *   CLOCK_MONOTONIC around fork and wait, one invocation per batch, so the harness's event loop
 *   adds no jitter between the two processes of a pair);
 * - fit: the same at the job's small and large sizes, four processes per pair (S L L S);
 * - self: each program's own reported metric, every run validated like `bench` does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellQuote } from '../../lib/exec.js';
import { sandboxCommand, translate } from '../../machine/sandbox/argv.js';
import type { Tools } from '../../machine/tools.js';
import { commandLine, type Job } from '../../model/job.js';
import { checkedRun, shell, timeoutMs } from '../../run/common.js';
import { prepareStep } from '../../run/empty-scratch.js';
import type { RawRun } from '../../run/runner.js';
import { type PairOrder, pairOrder } from '../decide/pair-statistics.js';
import type { MeasuredPair, PointKind, Values } from '../decide/point.js';
import type { Batch, PointPlan, SideName } from './executor.js';
import { runSchedule } from './pair-timer.js';

export interface StrategyContext {
  tools: Tools;
  /** The pair timer's binary. */
  timer: string;
  /** A process's metric values (the pipeline passes normalize's per-run metrics). */
  values: (job: Job, run: RawRun) => Values;
}

/** Measures the pairs of `orders`; `label(k)` names pair k in error messages. */
export type PairStrategy = (
  point: PointPlan,
  orders: readonly PairOrder[],
  label: (k: number) => string,
  ctx: StrategyContext,
) => Promise<Batch>;

/** The orders of `count` pairs from pair index `from` under `seed` (blocks of AB/BA). */
export const ordersOf = (seed: number, from: number, count: number): PairOrder[] =>
  Array.from({ length: count }, (_, k) => pairOrder(seed, from + k));

const sidesIn = (o: PairOrder): readonly SideName[] => (o === 'AB' ? ['base', 'head'] : ['head', 'base']);

/**
 * The processes of one pair in run order (0 = base, 1 = head; a fit adds 2 = base small, 3 = head
 * small). A fit runs S L L S: the first side small then large, the second large then small, so
 * the two large runs (most of the per-operation signal) are neighbours and a step in the
 * machine's speed between any two processes moves the cost ratio least: of the layouts tried
 * (each side's sizes in turn, S L S L; or mirrored at random) it is the least noisy
 * (docs/paired-design.md). Which side goes first is random
 * (blocks of AB/BA), so a position effect cancels.
 */
export function pairSchedule(order: PairOrder, fit: boolean): number[] {
  const first = order === 'AB' ? 0 : 1;
  return fit ? [first + 2, first, 1 - first, 3 - first] : [first, 1 - first];
}

/**
 * The commands of a point as the timer runs them: each in its own experiment folder; in its side's
 * sandbox when the job has one, started through the timer's gate (`timer` translated to its path
 * inside), so the clock starts once the process is inside.
 */
function inDir(job: Job, size: Pick<Job, 'command'>, timer: string): string {
  if (!job.sandbox) return `cd ${shellQuote(job.cwd)} && ${commandLine(size)}`;
  const gate = translate(timer, job.sandbox.roots);
  const argv = sandboxCommand(job.sandbox, job.cwd, [
    gate,
    '--gate',
    '/bin/bash',
    '-c',
    `set -o pipefail; ${commandLine(size)}`,
  ]);
  return `exec ${argv.map(shellQuote).join(' ')}`;
}

/** Whole processes under the pair timer; a fit adds each side's small size. */
function timed(fit: boolean): PairStrategy {
  return async (point, orders, _label, ctx) => {
    const { base, head } = point;
    const at = (job: Job, size: Pick<Job, 'command'>) => inDir(job, size, ctx.timer);
    const commands = fit
      ? [
          at(base, base.sizes!.at(-1)!),
          at(head, head.sizes!.at(-1)!),
          at(base, base.sizes![0]!),
          at(head, head.sizes![0]!),
        ]
      : [at(base, base), at(head, head)];
    if (Boolean(base.sandbox) !== Boolean(head.sandbox))
      return { ok: false, failed: { side: base.sandbox ? 'head' : 'base', reason: 'only one side has a sandbox' } };
    const schedule = orders.flatMap((order) => pairSchedule(order, fit));
    // Before every process, untimed: the scratch emptied (both sides share its folder) and, for
    // cold points, the head's evictor (both sides read the same input).
    const prepare = prepareStep([base.scratch, head.scratch], head.evict ?? base.evict);
    const r = await runSchedule(ctx.timer, commands, schedule, {
      cwd: head.cwd,
      timeoutMs: timeoutMs(head),
      prepare,
      ...(head.startOn ? { startOn: head.startOn } : {}),
      ...(head.sandbox ? { gated: true } : {}),
    });
    if (!r.ok) {
      const side = r.failed === undefined ? 'head' : r.failed % 2 === 0 ? 'base' : 'head';
      return { ok: false, failed: { side, reason: `a timed run ${r.reason}` } };
    }
    const per = fit ? 4 : 2;
    const pairs = orders.map((order, k): MeasuredPair => {
      const at = (cmd: number) => r.seconds[k * per + schedule.slice(k * per, k * per + per).indexOf(cmd)]!;
      return {
        order,
        base: ctx.values(base, { wall: at(0) }),
        head: ctx.values(head, { wall: at(1) }),
        ...(fit ? { fit: { base: { small: at(2), large: at(0) }, head: { small: at(3), large: at(1) } } } : {}),
      };
    });
    return { ok: true, pairs };
  };
}

/** Self-timed programs: one checked run per side, its own report line as the values. */
const selfTimed: PairStrategy = async (point, orders, label, ctx) => {
  const work = mkdtempSync(join(tmpdir(), 'jsio-pairs-self-'));
  try {
    const pairs: MeasuredPair[] = [];
    for (const [k, order] of orders.entries()) {
      const got: Partial<Record<SideName, Values>> = {};
      for (const side of sidesIn(order)) {
        const job = point[side];
        if (job.evict) {
          const ev = await shell(job, job.evict);
          if (ev.code !== 0)
            return { ok: false, failed: { side, reason: `cold cache: eviction failed (exit ${ev.code})` } };
        }
        const run = await checkedRun(job, ctx.tools, work, label(k));
        if (!run.ok) return { ok: false, failed: { side, reason: run.reason } };
        got[side] = ctx.values(job, { wall: run.seconds, report: run.fields, items: run.items });
      }
      pairs.push({ order, base: got.base!, head: got.head! });
    }
    return { ok: true, pairs };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

export const STRATEGIES: Record<PointKind, PairStrategy> = { process: timed(false), fit: timed(true), self: selfTimed };
