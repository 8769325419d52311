/**
 * The paired PR diff (`npm run pairs`, issue 17, docs/paired-design.md). The head's harness loads
 * both checkouts' programs, plans both with the same profile and filters, builds both, and pairs
 * their jobs by benchmark id and workload hash. Each matched point is then measured in PAIRS:
 * one base and one head process back to back, in a seeded random order per pair (pairOrder),
 * under the job's placement, after warm-ups of both; a fit point's pair is four processes (both
 * sides at both sizes). Points get more pairs until the sequential rule decides or their share of
 * the time budget is spent. Counters (syscalls, the program's own counts) are compared exactly,
 * once per side.
 *
 * Timing: whole-process points are timed by harness/tools/pair-timer (C, CLOCK_MONOTONIC around
 * fork and wait, one invocation per batch of pairs, so the harness's event loop adds no jitter
 * between the two processes of a pair); self-timed points (runner "self") use each program's
 * own reported metric, every run validated like `bench` does.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isBusy } from '../analysis/busy.js';
import {
  comparePaired,
  type Direction,
  MIN_EFFECT,
  orderEffect,
  type Pair,
  type PairOrder,
  pairOrder,
  pairProblem,
} from '../analysis/paired.js';
import { shareBudget } from '../analysis/paired-budget.js';
import { compareCounter } from '../analysis/paired-counters.js';
import { compareFit, decideFit, type FitPair, fitProblem } from '../analysis/paired-fit.js';
import {
  DEFAULT_PLAN,
  decidePaired,
  type SequentialDecision,
  type SequentialPlan,
} from '../analysis/paired-sequential.js';
import { median } from '../analysis/two-sample.js';
import { type BuildOutcome, buildAll } from '../build/build.js';
import type { NoiseThresholds } from '../compare/compare.js';
import { workloadChange } from '../compare/compare.js';
import { UserError } from '../lib/errors.js';
import { shellQuote } from '../lib/exec.js';
import { assertValid } from '../lib/json-file.js';
import { currentConditions } from '../machine/conditions.js';
import { commitInfo } from '../machine/machine.js';
import { readPins, resolveRuntime } from '../machine/toolchains.js';
import { buildTool, type Tools } from '../machine/tools.js';
import {
  PAIRED_COMPARISON_SCHEMA,
  PairedComparison,
  type PairedMetric,
  type PairedPoint,
} from '../model/comparison.js';
import { commandLine, type Job } from '../model/job.js';
import type { Experiment } from '../model/manifest.js';
import type { Profile } from '../model/profiles.js';
import { metricsOf } from '../normalize/normalize.js';
import { loadAllExperiments } from '../plan/experiments.js';
import { expand, type Filters } from '../plan/plan.js';
import { checkedRun, countSyscalls, shell, timeoutMs, verifyEviction } from '../run/common.js';
import { freshScratch, removeScratch } from '../run/measure.js';
import { runSchedule } from '../run/pair-timer.js';
import type { RawRun, RawSamples } from '../run/runner.js';
import { type Host, onInterrupt, planCheckout, setUpMachine } from './setup.js';

export interface PairsOptions {
  base: string;
  head: string;
  profile: Profile;
  filters: Filters;
  /** Seconds the whole diff may spend measuring pairs (set-up, builds and validation excluded). */
  budgetSeconds: number;
  /**
   * Seconds the whole diff may take, set-up included: the pairs get at most what set-up leaves
   * (less a margin for the last batches), so a slow set-up on a busy machine cannot push the
   * diff past a CI job's time.
   */
  deadlineSeconds?: number;
  seed: number;
  require: string[];
  /** Calibrated minimum effects, "<benchmark id> <metric>" -> ratio (compare's noise thresholds). */
  noise?: NoiseThresholds;
  plan?: SequentialPlan;
  strict?: boolean;
  log?: (m: string) => void;
}

interface Side {
  root: string;
  experiments: Experiment[];
  jobs: Job[];
  builds: Map<string, BuildOutcome>;
  toolchains: Record<string, string>;
  commit: string;
}

/** Per-process values of one side's metrics, from the same code that normalizes a bench run. */
type Values = Record<string, { value: number; unit: string; direction: Direction }>;

/** The state of one matched point while it is measured. */
interface Live {
  id: string;
  base: Job;
  head: Job;
  kind: PairedPoint['kind'];
  changed: boolean;
  lead: { metric: string; unit: string; direction: Direction };
  minEffect: number;
  pairs: { order: PairOrder; base: Values; head: Values }[];
  fit: FitPair[];
  /** Operations per process at the small and the large size (fit points). */
  sizes?: { small: number; large: number };
  secondsPerPair: number;
  spent: number;
  decision?: Extract<SequentialDecision, { action: 'stop' }>;
  counters: PairedPoint['counters'];
  failed?: { side: 'base' | 'head'; reason: string };
  /** A fit point whose per-operation cost could not be resolved (then judged on wall time). */
  fitProblem?: string;
}

export interface PairsOutcome {
  comparison: PairedComparison;
  /** Every point's lead pairs in run order (for A/A calibration replays). */
  record: { benchmark: string; metric: string; direction: Direction; kind: string; pairs: Pair[] }[];
  interrupted: boolean;
}

async function prepareSide(
  root: string,
  headRoot: string,
  label: 'base' | 'head',
  opts: PairsOptions,
  host: Host,
  log: (m: string) => void,
): Promise<Side> {
  let experiments: Experiment[];
  try {
    experiments = loadAllExperiments(join(root, 'programs'));
  } catch (e) {
    throw new UserError(
      `the ${label} checkout's programs cannot be read by this harness: ${(e as Error).message}`,
      'a base older than this harness cannot be paired: bench each checkout (`npm run bench`) and take a quick look with `npm run compare`',
    );
  }
  const points = expand(experiments, opts.profile, opts.filters);
  // Runtimes and inputs (content-keyed) and the evictor (the harness's tool, not a program under
  // test) come from the head's cache for both sides, by the same path: with the base's own path
  // to a shared input (a symlink to the head's), every file the base's scan opened cost one more
  // path lookup, and an A/A diff called 4 of 5 warm scan c-blocking points 5-8% "faster".
  const { jobs, toolchains } = await planCheckout(
    points,
    host,
    {
      root,
      cacheDir: join(headRoot, '.cache'),
      evictorRoot: headRoot,
      jobCacheDir: join(root, '.cache'),
      // Both sides write one file by one path. With a file each, 20 A/A diffs of records C write
      // 64 KiB called 10 "faster" (head ~2% faster, whichever checkout was head; likely each file
      // kept reusing the page-cache pages it freed); with one file 0 of 20.
      scratchDir: join(headRoot, '.cache', 'scratch'),
      require: opts.require,
    },
    log,
  );
  log(`${label}: ${jobs.length} benchmarks planned in ${root}`);
  const builds = await buildAll(jobs, (m) => log(`${label}: ${m}`));
  return { root, experiments, jobs, builds, toolchains, commit: commitInfo(root).sha };
}

/** A process's metric values: normalize's own metrics of a one-run sample (counters left out). */
export function processValues(job: Job, run: RawRun): Values {
  const raw: RawSamples = {
    status: 'ok',
    command: '',
    timer: job.runner === 'self' ? 'harness' : 'hyperfine',
    report: {},
    runs: [run],
    notes: [],
    measuredSeconds: 0,
  };
  const out: Values = {};
  const reports = job.experiment.manifest.reports;
  for (const [name, m] of Object.entries(metricsOf(job, raw))) {
    // Throughput over wall time is wall time again; syscalls and max RSS are counters.
    if (m.source === 'derived' && name === 'throughput') continue;
    if (name.startsWith('syscalls.') || name === 'max_rss') continue;
    // A report field of a whole-process run is a counter (compared exactly from the check run).
    if (job.runner !== 'self' && reports[name]) continue;
    if (Number.isFinite(m.value)) out[name] = { value: m.value, unit: m.unit, direction: m.direction };
  }
  return out;
}

/** The metric a point is judged on: the manifest's first headline metric the point measures per process. */
export function leadMetric(job: Job, sample: Values): { metric: string; unit: string; direction: Direction } {
  const fit = job.experiment.manifest.fit;
  if (fit && job.sizes && job.sizes.length >= 2) return { metric: fit.cost, unit: 'ns', direction: 'smaller' };
  for (const name of job.experiment.manifest.headline.metrics) {
    const v = sample[name];
    if (v) return { metric: name, unit: v.unit, direction: v.direction };
  }
  const w = sample.wall_time;
  return { metric: 'wall_time', unit: w?.unit ?? 's', direction: 'smaller' };
}

/** Counters of a check run (the program's reported counts, syscalls), exactly as normalize makes them. */
function counterValues(job: Job, fields: Record<string, number>, syscalls: RawSamples['syscalls']) {
  const raw: RawSamples = {
    status: 'ok',
    command: '',
    timer: 'hyperfine',
    report: job.runner === 'self' ? {} : fields,
    runs: [],
    notes: [],
    measuredSeconds: 0,
    ...(syscalls ? { syscalls } : {}),
  };
  const out: Record<string, { value: number; unit: string }> = {};
  for (const [name, m] of Object.entries(metricsOf(job, raw)))
    if (m.deterministic && name !== 'max_rss') out[name] = { value: m.value, unit: m.unit };
  return out;
}

/** The commands of a point as the timer runs them: each in its own experiment folder. */
const inDir = (job: Job, size: Pick<Job, 'command'>) => `cd ${shellQuote(job.cwd)} && ${commandLine(size)}`;

/** Validation, counters and warm-ups of both sides: what happens once per point, before any pair. */
async function preparePoint(live: Live, tools: Tools, timer: string): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'jsio-pairs-'));
  try {
    const fields: Record<'base' | 'head', Record<string, number>> = { base: {}, head: {} };
    const xs: Record<'base' | 'head', number[]> = { base: [], head: [] };
    for (const side of ['base', 'head'] as const) {
      const job = live[side];
      // Kept for all of the point's pairs, removed at the end of the diff.
      freshScratch(job);
      const skip = await verifyEviction(job);
      if (skip) {
        live.failed = { side, reason: skip };
        return;
      }
      const sizes = job.sizes ?? [{ scale: 1, scope: job.scope, command: job.command }];
      for (const size of sizes) {
        const label = job.sizes ? `at ${size.scale === 1 ? 'its own size' : `scale ${size.scale}`}` : undefined;
        const check = await checkedRun(job, tools, work, label, size);
        if (!check.ok) {
          live.failed = { side, reason: check.reason };
          return;
        }
        fields[side] = check.fields;
        const fitX = job.experiment.manifest.fit?.x;
        if (fitX) xs[side].push(check.fields[fitX] ?? (size as { expected?: number }).expected ?? Number.NaN);
      }
    }
    if (live.kind === 'fit') live.sizes = { small: xs.head[0]!, large: xs.head.at(-1)! };
    // Counters: exact, from untimed runs of each side (syscalls under strace). Where the first
    // traces differ, a second one per side: a counter a side's own runs disagree on (futex
    // counts of threaded runtimes) is then judged by the range rule, not called a change.
    type Counts = Record<string, { value: number; unit: string }>;
    const traces: Record<'base' | 'head', Counts[]> = { base: [], head: [] };
    let traced = true;
    const differ = () =>
      [...new Set([...Object.keys(traces.base[0]!), ...Object.keys(traces.head[0]!)])].some(
        (n) => traces.base[0]![n]?.value !== traces.head[0]![n]?.value,
      );
    // A second trace only where the first ones differ (the rest has nothing to report).
    // The same program (source, build, runtime) on the same workload can differ only by noise:
    // its counters are not traced at all, which halves the set-up of a typical PR's points.
    for (let k = 0; live.changed && k < COUNTER_TRACES && (k === 0 || differ()); k++) {
      for (const side of ['base', 'head'] as const) {
        const t = await countSyscalls(live[side], tools, work);
        traced &&= t.syscalls !== undefined;
        traces[side].push(counterValues(live[side], fields[side], t.syscalls));
      }
    }
    const names = [...new Set([...traces.base, ...traces.head].flatMap((c) => Object.keys(c)))].sort();
    for (const name of names) {
      // strace lists only calls made: where every run was traced, a missing syscall was made 0 times.
      const zero = traced && name.startsWith('syscalls.') ? 0 : undefined;
      const values = (side: 'base' | 'head') => traces[side].map((c) => c[name]?.value ?? zero);
      const [b, h] = [values('base'), values('head')];
      const known = (xs: (number | undefined)[]): xs is number[] => xs.every((v) => v !== undefined);
      if (!known(b) || !known(h)) continue;
      const c = compareCounter(b, h);
      if (!c.changed) continue;
      const unit = [...traces.base, ...traces.head].find((t) => t[name])![name]!.unit;
      live.counters.push({
        metric: name,
        unit,
        base: c.base,
        head: c.head,
        ...(c.baseRange ? { baseRange: c.baseRange } : {}),
        ...(c.headRange ? { headRange: c.headRange } : {}),
      });
    }
    // Warm-ups of both sides (at least one each), which also price a pair for the budget.
    const warm = Math.max(1, live.head.settings.warmup);
    const t = performance.now();
    for (let i = 0; i < warm; i++) {
      const r = await measurePairs(live, tools, timer, 0, 1, false);
      if (r) {
        live.failed = r;
        return;
      }
    }
    live.secondsPerPair = (performance.now() - t) / 1000 / warm;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Seconds left for the last batches of a diff whose pairs must end by its deadline. */
export const DEADLINE_MARGIN_SECONDS = 30;

/**
 * The seconds the pairs may take: the budget, cut to what the deadline leaves after set-up
 * (less a margin: a batch granted at the end runs to its end).
 */
export function pairsBudget(budgetSeconds: number, setupSeconds: number, deadlineSeconds?: number): number {
  if (deadlineSeconds === undefined) return budgetSeconds;
  return Math.max(0, Math.min(budgetSeconds, deadlineSeconds - setupSeconds - DEADLINE_MARGIN_SECONDS));
}

/**
 * The processes of one pair in run order (0 = base, 1 = head; a fit adds 2 = base small, 3 = head
 * small). A fit runs S L L S: the first side small then large, the second large then small, so
 * the two large runs (most of the per-operation signal) are neighbours and a step in the
 * machine's speed between any two processes moves the cost ratio least. In interleaved A/A runs
 * of wc C at 64 KiB (2 x 600 pairs per layout) the robust noise of the cost ratio was 4.4% and
 * 3.8% for S L L S against 5.4% and 4.4% for each side's sizes in turn (S L S L or L S L S, in a
 * random order) and 5.6% and 4.7% for those mirrored at random. Which side goes first is random
 * (blocks of AB/BA), so a position effect cancels.
 */
export function pairSchedule(order: PairOrder, fit: boolean): number[] {
  const first = order === 'AB' ? 0 : 1;
  return fit ? [first + 2, first, 1 - first, 3 - first] : [first, 1 - first];
}

/**
 * Measures `count` pairs from pair index `from`; records them unless `record` is false (warm-ups).
 * Returns why the point failed, or undefined.
 */
async function measurePairs(
  live: Live,
  tools: Tools,
  timer: string,
  from: number,
  count: number,
  record = true,
  seed = 0,
): Promise<{ side: 'base' | 'head'; reason: string } | undefined> {
  const orders = Array.from({ length: count }, (_, k) => pairOrder(seed, from + k));
  const sides = (o: PairOrder) => (o === 'AB' ? (['base', 'head'] as const) : (['head', 'base'] as const));
  if (live.kind === 'self') {
    const work = mkdtempSync(join(tmpdir(), 'jsio-pairs-self-'));
    try {
      for (const [k, order] of orders.entries()) {
        const got: Partial<Record<'base' | 'head', Values>> = {};
        for (const side of sides(order)) {
          const job = live[side];
          if (job.evict) {
            const ev = await shell(job, job.evict);
            if (ev.code !== 0) return { side, reason: `cold cache: eviction failed (exit ${ev.code})` };
          }
          const label = record ? `pair ${from + k + 1}` : 'warm-up';
          const run = await checkedRun(job, tools, work, label);
          if (!run.ok) return { side, reason: run.reason };
          got[side] = processValues(job, { wall: run.seconds, report: run.fields, items: run.items });
        }
        if (record) live.pairs.push({ order, base: got.base!, head: got.head! });
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    return undefined;
  }
  // Whole processes, timed by pair-timer: 0 = base, 1 = head; a fit adds 2 = base small, 3 = head small.
  const fit = live.kind === 'fit';
  const commands = fit
    ? [
        inDir(live.base, live.base.sizes!.at(-1)!),
        inDir(live.head, live.head.sizes!.at(-1)!),
        inDir(live.base, live.base.sizes![0]!),
        inDir(live.head, live.head.sizes![0]!),
      ]
    : [inDir(live.base, live.base), inDir(live.head, live.head)];
  const schedule = orders.flatMap((order) => pairSchedule(order, fit));
  // Cold points: the head's evictor before every process (both sides read the same input).
  const prepare = live.head.evict ?? live.base.evict;
  const r = await runSchedule(timer, commands, schedule, {
    cwd: live.head.cwd,
    timeoutMs: timeoutMs(live.head),
    ...(prepare ? { prepare } : {}),
    ...(live.head.startOn ? { startOn: live.head.startOn } : {}),
  });
  if (!r.ok) {
    const side = r.failed === undefined ? 'head' : r.failed % 2 === 0 ? 'base' : 'head';
    return { side, reason: `a timed run ${r.reason}` };
  }
  if (!record) return undefined;
  const per = fit ? 4 : 2;
  orders.forEach((order, k) => {
    const at = (cmd: number) => r.seconds[k * per + schedule.slice(k * per, k * per + per).indexOf(cmd)]!;
    live.pairs.push({
      order,
      base: processValues(live.base, { wall: at(0) }),
      head: processValues(live.head, { wall: at(1) }),
    });
    if (fit) live.fit.push({ base: { small: at(2), large: at(0) }, head: { small: at(3), large: at(1) } });
  });
  return undefined;
}

function leadPairs(live: Live): Pair[] {
  const m = live.lead.metric;
  return live.pairs.map((p) => ({
    base: p.base[m]?.value ?? Number.NaN,
    head: p.head[m]?.value ?? Number.NaN,
    order: p.order,
  }));
}

/** The sequential rule for a point, given the pairs it can still afford. */
function decide(live: Live, budgetPairs: number, plan: SequentialPlan): SequentialDecision {
  const opts = { minEffect: live.minEffect, budgetPairs, plan };
  if (live.kind === 'fit' && live.lead.metric !== 'wall_time') {
    const d = decideFit(live.fit, opts);
    if (d.action === 'continue' || d.reason !== 'unmeasurable') return d;
    // The sizes are too close for this machine's noise: judge the point on its own size's wall
    // time instead (start-up included), and say so.
    live.fitProblem = d.analysis.note;
    live.lead = { metric: 'wall_time', unit: 's', direction: 'smaller' };
    live.minEffect = Math.max(MIN_EFFECT, live.minEffect);
  }
  const pairs = leadPairs(live);
  const problem = pairs.length ? pairProblem(pairs) : undefined;
  if (problem) {
    const alpha = plan.alphas[0]!;
    return {
      action: 'stop',
      verdict: 'inconclusive',
      reason: 'unmeasurable',
      analysis: {
        n: pairs.length,
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
  return decidePaired(pairs, live.lead.direction, opts);
}

/**
 * The undecided points that share this round's budget: those whose program changed, while any
 * is undecided, else all. An unchanged program on an unchanged workload and runtime can differ
 * only by noise, so those points get what the changed ones leave (and are the diff's own A/A
 * check). A full quick diff has ~400 points: shared equally, the few a PR touches got ~10 pairs.
 */
export function budgetTier<T extends { changed: boolean }>(undecided: readonly T[]): readonly T[] {
  const changed = undecided.filter((l) => l.changed);
  return changed.length ? changed : undecided;
}

/** Untimed strace runs per side (see preparePoint). */
const COUNTER_TRACES = 2;

const round = (x: number) => Number(x.toPrecision(6));

/** The point's row: its lead from the sequential decision, every other metric folded (fixed-size comparisons). */
function pointRow(live: Live): PairedPoint {
  const d = live.decision!;
  const a = d.analysis;
  const pairs = leadPairs(live);
  let baseMedian: number;
  let headMedian: number;
  if (
    live.kind === 'fit' &&
    live.lead.metric !== 'wall_time' &&
    live.fit.length &&
    live.sizes &&
    !fitProblem(live.fit)
  ) {
    const c = compareFit(live.fit, live.sizes);
    [baseMedian, headMedian] = [c.baseCost * 1e9, c.headCost * 1e9];
  } else {
    const ok = pairs.filter((p) => Number.isFinite(p.base) && Number.isFinite(p.head));
    [baseMedian, headMedian] = ok.length ? [median(ok.map((p) => p.base)), median(ok.map((p) => p.head))] : [0, 0];
  }
  const finiteOr = (x: number, y: number) => (Number.isFinite(x) ? x : y);
  const lead: PairedMetric = {
    ...live.lead,
    baseMedian: round(finiteOr(baseMedian, 0)),
    headMedian: round(finiteOr(headMedian, 0)),
    ratio: round(finiteOr(a.ratio, 1)),
    ...(a.ci?.every(Number.isFinite) ? { ci: a.ci.map(round) as [number, number] } : {}),
    confidence: round(1 - a.alpha),
    p: round(a.p),
    verdict: d.verdict,
    ...(a.note || live.fitProblem
      ? {
          note: [
            live.fitProblem ? `per-operation cost not resolved, judged on wall time: ${live.fitProblem}` : '',
            a.note ?? '',
          ]
            .filter(Boolean)
            .join('; ')
            .slice(0, 300),
        }
      : {}),
  };
  const folded: PairedMetric[] = [];
  const names = live.pairs.length ? Object.keys(live.pairs[0]!.head) : [];
  for (const name of names) {
    if (name === live.lead.metric) continue;
    const ps = live.pairs.map((p) => ({
      base: p.base[name]?.value ?? 0,
      head: p.head[name]?.value ?? 0,
      order: p.order,
    }));
    if (ps.length < 2 || pairProblem(ps)) continue;
    const spec = live.pairs[0]!.head[name]!;
    const c = comparePaired(ps, spec.direction, { minEffect: live.minEffect });
    folded.push({
      metric: name,
      unit: spec.unit,
      direction: spec.direction,
      baseMedian: round(c.baseMedian),
      headMedian: round(c.headMedian),
      ratio: round(c.ratio),
      ...(c.ci ? { ci: c.ci.map(round) as [number, number] } : {}),
      confidence: c.confidence,
      p: round(c.p),
      verdict: c.verdict,
      ...(c.note ? { note: c.note.slice(0, 300) } : {}),
    });
  }
  const oe =
    live.kind !== 'fit' && pairs.length && !pairProblem(pairs) ? orderEffect(pairs, live.lead.direction) : undefined;
  return {
    benchmark: live.id,
    experiment: live.head.experiment.id,
    variant: live.head.variant.id,
    params: live.head.params,
    placement: live.head.placement.slice(0, 300),
    ...(live.changed ? { changed: true } : {}),
    kind: live.kind,
    pairs: live.kind === 'fit' ? live.fit.length : live.pairs.length,
    baseFirst: live.pairs.filter((p) => p.order === 'AB').length,
    stop: d.reason,
    minEffect: live.minEffect,
    secondsPerPair: round(live.secondsPerPair),
    lead,
    folded,
    counters: live.counters,
    ...(oe !== undefined && Number.isFinite(oe) ? { orderEffect: round(oe) } : {}),
  };
}

export async function runPairs(opts: PairsOptions): Promise<PairsOutcome> {
  // Both checkouts by paths of the same length (two links in one directory): a process's
  // arguments, PWD and program paths then take the same room on its stack and in its
  // environment, which moves stack alignment and can alone shift a tight loop by a few percent.
  const sides = mkdtempSync(join(tmpdir(), 'jsio-pairs-sides-'));
  try {
    symlinkSync(resolve(opts.base), join(sides, 'base'), 'dir');
    symlinkSync(resolve(opts.head), join(sides, 'head'), 'dir');
    return await pairSides(opts, join(sides, 'base'), join(sides, 'head'));
  } finally {
    // The links only (rmSync does not follow them into the checkouts).
    rmSync(sides, { recursive: true, force: true });
  }
}

async function pairSides(opts: PairsOptions, baseRoot: string, headRoot: string): Promise<PairsOutcome> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const plan = opts.plan ?? DEFAULT_PLAN;
  const diffStart = performance.now();
  const host = await setUpMachine({ ...(opts.strict ? { strict: true } : {}) }, log);
  const pins = readPins(join(opts.head, 'harness', 'toolchains.json'));
  const gcc = await resolveRuntime('gcc', pins, join(opts.head, '.cache', 'runtimes'), log);
  const timer = gcc?.ok
    ? await buildTool('pair-timer', gcc.path, opts.head, join(opts.head, '.cache'), log)
    : undefined;
  if (!timer) throw new UserError('the paired runner needs gcc to build its process timer', 'apt-get install gcc');
  const base = await prepareSide(baseRoot, headRoot, 'base', opts, host, log);
  const head = await prepareSide(headRoot, headRoot, 'head', opts, host, log);

  const baseById = new Map(base.jobs.map((j) => [j.id, j]));
  const headIds = new Set(head.jobs.map((j) => j.id));
  const added = head.jobs.filter((j) => !baseById.has(j.id)).map((j) => ({ benchmark: j.id, side: 'head' as const }));
  const removed = base.jobs.filter((j) => !headIds.has(j.id)).map((j) => ({ benchmark: j.id, side: 'base' as const }));
  const notMeasured: PairedComparison['notMeasured'] = [];
  const incomparable: NonNullable<PairedComparison['incomparable']> = [];
  const lives: Live[] = [];
  const buildProblem = (side: Side, job: Job) => {
    const b = job.build ? side.builds.get(job.build.key) : undefined;
    return b && !b.ok ? `build failed: ${b.reason}` : undefined;
  };
  for (const h of head.jobs) {
    const b = baseById.get(h.id);
    if (!b) continue;
    let blocked = false;
    for (const [side, job, s] of [
      ['base', b, base],
      ['head', h, head],
    ] as const) {
      const why =
        job.blocked ??
        (buildProblem(s, job) ? { status: 'failed' as const, reason: buildProblem(s, job)! } : undefined);
      if (why) {
        notMeasured.push({ benchmark: h.id, side, status: why.status, reason: why.reason.slice(0, 2000) });
        blocked = true;
      }
    }
    if (blocked) continue;
    const change = workloadChange(b, h);
    if (change) {
      incomparable.push({ benchmark: h.id, metric: '*', reason: `workload changed: ${change}`.slice(0, 300) });
      continue;
    }
    const kind: Live['kind'] = h.runner === 'self' ? 'self' : h.experiment.manifest.fit && h.sizes ? 'fit' : 'process';
    lives.push({
      id: h.id,
      base: b,
      head: h,
      kind,
      changed: b.definition !== h.definition,
      lead: { metric: 'wall_time', unit: 's', direction: 'smaller' },
      minEffect: MIN_EFFECT,
      pairs: [],
      fit: [],
      secondsPerPair: 0,
      spent: 0,
      counters: [],
    });
  }

  let setupSeconds = 0;
  let pairSeconds = opts.budgetSeconds;
  const deadlineCut = () =>
    `set-up (builds, checks, warm-ups) took ${(setupSeconds / 60).toFixed(1)} min, so the diff's deadline of ${((opts.deadlineSeconds ?? 0) / 60).toFixed(1)} min left ${(pairSeconds / 60).toFixed(1)} of the ${(opts.budgetSeconds / 60).toFixed(1)} budgeted minutes for pairs`;
  const minEffectOf = (l: Live) => Math.max(MIN_EFFECT, opts.noise?.[`${l.id} ${l.lead.metric}`] ?? 0);
  const stop = onInterrupt(log, 'stopping; points are judged on the pairs measured so far (marked in the comment)');
  try {
    for (const [i, live] of lives.entries()) {
      if (stop.interrupted) break;
      log(`pairs: preparing ${live.id} (${i + 1}/${lives.length})`);
      await preparePoint(live, host.tools, timer);
      if (stop.interrupted) {
        delete live.failed;
        break;
      }
      if (live.failed) continue;
      const sample = live.pairs[0]?.head ?? {};
      // The lead metric is known after the first pair; before it, the warm-up tells wall_time only.
      live.lead = leadMetric(live.head, sample);
      live.minEffect = minEffectOf(live);
    }
    const failedNow = (l: Live) => {
      if (!l.failed) return false;
      notMeasured.push({
        benchmark: l.id,
        side: l.failed.side,
        status: 'failed',
        reason: l.failed.reason.slice(0, 2000),
      });
      return true;
    };
    const active = lives.filter((l) => !failedNow(l));
    const budgetStart = performance.now();
    setupSeconds = (budgetStart - diffStart) / 1000;
    pairSeconds = pairsBudget(opts.budgetSeconds, setupSeconds, opts.deadlineSeconds);
    if (pairSeconds < opts.budgetSeconds) log(`pairs: ${deadlineCut()}`);
    const left = () => pairSeconds - (performance.now() - budgetStart) / 1000;
    for (let roundNo = 1; !stop.interrupted; roundNo++) {
      const undecided = active.filter((l) => !l.decision && !l.failed);
      if (!undecided.length) break;
      const open = budgetTier(undecided);
      const share = Math.max(0, left()) / open.length;
      const requests: { live: Live; more: number }[] = [];
      for (const live of open) {
        const d = decide(live, Math.floor(share / Math.max(live.secondsPerPair, 1e-3)), plan);
        if (d.action === 'stop') live.decision = d;
        else requests.push({ live, more: d.more });
      }
      // Every open point stopped: the next tier (or nothing) is up next round.
      if (!requests.length) continue;
      const granted = shareBudget(
        requests.map((r) => ({ pairs: r.more, secondsPerPair: Math.max(r.live.secondsPerPair, 1e-3) })),
        Math.max(0, left()),
      );
      log(
        `pairs: round ${roundNo}: ${requests.length} points, ${granted.reduce((a, b) => a + b, 0)} pairs, ${Math.max(0, left()).toFixed(0)} s left`,
      );
      for (const [k, r] of requests.entries()) {
        if (stop.interrupted) break;
        const live = r.live;
        const n = granted[k]!;
        if (n === 0) {
          live.decision = decide(live, 0, plan) as Extract<SequentialDecision, { action: 'stop' }>;
          continue;
        }
        const t = performance.now();
        const from = live.kind === 'fit' ? live.fit.length : live.pairs.length;
        const failure = await measurePairs(live, host.tools, timer, from, n, true, opts.seed);
        const seconds = (performance.now() - t) / 1000;
        live.spent += seconds;
        // A batch the interrupt killed is no failure of the program: its pairs are just missing.
        if (stop.interrupted) break;
        if (failure) {
          live.failed = failure;
          notMeasured.push({
            benchmark: live.id,
            side: failure.side,
            status: 'failed',
            reason: failure.reason.slice(0, 2000),
          });
          continue;
        }
        if (from === 0) {
          live.lead = leadMetric(live.head, live.pairs[0]!.head);
          live.minEffect = minEffectOf(live);
        }
        // The price of a pair, from what the pairs cost so far (warm-up estimate replaced).
        live.secondsPerPair = live.spent / (live.kind === 'fit' ? live.fit.length : live.pairs.length);
      }
    }
  } finally {
    stop.dispose();
  }
  const interrupted = stop.interrupted;
  for (const l of lives) for (const job of [l.base, l.head]) removeScratch(job);
  // Points the loop left undecided (interrupted) are judged on what they have, as cut by the budget.
  const measured = lives.filter((l) => !l.failed && (l.decision || l.pairs.length));
  for (const l of measured) l.decision ??= decide(l, 0, plan) as Extract<SequentialDecision, { action: 'stop' }>;
  const points = measured.map(pointRow);
  const spent = (performance.now() - diffStart) / 1000;
  const warnings: string[] = [];
  const cond = currentConditions(undefined);
  if (isBusy(cond, host.machine.cores))
    warnings.push(
      `the machine was busy at the end of the diff (load average ${cond.loadAverage[0].toFixed(1)} on ${host.machine.cores} cores): pairs share the interference, but noisier pairs need more of them, so more points may be inconclusive`,
    );
  if (stop.interrupted) warnings.push('the diff was interrupted: points were judged on the pairs measured so far');
  if (pairSeconds < opts.budgetSeconds) warnings.push(deadlineCut());
  const side = (s: Side): PairedComparison['base'] => ({
    commits: [s.commit.slice(0, 64)],
    runs: 1,
    machine: host.machine.id,
    cpu: host.machine.cpu,
    toolchains: s.toolchains,
  });
  const comparison: PairedComparison = {
    schema: PAIRED_COMPARISON_SCHEMA,
    method: `paired: base and head processes alternate in a seeded random order per pair (blocks of AB/BA), after warm-ups of both; points whose program changed are measured first, the others with the budget they leave; per point, Hodges-Lehmann ratio of the paired log-ratios with the exact Wilcoxon signed-rank interval and test (a fit: the per-operation cost ratio over two sizes); sequential looks at ${plan.looks.join('/')} pairs spending alpha ${plan.alphas.map((a) => `${(a * 100).toFixed(1)}%`).join('/')} (5% in all); minimum effect ${MIN_EFFECT * 100}% or the calibrated threshold; folded metrics are fixed-size comparisons at 5%; counters compared exactly, once per side`,
    seed: opts.seed,
    budget: {
      seconds: opts.budgetSeconds,
      spentSeconds: round(spent),
      setupSeconds: round(setupSeconds),
      ...(opts.deadlineSeconds ? { deadlineSeconds: opts.deadlineSeconds } : {}),
    },
    base: side(base),
    head: side(head),
    points,
    added,
    removed,
    notMeasured,
    ...(warnings.length ? { warnings } : {}),
    ...(incomparable.length ? { incomparable } : {}),
  };
  assertValid('comparison.json', comparison, PairedComparison);
  const record = measured.map((l) => ({
    benchmark: l.id,
    metric: l.lead.metric,
    direction: l.lead.direction,
    kind: l.kind,
    pairs:
      l.kind === 'fit' && l.lead.metric !== 'wall_time'
        ? l.fit.map((f, i) => ({
            base: f.base.large - f.base.small,
            head: f.head.large - f.head.small,
            order: l.pairs[i]!.order,
          }))
        : leadPairs(l),
  }));
  return { comparison, record, interrupted };
}

/** Writes the pair record beside the comparison (pairs.json: lead values per pair, for calibration). */
export function writeRecord(file: string, record: PairsOutcome['record']): void {
  writeFileSync(file, `${JSON.stringify({ schema: 1, points: record })}\n`);
}
