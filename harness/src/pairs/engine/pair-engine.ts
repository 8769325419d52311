/**
 * The paired engine's core: two checkouts' points prepared and matched, measured in pairs until
 * each is decided or its share of the budget is spent. It knows no caller: the PR diff
 * (pairs/diff/pr-diff.ts), calibration's A/A and a release confirmation each hand it what
 * they need as arguments — the sides, the points to keep, the budget — and build their answer
 * from what it returns (./pairs-outcome.ts).
 *
 * Matched points are measured in PAIRS: one base and one head process back to back, in a seeded
 * random order per pair, under the job's placement, after warm-ups of both; a fit point's pair is
 * four processes (both sides at both sizes). Counters (syscalls, the program's own counts) are
 * compared exactly over untimed traces of each side (./prepare.ts).
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { NoiseThresholds } from '../../formats/noise-format.js';
import { cpuSnapshot, foreignCores } from '../../machine/cpu-share.js';
import type { Job } from '../../model/job.js';
import { harnessMetric } from '../../model/metrics.js';
import type { Profile } from '../../model/profiles.js';
import { type Host, onInterrupt, setUpMachine } from '../../pipeline/setup.js';
import type { Filters } from '../../plan/plan.js';
import { removeScratch } from '../../run/measure.js';
import { checkCounters, runMetrics } from '../../run/normalize.js';
import type { SyscallCounts } from '../../run/parse-strace.js';
import type { RawRun } from '../../run/runner.js';
import { planAtLevel, pointLevels } from '../decide/multiplicity.js';
import { MIN_EFFECT } from '../decide/pair-statistics.js';
import type { Values } from '../decide/point.js';
import { DEFAULT_PLAN, type SequentialPlan } from '../decide/sequential.js';
import type { Budget } from './budget.js';
import { type LoadedSide, loadSide, type Matched, type PreparedSide, prepareSide } from './diff-sides.js';
import { refuseUnequalTools } from './measuring-tools.js';
import { pairTimer } from './pair-timer.js';
import { realExecutor } from './real-executor.js';
import { runPairsPoints, type SamplingResult } from './scheduler.js';

/** What every stage of a paired diff runs with: the machine, the pair timer, the time, the order seed and the rule. */
export interface Engine {
  host: Host;
  /** The pair timer, built from the tools of the checkout whose harness runs the diff. */
  timer: string;
  /** That checkout: its cache holds both sides' runtimes and inputs, its tools time and evict. */
  harnessRoot: string;
  budget: Budget;
  seed: number;
  plan: SequentialPlan;
  /** Calibrated minimum effects, "<benchmark id> <metric>" -> ratio (noise.json's thresholds). */
  noise?: NoiseThresholds;
  log: (m: string) => void;
}

export interface EngineStart {
  harnessRoot: string;
  budget: Budget;
  seed: number;
  plan?: SequentialPlan;
  noise?: NoiseThresholds;
  /** Refuse a busy machine instead of warning. */
  strict?: boolean;
  log: (m: string) => void;
}

/** Sets the machine up for measuring and builds the pair timer. */
export async function startEngine(s: EngineStart): Promise<Engine> {
  const host = await setUpMachine(s.strict ? { strict: true } : {}, s.log);
  const harnessRoot = resolve(s.harnessRoot);
  const timer = await pairTimer(harnessRoot, s.log);
  return {
    host,
    timer,
    harnessRoot,
    budget: s.budget,
    seed: s.seed,
    plan: s.plan ?? DEFAULT_PLAN,
    ...(s.noise ? { noise: s.noise } : {}),
    log: s.log,
  };
}

/**
 * Runs `fn` on both checkouts reached by paths of the same length (two links in one directory): a
 * process's arguments, PWD and program paths then take the same room on its stack and in its
 * environment, which moves stack alignment and can alone shift a tight loop by a few percent.
 */
export async function withLinkedSides<T>(
  base: string,
  head: string,
  fn: (base: string, head: string) => Promise<T>,
): Promise<T> {
  const sides = mkdtempSync(join(tmpdir(), 'jsio-pairs-sides-'));
  try {
    symlinkSync(resolve(base), join(sides, 'base'), 'dir');
    symlinkSync(resolve(head), join(sides, 'head'), 'dir');
    return await fn(join(sides, 'base'), join(sides, 'head'));
  } finally {
    // The links only (rmSync does not follow them into the checkouts).
    rmSync(sides, { recursive: true, force: true });
  }
}

/** How each side is prepared: the tools whose absence is an error, each side's own just(js), the sandbox. */
export interface SideSetup {
  require: string[];
  /** Each side's just(js) installation (JUST_HOME and JUST_TARGET), when their pins differ. */
  justHomes?: { base?: string; head?: string };
  /** 'off': both sides measured without bubblewrap, each at its own path (a diagnostic, never a verdict). */
  sandbox?: 'off';
}

/** The two checkouts a diff compares, the filters that plan each side's points (a release pair's differ by the runtime), and how each is prepared. */
export interface DiffSides {
  base: { root: string; filters: Filters };
  head: { root: string; filters: Filters };
  profile: Profile;
  setup: SideSetup;
}

/** Both checkouts' points, planned with the diff's profile and each side's filters, read from the linked paths. */
export function loadSides(sides: DiffSides, baseRoot: string, headRoot: string) {
  return {
    base: loadSide(baseRoot, 'base', { profile: sides.profile, filters: sides.base.filters }),
    head: loadSide(headRoot, 'head', { profile: sides.profile, filters: sides.head.filters }),
  };
}

/** Resolves, plans and builds both sides' points (`keep`: the ids to measure; all by default); refuses unequal measuring tools. */
export async function prepareSides(
  engine: Engine,
  loaded: { base: LoadedSide; head: LoadedSide },
  setup: SideSetup,
  keep?: ReadonlySet<string>,
): Promise<{ base: PreparedSide; head: PreparedSide }> {
  const prepare = (side: LoadedSide, label: 'base' | 'head') =>
    prepareSide(
      side,
      engine.harnessRoot,
      label,
      {
        require: setup.require,
        justHome: setup.justHomes?.[label],
        ...(setup.sandbox ? { sandbox: setup.sandbox } : {}),
      },
      engine.host,
      engine.log,
      keep,
    );
  const base = await prepare(loaded.base, 'base');
  const head = await prepare(loaded.head, 'head');
  // A side that planned nothing recorded no tools.
  if (base.jobs.length && head.jobs.length) refuseUnequalTools(base.toolchains, head.toolchains);
  return { base, head };
}

export type Measured = SamplingResult & {
  interrupted: boolean;
  /** Each measured point's share of the diff-wide false-positive level. */
  levels: Map<string, number>;
  /** Cores' worth of CPU other processes used while the pairs ran (absent where /proc does not say). */
  foreignCores?: number;
};

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

/** Measures the matched points in pairs, stopping cleanly on SIGINT/SIGTERM; removes their scratch after. */
export async function measureInPairs(engine: Engine, matched: Pick<Matched, 'plans'>): Promise<Measured> {
  const { budget, plan, log } = engine;
  const stop = onInterrupt(log, 'stopping; points are judged on the pairs measured so far (marked in the comment)');
  try {
    const tools = engine.host.tools;
    const exec = realExecutor(
      { tools, timer: engine.timer, values: processValues, counters: counterValues },
      engine.seed,
    );
    // The diff-wide false-positive level, shared out before any pair (pairs/decide/multiplicity.ts):
    // each point's share, split between its lead and its other timed metrics.
    const split = pointLevels(matched.plans);
    const plans = new Map(matched.plans.map((p, i) => [p.id, planAtLevel(plan, split[i]!.lead)]));
    const othersPlans = new Map(
      matched.plans.flatMap((p, i) => (split[i]!.others > 0 ? [[p.id, planAtLevel(plan, split[i]!.others)]] : [])),
    );
    const levels = new Map(matched.plans.map((p, i) => [p.id, split[i]!.lead + split[i]!.others]));
    const before = cpuSnapshot();
    const s = await runPairsPoints(matched.plans, exec, {
      plan,
      planOf: (id) => plans.get(id) ?? plan,
      othersPlanOf: (id) => othersPlans.get(id),
      budget,
      minEffectOf: (id, metric) => Math.max(MIN_EFFECT, engine.noise?.[`${id} ${metric}`] ?? 0),
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
