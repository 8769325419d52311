/**
 * The paired diff (`npm run pairs`, docs/paired-design.md), as a pipeline of named stages:
 *
 *   link both checkouts -> set up the machine -> build the pair timer -> prepare each side
 *   (load, plan points, set-up stage, build) -> match points -> measure in pairs -> rows
 *   -> comparison.json
 *
 * Matched points are measured in PAIRS by pairs/run/: one base and one head process back to back,
 * in a seeded random order per pair, under the job's placement, after warm-ups of both; a fit
 * point's pair is four processes (both sides at both sizes). Points get more pairs until the
 * sequential rule decides or their share of the time budget is spent. Counters (syscalls, the
 * program's own counts) are compared exactly over untimed traces of each side (pairs/run/prepare.ts).
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { busyByOthers, isBusy } from '../../analysis/busy.js';
import { type OpenedCounts, openStoredCounts } from '../../counts/stored-counts.js';
import type { CountStoreFile } from '../../formats/count-store-format.js';
import type { DiffPlan } from '../../formats/diff-plan-format.js';
import type { NoiseThresholds } from '../../formats/noise-format.js';
import type { PairRecordDocument } from '../../formats/pair-record-format.js';
import type { PairsComparison } from '../../formats/pairs-format.js';
import type { TranscriptVerdict } from '../../formats/transcript-format.js';
import { UserError } from '../../lib/errors.js';
import { cacheRoot, runtimesCache } from '../../machine/cache-root.js';
import { currentConditions } from '../../machine/conditions.js';
import { cpuSnapshot, foreignCores } from '../../machine/cpu-share.js';
import { readPins, resolveRuntime } from '../../machine/toolchains.js';
import { buildTool } from '../../machine/tools.js';
import type { Job } from '../../model/job.js';
import { harnessMetric } from '../../model/metrics.js';
import type { Profile } from '../../model/profiles.js';
import { type Host, onInterrupt, setUpMachine } from '../../pipeline/setup.js';
import type { Filters } from '../../plan/plan.js';
import { removeScratch } from '../../run/measure.js';
import { checkCounters, runMetrics } from '../../run/normalize.js';
import type { SyscallCounts } from '../../run/parse-strace.js';
import type { RawRun } from '../../run/runner.js';
import { DEFAULT_CONTROL_POINTS, type ImpactPlan, reasonLine } from '../analysis/impact.js';
import { FALSE_POSITIVE_LEVEL, falsePositiveNote, planAtLevel, pointLevels } from '../analysis/multiplicity.js';
import { MIN_EFFECT } from '../analysis/pair-statistics.js';
import { budgetCutShort, CONTROL_SHARE, type Values } from '../analysis/point.js';
import { type PairRecord, type PointResult, pairRecord, pointRow } from '../analysis/rows.js';
import { DEFAULT_PLAN, type SequentialPlan } from '../analysis/sequential.js';
import { SEEN_ONLY_BY_TRACING } from '../analysis/traced-changes.js';
import { measureHarnessShift } from '../harness-shift/measure-harness-shift.js';
import { pairsComparison } from '../report/comparison-json.js';
import { realExecutor } from '../run/real-executor.js';
import { type DecidedPoint, runPairsPoints, type SamplingResult } from '../run/scheduler.js';
import { COUNT_SHARE, countStage, pairsWork } from './count-stage.js';
import { type LoadedSide, loadSide, type Matched, matchPoints, type PreparedSide, prepareSide } from './diff-sides.js';
import { refuseUnequalTools } from './measuring-tools.js';
import { pairRecordDocument } from './record-pairs.js';
import { impactOf } from './what-to-measure.js';

export interface PairsOptions {
  base: string;
  head: string;
  /**
   * The checkout of the harness that runs the diff (default: the head's). Its own tools time and
   * evict (the pair timer, the evictor), and its cache holds the runtimes and inputs of both sides:
   * when the base's harness measures a pull request, nothing of the head's harness is used.
   */
  harnessRoot?: string;
  profile: Profile;
  filters: Filters;
  /**
   * The budget asked for: seconds the whole diff may spend measuring pairs (set-up, builds and
   * validation excluded). `--budget` is in minutes; it is converted once, in the command.
   */
  askedSeconds: number;
  /**
   * Seconds the whole diff may take, set-up included: the pairs get at most what set-up leaves
   * (less a margin for the last batches), so a slow set-up on a busy machine cannot push the
   * diff past a CI job's time.
   */
  deadlineSeconds?: number;
  seed: number;
  require: string[];
  /**
   * Each side's own just(js) installation (JUST_HOME and JUST_TARGET), when their pins differ:
   * a pin bump is measured with each side's pinned release (default: the environment's for both).
   */
  justHomes?: { base?: string; head?: string };
  /** Calibrated minimum effects, "<benchmark id> <metric>" -> ratio (noise.json's thresholds). */
  noise?: NoiseThresholds;
  plan?: SequentialPlan;
  strict?: boolean;
  log?: (m: string) => void;
  /**
   * A runtime pair (releases/pipeline/confirm-in-pairs.ts): the head side's filters when they differ from the
   * base's (the same checkout under another runtime release), and the key that matches a base job
   * with a head job (default: the benchmark id, which names the runtime).
   */
  headFilters?: Filters;
  pairKey?: (job: Job) => string;
  /**
   * Which points are measured: "affected" (default) — those whose measured inputs differ, plus
   * `controlPoints` unaffected ones as the diff's A/A control; "all" — every point both sides
   * have (calibration's A/A of one commit, a runtime pair), each as affected.
   */
  measure?: 'affected' | 'all';
  /** Unaffected points measured as the control (default DEFAULT_CONTROL_POINTS). */
  controlPoints?: number;
  /** The plan the base's harness computed (`pairs --plan --json`): measured at least. */
  trusted?: DiffPlan;
  /** What both harnesses ran and computed, recorded before the diff (transcript --base-side). */
  transcripts?: TranscriptVerdict;
  /** Count each point's work on both sides before the pairs (default: for a pull request's diff, not when every point is measured). */
  counts?: boolean;
  /**
   * This machine's counts in the trend store, read (and so checked) before anything ran: a base
   * whose key it holds is not counted again (./stored-base.ts). The store is never written.
   */
  countStore?: { dir: string; file: CountStoreFile };
  /**
   * 'off': both sides measured without bubblewrap, each at its checkout's own path (`pairs
   * --no-sandbox`, refused in workflows): a diagnostic of what the sandbox costs, never a verdict.
   */
  sandbox?: 'off';
}

export interface PairsResult {
  comparison: PairsComparison;
  /** Every point's pairs in run order: the lead's (A/A calibration replays them) and every other metric's. */
  record: PairRecord[];
  /** pairs.json: every pair's values and what judging them again needs (formats/pair-record-format.ts). */
  document: PairRecordDocument;
  interrupted: boolean;
}

/** A process's metric values: normalize's metrics of its one run (counters left out). */
export function processValues(job: Job, run: RawRun): Values {
  const out: Values = {};
  const reports = job.experiment.manifest.reports;
  for (const [name, m] of Object.entries(runMetrics(job, run))) {
    // Only the harness's timed metrics: a derived one (throughput over wall time) is wall time
    // again, and counters are compared exactly from the check run.
    const kind = harnessMetric(name, job.experiment.manifest.fit)?.kind;
    if (kind !== undefined && kind !== 'timed') continue;
    // A report field of a whole-process run is a counter (compared exactly from the check run).
    if (job.runner !== 'self' && reports[name]) continue;
    if (Number.isFinite(m.value)) out[name] = { value: m.value, unit: m.unit, direction: m.direction };
  }
  return out;
}

/** Counters of a check run (the program's reported counts, syscalls), exactly as normalize makes them. */
function counterValues(job: Job, fields: Record<string, number>, syscalls?: SyscallCounts) {
  const out: Record<string, { value: number; unit: string }> = {};
  for (const [name, m] of Object.entries(checkCounters(job, fields, syscalls)))
    if (m.deterministic) out[name] = { value: m.value, unit: m.unit };
  return out;
}

/** Seconds left for the last batches of a diff whose pairs must end by its deadline. */
export const DEADLINE_MARGIN_SECONDS = 30;

/**
 * The seconds the pairs may take: the budget, cut to what the deadline leaves after set-up
 * (less a margin: a batch granted at the end runs to its end).
 */
export function cutToDeadline(askedSeconds: number, setupSeconds: number, deadlineSeconds?: number): number {
  if (deadlineSeconds === undefined) return askedSeconds;
  return Math.max(0, Math.min(askedSeconds, deadlineSeconds - setupSeconds - DEADLINE_MARGIN_SECONDS));
}

/** The budget as asked for: the pairs' seconds and the whole diff's deadline, when it has one. */
type Budget = Pick<PairsOptions, 'askedSeconds' | 'deadlineSeconds'>;

/** What the log and the comment say when the deadline cut the pairs' budget. */
function deadlineCut(budget: Budget, s: Pick<SamplingResult, 'setupSeconds' | 'leftSeconds'>): string {
  const min = (x: number) => (x / 60).toFixed(1);
  return `set-up (builds, checks, warm-ups) took ${min(s.setupSeconds)} min, so the diff's deadline of ${min(budget.deadlineSeconds ?? 0)} min left ${min(s.leftSeconds)} of the ${min(budget.askedSeconds)} budgeted minutes for pairs`;
}

/** The pair timer, built with gcc from the harness/tools of the checkout whose harness runs the diff. */
export async function pairTimer(root: string, log: (m: string) => void): Promise<string> {
  const pins = readPins(join(root, 'harness', 'toolchains.json'));
  const gcc = await resolveRuntime('gcc', pins, runtimesCache(), log);
  const timer = gcc?.ok ? await buildTool('pair-timer', gcc.path, root, cacheRoot(), log) : undefined;
  if (!timer) throw new UserError('the paired runner needs gcc to build its process timer', 'apt-get install gcc');
  return timer;
}

type Measured = SamplingResult & {
  interrupted: boolean;
  /** Each measured point's share of the diff-wide false-positive level. */
  levels: Map<string, number>;
  /** Cores' worth of CPU other processes used while the pairs ran (absent where /proc does not say). */
  foreignCores?: number;
};

/** Measures the matched points in pairs, stopping cleanly on SIGINT/SIGTERM; removes their scratch after. */
async function measurePoints(
  matched: Matched,
  opts: Budget & Pick<PairsOptions, 'seed' | 'plan' | 'noise'>,
  host: Host,
  timer: string,
  diffStart: number,
  log: (m: string) => void,
): Promise<Measured> {
  const stop = onInterrupt(log, 'stopping; points are judged on the pairs measured so far (marked in the comment)');
  let levels = new Map<string, number>();
  try {
    const exec = realExecutor({ tools: host.tools, timer, values: processValues, counters: counterValues }, opts.seed);
    // The diff-wide false-positive level, shared out before any pair (pairs/analysis/multiplicity.ts):
    // each point's share, split between its lead and its other timed metrics.
    const plan = opts.plan ?? DEFAULT_PLAN;
    const split = pointLevels(matched.plans);
    const plans = new Map(matched.plans.map((p, i) => [p.id, planAtLevel(plan, split[i]!.lead)]));
    const othersPlans = new Map(
      matched.plans.flatMap((p, i) => (split[i]!.others > 0 ? [[p.id, planAtLevel(plan, split[i]!.others)]] : [])),
    );
    levels = new Map(matched.plans.map((p, i) => [p.id, split[i]!.lead + split[i]!.others]));
    const before = cpuSnapshot();
    const s = await runPairsPoints(matched.plans, exec, {
      plan,
      planOf: (id) => plans.get(id) ?? plan,
      othersPlanOf: (id) => othersPlans.get(id),
      startedAt: diffStart,
      askedSeconds: opts.askedSeconds,
      leftSeconds: (setup) => {
        const leftSeconds = cutToDeadline(opts.askedSeconds, setup, opts.deadlineSeconds);
        if (leftSeconds < opts.askedSeconds) log(`pairs: ${deadlineCut(opts, { setupSeconds: setup, leftSeconds })}`);
        return leftSeconds;
      },
      minEffectOf: (id, metric) => Math.max(MIN_EFFECT, opts.noise?.[`${id} ${metric}`] ?? 0),
      now: () => performance.now(),
      interrupted: () => stop.interrupted,
      log,
    });
    const after = cpuSnapshot();
    return {
      ...s,
      levels,
      interrupted: stop.interrupted,
      ...(before && after ? { foreignCores: foreignCores(before, after) } : {}),
    };
  } finally {
    stop.dispose();
    for (const p of matched.plans) for (const job of [p.base, p.head]) removeScratch(job);
  }
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
  if (budgetCutShort(s.measured, s.leftSeconds, budget.askedSeconds)) warnings.push(deadlineCut(budget, s));
  return warnings;
}

/**
 * What the diff measures: the head's impact plan, widened by the trusted plan where one is given
 * (the base's harness computed it: its affected points and control are measured whatever this
 * harness's own analysis says; this one may only add).
 */
function impactPlan(
  opts: Pick<PairsOptions, 'measure' | 'controlPoints' | 'trusted'>,
  base: LoadedSide,
  head: LoadedSide,
  log: (m: string) => void,
) {
  if (opts.measure === 'all') return undefined;
  const plan = impactOf(base, head, opts.controlPoints ?? DEFAULT_CONTROL_POINTS);
  if (opts.trusted) widenToTrusted(plan, opts.trusted, log);
  const control = [...plan.measure.values()].filter((i) => i === 'control').length;
  log(
    `impact: ${plan.affected.size} points affected by this PR, ${plan.notAffected.length} not affected (byte-identical measured inputs), ${control} drawn as the control`,
  );
  return plan;
}

/** Adds to `plan` what the trusted plan measures and it does not. */
export function widenToTrusted(plan: ImpactPlan, trusted: DiffPlan, log: (m: string) => void): void {
  let added = 0;
  for (const a of trusted.affected) {
    const own = plan.affected.get(a.benchmark);
    if (own) {
      // This harness traced nothing: what the base's trace saw is said all the same.
      const traced = a.reasons.filter((r) => r.startsWith(SEEN_ONLY_BY_TRACING) && !own.includes(r));
      if (traced.length) plan.affected.set(a.benchmark, [...own, ...traced]);
      continue;
    }
    plan.measure.set(a.benchmark, 'affected');
    plan.affected.set(
      a.benchmark,
      a.reasons.map((r) => `the base's analysis: ${r}`),
    );
    added++;
  }
  for (const id of trusted.control) if (!plan.measure.has(id)) plan.measure.set(id, 'control');
  const measured = new Set(plan.measure.keys());
  plan.notAffected = plan.notAffected.filter((n) => !measured.has(n.benchmark));
  if (added) log(`impact: ${added} point(s) the base's analysis calls affected and this one did not are measured too`);
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

/** Seconds kept for preparing the control's points (builds, checks, warm-ups) after a harness shift. */
export const CONTROL_PREPARE_SECONDS = 90;

/**
 * The seconds of the diff's deadline the harness shift may take, from its start (`spentSeconds` of
 * the deadline are gone by then). With points affected, a third of the rest: their pairs need the
 * remainder. With none, all but what comes after it: the count stage's share when work is counted,
 * the control's share of the budget, its preparation and the deadline's margin. The shift is then
 * the PR's one question, and a fixed half left no-op harness diffs ending early with shifts still
 * too wide to tell; leaving the counts out let the shift take the control's pairs.
 */
export function shiftDeadline(
  deadlineSeconds: number,
  askedSeconds: number,
  affected: number | undefined,
  after: { spentSeconds: number; counting: boolean } = { spentSeconds: 0, counting: false },
): number {
  const left = Math.max(0, deadlineSeconds - after.spentSeconds);
  const third = left / 3;
  if (affected !== 0) return third;
  const shares = CONTROL_SHARE + (after.counting ? COUNT_SHARE : 0);
  const control = askedSeconds * shares + CONTROL_PREPARE_SECONDS + DEADLINE_MARGIN_SECONDS;
  return Math.max(third, left - control);
}

/** Both checkouts' points, planned with the diff's profile; a runtime pair's head with its own filters. */
function loadSides(
  opts: Pick<PairsOptions, 'profile' | 'filters' | 'headFilters'>,
  baseRoot: string,
  headRoot: string,
) {
  return [
    loadSide(baseRoot, 'base', { profile: opts.profile, filters: opts.filters }),
    loadSide(headRoot, 'head', { profile: opts.profile, filters: opts.headFilters ?? opts.filters }),
  ] as const;
}

/**
 * What a harness change does, measured before the pairs (its time counts as set-up, so the
 * deadline still holds). Only a pull request's diff has two harnesses to compare (calibration and
 * runtime pairs run one checkout's).
 */
async function shiftOf(
  opts: PairsOptions,
  affected: number | undefined,
  counting: boolean,
  diffStart: number,
  log: (m: string) => void,
) {
  if (opts.headFilters || opts.measure === 'all') return undefined;
  return measureHarnessShift({
    base: opts.base,
    head: opts.head,
    filters: opts.filters,
    log,
    ...(opts.noise ? { noise: opts.noise } : {}),
    ...(opts.trusted ? { trusted: opts.trusted.harnessChange } : {}),
    ...(opts.transcripts ? { transcripts: opts.transcripts } : {}),
    ...(opts.deadlineSeconds
      ? {
          deadlineSeconds: shiftDeadline(opts.deadlineSeconds, opts.askedSeconds, affected, {
            spentSeconds: (performance.now() - diffStart) / 1000,
            counting,
          }),
        }
      : {}),
  });
}

async function pairSides(opts: PairsOptions, baseRoot: string, headRoot: string): Promise<PairsResult> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const diffStart = performance.now();
  const host = await setUpMachine({ ...(opts.strict ? { strict: true } : {}) }, log);
  if (opts.require.includes('counts') && !host.tools.valgrind)
    throw new UserError(
      '--require counts: valgrind is not installed, so no work can be counted',
      'apt-get install valgrind',
    );
  const harnessRoot = resolve(opts.harnessRoot ?? opts.head);
  const timer = await pairTimer(harnessRoot, log);
  const [baseLoaded, headLoaded] = loadSides(opts, baseRoot, headRoot);
  const impact = impactPlan(opts, baseLoaded, headLoaded, log);
  const counting = opts.counts ?? opts.measure !== 'all';
  const harnessShift = await shiftOf(
    opts,
    impact?.affected.size,
    counting && Boolean(host.tools.valgrind),
    diffStart,
    log,
  );
  const keep = impact ? new Set(impact.measure.keys()) : undefined;
  const base = await prepareSide(baseLoaded, harnessRoot, 'base', sideOptions(opts, 'base'), host, log, keep);
  const head = await prepareSide(headLoaded, harnessRoot, 'head', sideOptions(opts, 'head'), host, log, keep);
  // A side that planned nothing recorded no tools.
  if (base.jobs.length && head.jobs.length) refuseUnequalTools(base.toolchains, head.toolchains);
  const matched = matchPoints(base, head, opts.pairKey, impact && ((id) => impact.measure.get(id) ?? 'affected'));
  // Exact counts first, on every core: they decide at once; the pairs go on as the budget allows.
  const stored = storedCountsOf(opts, host, base);
  const counts = await countStage(counting ? matched.plans : [], host, opts.askedSeconds, log, stored);
  const s = await measurePoints(matched, opts, host, timer, diffStart, log);
  const points = s.measured.map(pointResult);
  const planOf = new Map(matched.plans.map((p) => [p.id, p]));
  const pointCounts = (id: string) => {
    const w = counts.work.get(id);
    const plan = planOf.get(id);
    return w && plan ? { work: pairsWork(w, plan) } : {};
  };
  const comparison = pairsComparison({
    plan: opts.plan ?? DEFAULT_PLAN,
    falsePositiveNote: falsePositiveNote(matched.plans),
    seed: opts.seed,
    machine: host.machine,
    budget: {
      seconds: opts.askedSeconds,
      spentSeconds: (performance.now() - diffStart) / 1000,
      setupSeconds: s.setupSeconds,
      ...(opts.deadlineSeconds ? { deadlineSeconds: opts.deadlineSeconds } : {}),
    },
    base,
    head,
    points: points.map((p) => ({ ...pointRow(p), ...levelOf(s.levels, p.benchmark), ...pointCounts(p.benchmark) })),
    added: matched.added,
    removed: matched.removed,
    notMeasured: [...matched.notMeasured, ...failuresOf(s, matched), ...notReached(s, matched)],
    warnings: warningsOf(opts, host, s),
    ...(impact
      ? {
          notAffected: impact.notAffected,
          affectedBecause: [...impact.affected].map(([benchmark, reasons]) => ({
            benchmark,
            reason: reasonLine(reasons).slice(0, 600),
          })),
        }
      : {}),
  });
  if (harnessShift) comparison.harnessShift = harnessShift;
  if (counts.summary.counted + counts.summary.notCounted) comparison.counts = counts.summary;
  const document = pairRecordDocument({
    points: s.measured,
    work: counts.work,
    seed: opts.seed,
    plan: opts.plan ?? DEFAULT_PLAN,
    level: FALSE_POSITIVE_LEVEL,
  });
  return { comparison, record: points.map(pairRecord), document, interrupted: s.interrupted };
}

/** What one side is prepared with: the required tools, its own just(js), and whether it is sandboxed. */
const sideOptions = (opts: PairsOptions, label: 'base' | 'head') => ({
  require: opts.require,
  justHome: opts.justHomes?.[label],
  ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
});

/** The trend store's counts of this machine for the base side, when one was given (read only). */
function storedCountsOf(
  opts: Pick<PairsOptions, 'countStore'>,
  host: Host,
  base: PreparedSide,
): OpenedCounts | undefined {
  if (!opts.countStore) return undefined;
  return openStoredCounts(
    {
      storeDir: opts.countStore.dir,
      machine: host.machine.id,
      recount: false,
      // Every side runs in its sandbox here (planned with `sandbox: 'required'`), unless --no-sandbox.
      sandbox: base.jobs.every((j) => j.sandbox) ? 'bubblewrap' : 'none',
      tools: host.tools,
      toolchains: base.toolchains,
      // The harness's cache outside the checkouts, as bench's (the valgrind CPU probe is kept there).
      cacheDir: cacheRoot(),
    },
    opts.countStore.file,
  );
}

const levelOf = (levels: Map<string, number>, id: string) => {
  const a = levels.get(id);
  return a === undefined ? {} : { alpha: Number(a.toPrecision(6)) };
};

export async function runPairs(opts: PairsOptions): Promise<PairsResult> {
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

/** Writes the pair record beside the comparison (pairs.json, formats/pair-record-format.ts). */
export function writeRecord(file: string, document: PairRecordDocument): void {
  writeFileSync(file, `${JSON.stringify(document)}\n`);
}
