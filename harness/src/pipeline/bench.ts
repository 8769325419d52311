/**
 * The main job (`npm run bench`), as a pipeline of named stages:
 *
 *   load experiments -> plan points -> set up the machine -> resolve runtimes -> prepare inputs
 *   -> plan jobs -> build -> run each job (measure, normalize, record) -> report -> publish
 *
 * Setting up the machine through planning jobs is ./setup.ts, the stage the paired diff shares.
 *
 * Everything up to "plan jobs" can refuse the run (exit 2) before anything is measured. From then
 * on results.json is rewritten after every benchmark, so a crash or an interrupt loses nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runAnalyses } from '../analysis/slope.js';
import type { CountsMode } from '../counts/count-jobs.js';
import type { CountedRun } from '../counts/count-rule.js';
import { readCountStore } from '../counts/count-store.js';
import {
  countsBefore,
  countsOfThisRun,
  type OpenedCounts,
  openStoredCounts,
  RUN_COUNTS_FILE,
  saveStoredCounts,
  writeRunCounts,
} from '../counts/stored-counts.js';
import type { CountStoreFile } from '../formats/count-store-format.js';
import type { Experiment } from '../formats/manifest-format.js';
import type { Benchmark, Results } from '../formats/results-format.js';
import { UserError } from '../lib/errors.js';
import { isSha } from '../lib/ids.js';
import { ensureDirectory } from '../lib/paths.js';
import { cacheRoot, checkoutCache } from '../machine/cache-root.js';
import { commitInfo } from '../machine/machine.js';
import type { Tools } from '../machine/tools.js';
import type { Job } from '../model/job.js';
import type { Profile } from '../model/profiles.js';
import { loadAllExperiments } from '../plan/experiments.js';
import { expand, type Filters } from '../plan/plan.js';
import { type BuildResult, buildAll } from '../run/build.js';
import { countSyscalls } from '../run/common.js';
import { type ProfileResult, profileJob, profiles } from '../run/cpu-profile.js';
import { measureJob } from '../run/measure.js';
import { normalize, notRun } from '../run/normalize.js';
import type { SyscallCounts } from '../run/parse-strace.js';
import { checkStore } from '../store/check.js';
import { publishRun } from '../store/publish-run.js';
import { storeTraces } from '../store/trace-store.js';
import { type CountStageResult, countStage, DEFAULT_COUNT_BUDGET } from './bench-counts.js';
import {
  failRefusedWrites,
  RUN_TRACES_FILE,
  type TraceStageResult,
  traceStage,
  writeRunTraces,
} from './bench-traces.js';
import { countProfiles } from './count-profiles.js';
import { Progress } from './progress.js';
import { writeReports } from './reports.js';
import { type ResultsFile, startResults } from './results-file.js';
import { type CheckoutPlan, type Host, onInterrupt, planCheckout, setUpMachine } from './setup.js';

export interface BenchOptions {
  root: string;
  profile: Profile;
  filters: Filters;
  outDir: string;
  /** Local history (the embedded default store); undefined to skip publishing. */
  storeDir?: string;
  /** Called after publishing to rebuild the local site; returns where it is. */
  buildSite?: (storeDir: string) => Promise<string>;
  require: string[];
  /** Refuse to run on a busy machine instead of warning. */
  strict?: boolean;
  /** Timed runs per benchmark, replacing the profile's. */
  runs?: number;
  /** Timed runs of some variants (by id), replacing `runs` for them (the release sweep's reference). */
  variantRuns?: Readonly<Record<string, number>>;
  programsDir?: string;
  /** The cache for runtimes, inputs, tools and builds; by default the harness's (machine/cache-root.ts). */
  cacheDir?: string;
  /** Which points' work is counted under Valgrind after the timed runs (counts/count-jobs.ts; default headline). */
  counts?: CountsMode;
  /** Count every chosen point again, taking nothing from the stored counts (`--recount`). */
  recount?: boolean;
  /** New points counted per run at most (./bench-counts.ts DEFAULT_COUNT_BUDGET). */
  countBudget?: number;
  /**
   * A trend store whose counts of this machine are read, never written, by a run added to no store
   * (main's runners: gh-pages' `data`, checked out read-only): the counts the run made or
   * re-checked go into <out>/counts.json, which `npm run pages` merges into the store.
   */
  countStoreDir?: string;
  /**
   * Counts kept in memory across the bench runs of one release sweep, never written: a point whose
   * key they hold (the C reference, the same build under every release) takes its count without
   * a re-check (minutes apart, on one machine, in one process); the run's new counts are added.
   */
  sweepCounts?: CountStoreFile;
  /** Also profile each measured JavaScript job once, untimed, under <out>/cpuprofiles (run/cpu-profile.ts). */
  profileCpu?: boolean;
  /**
   * Untimed strace runs per measured benchmark, the runner's own included (default 1): with two
   * or more, a count the runs disagree on can be told from one that changed (the release axis).
   */
  traces?: number;
  /**
   * Profiles whose points are traced once for the files they touch (./bench-traces.ts), kept in
   * <out>/traces.json and, with the run, in the store: the trusted plan of a pull request based on
   * this commit takes them (main's runners: their profile and the pull requests').
   */
  traceProfiles?: readonly Profile[];
  /**
   * Other profiles whose points are counted too, untimed, once per key (./count-profiles.ts): main's
   * runners count the pull requests' profile, whose bases the paired diff then takes from the store.
   * Their new keys share the counting budget with the run's own, which come first.
   */
  countProfiles?: readonly Profile[];
  log?: (msg: string) => void;
}

export interface BenchResult {
  results: Results;
  outDir: string;
  summary: string;
  /** The summary for a terminal (no markdown escapes). */
  summaryText: string;
  sitePath?: string;
  interrupted: boolean;
  /** Benchmarks planned (results hold fewer when interrupted). */
  planned: number;
  /** Whether the run was added to the store. */
  stored: boolean;
  /** With profileCpu: each profiled job's profile files, or why it has none. */
  profiles: { job: string; result: ProfileResult }[];
  /** Every traced run's syscall counts per benchmark id, when `traces` asked for more than one. */
  traces: Map<string, SyscallCounts[]>;
  /** Each counted benchmark's runs under Valgrind, by id: the counts behind its `instructions` metrics. */
  counted: Map<string, CountedRun[]>;
  /** Wall seconds the counting stage took (0 when nothing was counted). */
  countSeconds: number;
  /** Wall seconds the trace pass took (0 without --trace-profiles). */
  traceSeconds: number;
}

/** The runner's trace and `total - 1` more untimed ones, each counted alike; stops at the first that fails. */
async function traceAgain(job: Job, tools: Tools, first: SyscallCounts, total: number): Promise<SyscallCounts[]> {
  const out = [first];
  const work = mkdtempSync(join(tmpdir(), 'jsio-traces-'));
  try {
    while (out.length < total) {
      const t = await countSyscalls(job, tools, work);
      if (!t.syscalls) break;
      out.push(t.syscalls);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return out;
}

/** Measures every job in order, writing results.json after each; stops cleanly on SIGINT/SIGTERM. */
async function runJobs(
  jobs: readonly Job[],
  builds: ReadonlyMap<string, BuildResult>,
  host: Host,
  file: ResultsFile,
  opts: BenchOptions,
  log: (m: string) => void,
) {
  const stop = onInterrupt(log, 'stopping the running benchmark; results so far are kept (marked partial)');
  let measuredSeconds = 0;
  const traces = new Map<string, SyscallCounts[]>();
  const profiled: BenchResult['profiles'] = [];
  const progress = new Progress(jobs.filter((j) => !j.blocked).length);
  try {
    for (const job of jobs) {
      if (stop.interrupted) break;
      if (job.blocked) {
        file.add(notRun(job, job.blocked.status, job.blocked.reason, job.blocked.hint));
        continue;
      }
      progress.start(
        `${job.experiment.id} › ${job.variant.id} › ${Object.entries(job.params)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`,
      );
      const t = performance.now();
      const build = job.build ? builds.get(job.build.key) : undefined;
      let b: Benchmark;
      if (build && !build.ok) b = notRun(job, 'failed', `build failed: ${build.reason}`);
      else {
        const raw = await measureJob(job, host.tools);
        measuredSeconds += raw.measuredSeconds;
        if (stop.interrupted) break; // the job in flight was killed: it has no honest result
        b = normalize(job, raw, build?.info);
        if ((opts.traces ?? 1) > 1 && b.status === 'ok' && raw.syscalls)
          traces.set(job.id, await traceAgain(job, host.tools, raw.syscalls, opts.traces!));
        if (opts.profileCpu && b.status === 'ok' && profiles(job)) {
          const prof = await profileJob(job, file.outDir);
          profiled.push({ job: job.id, result: prof });
          log(
            'files' in prof
              ? `cpu profile: ${prof.files.join(', ')}`
              : `cpu profile of ${job.id} not saved: ${prof.reason}`,
          );
        }
      }
      progress.finish((performance.now() - t) / 1000, b.status === 'ok' ? 'ok' : `${b.status}: ${b.reason}`);
      file.add(b);
    }
    progress.end();
  } finally {
    stop.dispose();
  }
  return { interrupted: stop.interrupted, measuredSeconds, traces, profiled };
}

/** The counting stage (./bench-counts.ts) under its own interrupt: the timed results are kept. */
async function countAll(
  jobs: readonly Job[],
  host: Host,
  file: ResultsFile,
  opts: BenchOptions & { stored: OpenedCounts; commit: string },
  log: (m: string) => void,
): Promise<CountStageResult> {
  const stop = onInterrupt(log, 'stopping the counts; the timed results are kept');
  try {
    return await countStage(
      jobs,
      host,
      file,
      {
        counts: opts.counts ?? 'headline',
        budget: opts.countBudget ?? DEFAULT_COUNT_BUDGET,
        stored: opts.stored,
        recheck: !opts.sweepCounts,
        commit: opts.commit,
      },
      log,
      () => stop.interrupted,
    );
  } finally {
    stop.dispose();
  }
}

const _paramsText = (job: Job) =>
  Object.entries(job.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

/** The run's sandbox in its results: "bubblewrap", or "none: <why>" (short). */
const sandboxLine = (s: string) => (s === 'bubblewrap' ? s : `none: ${s}`.slice(0, 120));

/** The run's counts: the store's stored counts opened, then the counting stage (none after an interrupt). */
async function countsOfRun(
  jobs: readonly Job[],
  host: Host,
  file: ResultsFile,
  o: {
    opts: BenchOptions;
    interrupted: boolean;
    toolchains: Record<string, string>;
    sandbox: string;
    cacheDir: string;
    /** For other profiles' points (`countProfiles`): the run's experiments and builds. */
    experiments: readonly Experiment[];
    builds: ReadonlyMap<string, BuildResult>;
  },
  log: (m: string) => void,
): Promise<{ stored: OpenedCounts; before: ReadonlyMap<string, string>; work: CountStageResult }> {
  const { opts } = o;
  const stored = openStoredCounts(
    {
      // A sweep's counts live in memory: nothing is written there (only a published run saves its store).
      storeDir: opts.storeDir ?? opts.countStoreDir ?? (opts.sweepCounts ? SWEEP_STORE : undefined),
      machine: host.machine.id,
      recount: opts.recount ?? false,
      sandbox: o.sandbox,
      tools: host.tools,
      toolchains: o.toolchains,
      cacheDir: o.cacheDir,
    },
    opts.storeDir || opts.countStoreDir ? undefined : opts.sweepCounts,
  );
  const before = countsBefore(stored);
  if (o.interrupted)
    return {
      stored,
      before,
      work: { interrupted: true, counted: new Map<string, CountedRun[]>(), seconds: 0, newKeys: 0 },
    };
  const commit = commitInfo(opts.root).sha;
  const work = await countAll(jobs, host, file, { ...opts, stored, commit }, log);
  if (work.interrupted || !opts.countProfiles?.length) return { stored, before, work };
  const others = { experiments: o.experiments, builds: o.builds, checkout: checkoutOf(opts, o.cacheDir) };
  return { stored, before, work: await withOtherProfiles(work, host, stored, { ...others, opts, commit }, log) };
}

/** What counting other profiles' points needs of the run (./count-profiles.ts). */
interface OtherProfiles {
  experiments: readonly Experiment[];
  checkout: CheckoutPlan;
  builds: ReadonlyMap<string, BuildResult>;
}

/** The other profiles' points counted after the run's own (`countProfiles`), under the same interrupt rule; said in the run's record. */
async function withOtherProfiles(
  work: CountStageResult,
  host: Host,
  stored: OpenedCounts,
  o: OtherProfiles & { opts: BenchOptions; commit: string },
  log: (m: string) => void,
): Promise<CountStageResult> {
  const { opts } = o;
  const others = (opts.countProfiles ?? []).filter((p) => p !== opts.profile);
  if (!others.length) return work;
  const budget = opts.countBudget ?? DEFAULT_COUNT_BUDGET;
  const stop = onInterrupt(log, 'stopping the counts; the timed results are kept');
  const t = performance.now();
  try {
    const profiles = await countProfiles(
      {
        experiments: o.experiments,
        filters: opts.filters,
        profiles: others,
        counts: opts.counts ?? 'headline',
        budgetLeft: budget - work.newKeys,
        commit: o.commit,
        checkout: o.checkout,
        builds: o.builds,
      },
      host,
      stored,
      log,
      () => stop.interrupted,
    );
    const record = work.record ?? emptyRecord(stored, budget);
    return {
      ...work,
      interrupted: stop.interrupted,
      seconds: work.seconds + (performance.now() - t) / 1000,
      ...(profiles.length ? { record: { ...record, profiles } } : {}),
    };
  } finally {
    stop.dispose();
  }
}

/** The run's counting record when its own points counted nothing. */
const emptyRecord = (stored: OpenedCounts, budget: number): NonNullable<CountStageResult['record']> => ({
  store: stored.ok ? 'reused' : `not reused: ${stored.why}`.slice(0, 200),
  ...{ reused: 0, counted: 0, deferred: 0, budget, rechecked: [], dropped: [] },
});

/**
 * The counts go into the store with the run that made them, never from a run it refused. Apart
 * from the store (`countStoreDir`), a whole run leaves the counts it made or re-checked in
 * <out>/counts.json for `npm run pages` (which refuses a partial run).
 */
function keepCounts(
  opts: BenchOptions,
  outDir: string,
  run: { published: boolean; interrupted: boolean },
  stored: OpenedCounts,
  before: ReadonlyMap<string, string>,
): void {
  if (!stored.ok) return;
  if (run.published) saveStoredCounts(stored);
  else if (opts.countStoreDir && !opts.storeDir && !run.interrupted)
    writeRunCounts(outDir, countsOfThisRun(stored, before));
}

/** What a run's counting record names as its store when the counts are a sweep's, in memory. */
const SWEEP_STORE = "(the release sweep's counts, in memory)";

/** The trace pass (./bench-traces.ts) when asked for: the run's traces written, its points that wrote outside failed. */
async function tracePass(
  experiments: readonly Experiment[],
  host: Host,
  file: ResultsFile,
  o: { opts: BenchOptions; cacheDir: string; builds?: ReadonlyMap<string, BuildResult> },
  log: (m: string) => void,
): Promise<TraceStageResult | undefined> {
  const { opts } = o;
  if (!opts.traceProfiles?.length) return undefined;
  const traced = await traceStage(
    {
      root: opts.root,
      experiments,
      filters: opts.filters,
      profile: opts.profile,
      profiles: opts.traceProfiles,
      commit: commitInfo(opts.root).sha,
      // The cache bench was given, else the same defaults as bench's own (machine/cache-root.ts).
      ...(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}),
      ...(opts.programsDir ? { programsDir: opts.programsDir } : {}),
      ...(o.builds ? { builds: o.builds } : {}),
    },
    host,
    log,
  );
  if (!traced.file) return traced;
  const broken = failRefusedWrites(file, traced.file, opts.profile);
  if (broken) log(`${broken} point(s) failed: their processes tried to write outside their scratch folder`);
  writeRunTraces(file.outDir, traced.file);
  return traced;
}

/** strace for the builds when the trace pass will take them: a build keeps the trace made when it was made. */
const traceBuilds = (opts: BenchOptions, host: Host) => (opts.traceProfiles?.length ? host.tools.strace : undefined);

/** What counting needs, refused before anything is measured. */
function checkCounting(opts: BenchOptions, host: Host): void {
  if (opts.require.includes('counts') && !host.tools.valgrind)
    throw new UserError(
      '--require counts: valgrind is not installed, so no work can be counted',
      'apt-get install valgrind',
    );
  // Read again after the timed runs; a file that cannot be used stops the run now, naming the field.
  if (opts.countStoreDir)
    readCountStore(opts.countStoreDir, host.machine.id, 'refusing the stored counts (--count-store): ');
}

/** What planCheckout needs of a bench run. */
function checkoutOf(opts: BenchOptions, cacheDir: string): CheckoutPlan {
  return {
    root: opts.root,
    cacheDir,
    // The checkout's builds and scratch in its own folder of the cache; under a cache given
    // (`cacheDir`: the tests), there.
    ...(opts.cacheDir ? {} : { jobCacheDir: checkoutCache(opts.root) }),
    evictorRoot: opts.root,
    require: opts.require,
    ...(opts.programsDir ? { programsDir: opts.programsDir } : {}),
    // `--require sandbox` (main's trend runs): no run measured without one reaches a trend.
    sandbox: opts.require.includes('sandbox') ? 'required' : 'preferred',
    ...(opts.runs ? { runs: opts.runs } : {}),
    ...(opts.variantRuns ? { variantRuns: opts.variantRuns } : {}),
    // The trace pass takes the inputs made here: made under a trace, it need not make them again.
    ...(opts.traceProfiles?.length ? { traceInputs: true } : {}),
  };
}

export async function bench(opts: BenchOptions): Promise<BenchResult> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const started = new Date();
  const t0 = performance.now();
  const cacheDir = opts.cacheDir ?? cacheRoot();

  const experiments: Experiment[] = loadAllExperiments(opts.programsDir ?? join(opts.root, 'programs'));
  const points = expand(experiments, opts.profile, opts.filters);
  // A store this run could not be added to is refused now, not after minutes of measuring.
  if (opts.storeDir) checkStore(opts.storeDir);
  // Created only once the run is accepted: a refused run leaves nothing behind.
  const outDir = ensureDirectory(resolve(opts.outDir), '--out');
  // An earlier run's traces and counts must not go on beside this run's results (`npm run pages` carries them).
  for (const f of [RUN_TRACES_FILE, RUN_COUNTS_FILE]) rmSync(join(outDir, f), { force: true });
  if (opts.storeDir) ensureDirectory(opts.storeDir, '--store');
  const host = await setUpMachine(opts, log);
  checkCounting(opts, host);
  const { jobs, toolchains, coldRead, sandbox } = await planCheckout(points, host, checkoutOf(opts, cacheDir), log);
  const file = startResults(outDir, {
    started,
    profile: opts.profile,
    commit: commitInfo(opts.root),
    machine: host.machine,
    toolchains,
    conditions: { ...host.conditions, sandbox: sandboxLine(sandbox), ...(coldRead ? { coldRead } : {}) },
    experiments,
  });
  const builds = await buildAll(jobs, log, traceBuilds(opts, host));
  const timed = await runJobs(jobs, builds, host, file, opts, log);
  const { measuredSeconds, traces, profiled } = timed;
  const traced = timed.interrupted
    ? undefined
    : await tracePass(
        experiments,
        host,
        file,
        { opts, cacheDir, ...(sandbox === 'bubblewrap' ? { builds } : {}) },
        log,
      );
  const { stored, before, work } = await countsOfRun(
    jobs,
    host,
    file,
    { opts, interrupted: timed.interrupted, toolchains, sandbox, cacheDir, experiments, builds },
    log,
  );
  const interrupted = work.interrupted;
  const results = file.finish({
    partial: interrupted,
    timing: { totalSeconds: (performance.now() - t0) / 1000, measuredSeconds },
    analyses: runAnalyses(experiments, file.benchmarks),
    ...(work.record ? { counting: work.record } : {}),
  });

  const { summary, summaryText } = writeReports(outDir, results, experiments);
  if (sandbox !== 'bubblewrap') log(`measured without a sandbox: ${sandbox}`);
  const { stored: published, sitePath } = await store(results, opts, log);
  keepCounts(opts, outDir, { published, interrupted }, stored, before);
  if (published && opts.storeDir && traced?.file) storeTraces(opts.storeDir, host.machine.id, traced.file);
  return {
    results,
    outDir,
    summary,
    summaryText,
    interrupted,
    planned: jobs.length,
    stored: published,
    traces,
    counted: work.counted,
    countSeconds: work.seconds,
    traceSeconds: traced?.seconds ?? 0,
    profiles: profiled,
    ...(sitePath ? { sitePath } : {}),
  };
}

/**
 * Adds a finished run to the store and rebuilds the site. A partial run, a run outside a git
 * commit, and a run in which no benchmark succeeded (nothing to trend: every point failed or was
 * skipped) never reach the history.
 */
async function store(
  results: Results,
  opts: BenchOptions,
  log: (m: string) => void,
): Promise<{ stored: boolean; sitePath?: string }> {
  if (!opts.storeDir) return { stored: false };
  const ok = results.benchmarks.filter((b) => b.status === 'ok').length;
  if (results.run.partial) log('interrupted: the history was not touched (a partial run is never published)');
  else if (!isSha(results.run.commit.sha))
    log(`not added to the history: ${opts.root} is not a git commit (${results.run.commit.sha})`);
  else if (!ok) log('not added to the history: no benchmark succeeded, so the run has nothing to show in a trend');
  else {
    await publishRun(opts.storeDir, results);
    return { stored: true, ...(opts.buildSite ? { sitePath: await opts.buildSite(opts.storeDir) } : {}) };
  }
  return { stored: false };
}
