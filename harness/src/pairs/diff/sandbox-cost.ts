/**
 * The sandbox's cost per process, A/A: one point's own process with its sandbox against the same
 * process without one, timed in pairs by the pair timer (AB/BA in blocks, the scratch emptied
 * before each process, untimed), the same command and the same build on both. Two batches:
 * - gated: the clock starts once the process is inside its sandbox (as the paired diff times it);
 *   the process without one goes through the same gate, so the difference is what the sandbox
 *   still costs once it has started (mount namespace, the paths it resolves);
 * - whole: the clock runs around bubblewrap's start too (what a timer without the gate would see).
 * Nothing is stored: the figures are printed (docs/paired-design.md).
 */
import { join } from 'node:path';
import { medianInterval } from '../../analysis/median-interval.js';
import { UserError } from '../../lib/errors.js';
import { shellQuote } from '../../lib/exec.js';
import { cacheRoot, checkoutCache } from '../../machine/cache-root.js';
import { sandboxCommand, translate } from '../../machine/sandbox/argv.js';
import { commandLine, type Job } from '../../model/job.js';
import type { Profile } from '../../model/profiles.js';
import { type Host, planCheckout, setUpMachine } from '../../pipeline/setup.js';
import { loadAllExperiments } from '../../plan/experiments.js';
import { expand, type Filters } from '../../plan/plan.js';
import { buildAll } from '../../run/build.js';
import { timeoutMs } from '../../run/common.js';
import { prepareStep } from '../../run/empty-scratch.js';
import { pairTimer, runSchedule } from '../engine/pair-timer.js';
import { ordersOf, pairSchedule } from '../engine/strategies.js';

export interface SandboxCostOptions {
  root: string;
  profile: Profile;
  filters: Filters;
  /** Pairs per batch. */
  pairs: number;
  seed: number;
  log: (m: string) => void;
}

/** One batch's figures: each side's median process time and the per-pair ratio with / without. */
interface CostBatch {
  mode: 'gated' | 'whole';
  pairs: number;
  withoutMs: number;
  withMs: number;
  ratio: { median: number; low: number; high: number };
}

export interface PointCost {
  point: string;
  batches: CostBatch[];
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * The two commands of a point: [with its sandbox, without]; gated, both start through the timer's
 * gate (the one inside the sandbox by its path there).
 */
function commands(job: Job & { sandbox: NonNullable<Job['sandbox']> }, timer: string, gated: boolean): string[] {
  const script = `set -o pipefail; ${commandLine(job)}`;
  const gate = (t: string) => (gated ? [t, '--gate'] : []);
  const inside = sandboxCommand(job.sandbox, job.cwd, [
    ...gate(translate(timer, job.sandbox.roots)),
    '/bin/bash',
    '-c',
    script,
  ]);
  const outside = [...gate(timer), '/bin/bash', '-c', `cd ${shellQuote(job.cwd)} && ${script}`];
  return [inside, outside].map((argv) => `exec ${argv.map(shellQuote).join(' ')}`);
}

/** One batch of `pairs` pairs of a point in `mode`. */
async function batch(job: Job, timer: string, mode: CostBatch['mode'], o: SandboxCostOptions): Promise<CostBatch> {
  if (!job.sandbox) throw new UserError(`${job.id}: planned without a sandbox`);
  const orders = ordersOf(o.seed, 0, o.pairs);
  const schedule = orders.flatMap((order) => pairSchedule(order, false));
  const r = await runSchedule(timer, commands({ ...job, sandbox: job.sandbox }, timer, mode === 'gated'), schedule, {
    cwd: job.cwd,
    timeoutMs: timeoutMs(job),
    prepare: prepareStep([job.scratch], job.evict),
    ...(job.startOn ? { startOn: job.startOn } : {}),
    ...(mode === 'gated' ? { gated: true } : {}),
  });
  if (!r.ok) throw new UserError(`${job.id}: a timed run ${mode === 'gated' ? '(gated)' : ''} ${r.reason}`);
  // Schedule entry i ran command schedule[i]: 0 with the sandbox, 1 without.
  const withS: number[] = [];
  const without: number[] = [];
  for (const [i, cmd] of schedule.entries()) (cmd === 0 ? withS : without).push(r.seconds[i]!);
  const ratios = withS.map((w, k) => w / without[k]!);
  const ci = medianInterval(ratios);
  const m = median(ratios);
  return {
    mode,
    pairs: o.pairs,
    withoutMs: median(without) * 1000,
    withMs: median(withS) * 1000,
    ratio: { median: m, low: ci?.low ?? m, high: ci?.high ?? m },
  };
}

/** Plans the selected points in their sandbox, builds them, and times each in both modes. */
export async function sandboxCost(o: SandboxCostOptions): Promise<PointCost[]> {
  const points = expand(loadAllExperiments(join(o.root, 'programs')), o.profile, o.filters);
  if (!points.length) throw new UserError('no point matches the selection');
  const host: Host = await setUpMachine({}, o.log);
  const { jobs } = await planCheckout(
    points,
    host,
    {
      root: o.root,
      cacheDir: cacheRoot(),
      jobCacheDir: checkoutCache(o.root),
      evictorRoot: o.root,
      require: [],
      sandbox: 'required',
    },
    o.log,
  );
  const builds = await buildAll(jobs, o.log);
  const timer = await pairTimer(o.root, o.log);
  const out: PointCost[] = [];
  for (const job of jobs) {
    const built = job.build ? builds.get(job.build.key) : undefined;
    if (job.blocked || (built && !built.ok))
      throw new UserError(`${job.id}: ${job.blocked?.reason ?? (built && !built.ok ? built.reason : '')}`);
    o.log(`${job.id}: ${o.pairs} pairs, gated, then ${o.pairs} with the sandbox's start timed`);
    out.push({ point: job.id, batches: [await batch(job, timer, 'gated', o), await batch(job, timer, 'whole', o)] });
  }
  return out;
}
