/**
 * The main job (`npm run bench`), as a pipeline of named stages:
 *
 *   load experiments -> plan points -> set up the machine -> resolve runtimes -> prepare inputs
 *   -> plan jobs -> build -> run each job (measure, normalize, record) -> report -> publish
 *
 * Setting up the machine through planning jobs is ./setup.ts, the stage the paired diff shares.
 * The run's options and result are ./bench-options.ts; its counted work, ./counts-of-run.ts.
 *
 * Everything up to "plan jobs" can refuse the run (exit 2) before anything is measured. From then
 * on results.json is rewritten after every benchmark, so a crash or an interrupt loses nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runAnalyses } from '../analysis/slope.js';
import { RUN_COUNTS_FILE } from '../counts/stored-counts.js';
import type { Experiment } from '../formats/manifest-format.js';
import { RAW_SAMPLES_FILE } from '../formats/raw-samples-format.js';
import type { Benchmark, Results } from '../formats/results-format.js';
import { isSha } from '../lib/ids.js';
import { ensureDirectory } from '../lib/paths.js';
import { cacheRoot } from '../machine/cache-root.js';
import { commitInfo } from '../machine/machine.js';
import type { Tools } from '../machine/tools.js';
import type { Job } from '../model/job.js';
import { loadAllExperiments } from '../plan/experiments.js';
import { expand } from '../plan/plan.js';
import { type BuildResult, buildAll } from '../run/build.js';
import { countSyscalls } from '../run/common.js';
import { profileJob, profiles } from '../run/cpu-profile.js';
import { measureJob } from '../run/measure.js';
import { normalize, notRun } from '../run/normalize.js';
import type { SyscallCounts } from '../run/parse-strace.js';
import { reparsed } from '../run/reparse.js';
import type { RawSamples } from '../run/runner.js';
import { checkStore } from '../store/check.js';
import { publishRun } from '../store/publish-run.js';
import { storeTraces } from '../store/trace-store.js';
import { type BenchOptions, type BenchResult, checkoutOf } from './bench-options.js';
import {
  failRefusedWrites,
  RUN_TRACES_FILE,
  type TraceStageResult,
  traceStage,
  writeRunTraces,
} from './bench-traces.js';
import { checkCounting, countsOfRun, keepCounts } from './counts-of-run.js';
import { Progress } from './progress.js';
import { writeRawSamples } from './raw-samples.js';
import { writeReports } from './reports.js';
import { type ResultsFile, startResults } from './results-file.js';
import { type Host, onInterrupt, planCheckout, setUpMachine } from './setup.js';

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
  const raws = new Map<string, RawSamples>();
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
        const raw = opts.reduce ? rawOf(opts.reduce.benchmarks, job) : await measureJob(job, host.tools);
        if (!opts.reduce) measuredSeconds += raw.measuredSeconds;
        if (stop.interrupted) break; // the job in flight was killed: it has no honest result
        raws.set(job.id, raw);
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
  return { interrupted: stop.interrupted, measuredSeconds, traces, profiled, raws };
}

/**
 * A job's raw samples in a reduced run: another run's, with what its programs printed read again by
 * this harness (run/reparse.ts), or a skip where that run had none.
 */
function rawOf(reduce: Readonly<Record<string, RawSamples>>, job: Job): RawSamples {
  const raw = Object.hasOwn(reduce, job.id) ? reduce[job.id] : undefined;
  return (
    (raw && reparsed(job, raw)) ?? {
      status: 'skipped',
      reason: 'not in the raw samples this run reduces',
      command: '',
      timer: 'harness',
      report: {},
      runs: [],
      notes: [],
      measuredSeconds: 0,
    }
  );
}

const _paramsText = (job: Job) =>
  Object.entries(job.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

/** The run's sandbox in its results: "bubblewrap", or "none: <why>" (short). */
const sandboxLine = (s: string) => (s === 'bubblewrap' ? s : `none: ${s}`.slice(0, 120));

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
  for (const f of [RUN_TRACES_FILE, RUN_COUNTS_FILE, RAW_SAMPLES_FILE]) rmSync(join(outDir, f), { force: true });
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
  // A reduced run runs no program, so it needs no build (and names none in its results).
  const builds = opts.reduce ? new Map<string, BuildResult>() : await buildAll(jobs, log, traceBuilds(opts, host));
  const timed = await runJobs(jobs, builds, host, file, opts, log);
  // A reduced run keeps what it was made from (the measuring run's commit): its folder stays whole
  // even when it is the folder it read them from.
  writeRawSamples(outDir, opts.reduce?.commit ?? commitInfo(opts.root).sha, timed.raws);
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
