/**
 * The main job (`npm run bench`), as a pipeline of named stages:
 *
 *   load experiments -> plan points -> set up the machine -> resolve runtimes -> prepare inputs
 *   -> plan jobs -> build -> run each job (measure, normalize, record) -> report -> publish
 *
 * Everything up to "plan jobs" can refuse the run (exit 2) before anything is measured. From then
 * on results.json is rewritten after every benchmark, so a crash or an interrupt loses nothing.
 */
import { join, resolve } from 'node:path';
import { isBusy } from '../analysis/busy.js';
import { runAnalyses } from '../analysis/slope.js';
import { type BuildOutcome, buildAll } from '../build/build.js';
import { UserError } from '../lib/errors.js';
import { killAllChildren, runProcess } from '../lib/exec.js';
import { isSha } from '../lib/ids.js';
import { ensureDirectory } from '../lib/paths.js';
import { cpuPlan, currentConditions } from '../machine/conditions.js';
import { commitInfo, machineInfo } from '../machine/machine.js';
import { type Resolved, readPins, resolveRuntime, toolVersions } from '../machine/toolchains.js';
import { buildEvictor, findTools, type Tools } from '../machine/tools.js';
import type { Job } from '../model/job.js';
import type { Experiment } from '../model/manifest.js';
import type { Profile } from '../model/profiles.js';
import type { Benchmark, Results } from '../model/results.js';
import { normalize, notRun } from '../normalize/normalize.js';
import { loadAllExperiments } from '../plan/experiments.js';
import { prepareInputs } from '../plan/inputs.js';
import { planJobs } from '../plan/jobs.js';
import { expand, type Filters, type Point } from '../plan/plan.js';
import { profileJob } from '../run/cpu-profile.js';
import { measureJob } from '../run/measure.js';
import { checkStore } from '../store/check.js';
import { publishRun } from '../store/store.js';
import { Progress } from './progress.js';
import { writeReports } from './reports.js';
import { type ResultsFile, startResults } from './results-file.js';

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
  programsDir?: string;
  cacheDir?: string;
  /** Also save a V8 .cpuprofile per measured Node.js job under <out>/cpuprofiles (untimed run). */
  profileCpu?: boolean;
  log?: (msg: string) => void;
}

export interface BenchOutcome {
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
}

export interface Host {
  tools: Tools;
  machine: ReturnType<typeof machineInfo>;
  conditions: ReturnType<typeof currentConditions>;
  cpus?: { taskset: string; harness: string; measured: string; all: string };
}

/** Finds the measuring tools and records the machine; moves the harness off the measured CPUs. */
export async function setUpMachine(opts: Pick<BenchOptions, 'strict'>, log: (m: string) => void): Promise<Host> {
  const tools = findTools();
  const machine = machineInfo();
  const cpus = cpuPlan(machine.cores);
  const conditions = currentConditions(cpus && tools.taskset ? cpus : undefined);
  if (isBusy(conditions, machine.cores)) {
    const msg = `the machine is busy (load average ${conditions.loadAverage[0].toFixed(2)} on ${machine.cores} cores): timings will be noisy`;
    if (opts.strict)
      throw new UserError(`${msg}; refusing because of --strict`, 'wait for the load to drop, or run without --strict');
    log(`warning: ${msg}`);
  }
  if (!cpus || !tools.taskset) return { tools, machine, conditions };
  // The harness (and so hyperfine and the generators, its children) moves off the measured CPUs.
  await runProcess([tools.taskset, '-a', '-p', '-c', cpus.harness, String(process.pid)]);
  return { tools, machine, conditions, cpus: { taskset: tools.taskset, ...cpus, all: `0-${machine.cores - 1}` } };
}

/** Every runtime the points need, resolved once (npm-published ones installed into the cache). */
export async function resolveRuntimes(
  points: readonly Point[],
  opts: Pick<BenchOptions, 'root'>,
  cacheDir: string,
  log: (m: string) => void,
): Promise<Map<string, Resolved>> {
  const pins = readPins(join(opts.root, 'harness', 'toolchains.json'));
  // gcc also builds the page-cache evictor when a point may run cold, even for JavaScript-only runs.
  const names = new Set([
    ...points.map((p) => p.runtime),
    ...(points.some((p) => p.experiment.manifest.evict) ? ['gcc'] : []),
  ]);
  const out = new Map<string, Resolved>();
  for (const name of names) out.set(name, await resolveRuntime(name, pins, join(cacheDir, 'runtimes'), log));
  return out;
}

/**
 * What points need before they can be planned into jobs: their runtimes, their generated inputs
 * (for points whose runtime resolved) and, when a point may run cold, the page-cache evictor built
 * from `evictorRoot`'s harness/tools. Shared by bench and the paired diff.
 */
export async function preparePoints(
  points: readonly Point[],
  root: string,
  evictorRoot: string,
  cacheDir: string,
  log: (m: string) => void,
) {
  const runtimes = await resolveRuntimes(points, { root }, cacheDir, log);
  const inputs = await prepareInputs(
    points.filter((p) => runtimes.get(p.runtime)?.ok),
    cacheDir,
    log,
  );
  const gcc = runtimes.get('gcc');
  const evictTool =
    points.some((p) => p.experiment.manifest.evict) && gcc?.ok
      ? await buildEvictor(gcc.path, evictorRoot, cacheDir, log)
      : undefined;
  return { runtimes, inputs, evictTool };
}

/** Measures every job in order, writing results.json after each; stops cleanly on SIGINT/SIGTERM. */
async function runJobs(
  jobs: readonly Job[],
  builds: ReadonlyMap<string, BuildOutcome>,
  host: Host,
  file: ResultsFile,
  opts: BenchOptions,
  log: (m: string) => void,
) {
  let interrupted = false;
  const onSignal = (sig: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    log(`\n${sig} received: stopping the running benchmark; results so far are kept (marked partial)`);
    killAllChildren('SIGKILL');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let measuredSeconds = 0;
  const progress = new Progress(jobs.filter((j) => !j.blocked).length);
  try {
    for (const job of jobs) {
      if (interrupted) break;
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
        if (interrupted) break; // the job in flight was killed: it has no honest result
        b = normalize(job, raw, build?.info);
        if (opts.profileCpu && b.status === 'ok' && job.runtime.startsWith('node@')) {
          const prof = await profileJob(job, file.outDir);
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
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return { interrupted, measuredSeconds };
}

export async function bench(opts: BenchOptions): Promise<BenchOutcome> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const started = new Date();
  const t0 = performance.now();
  const cacheDir = opts.cacheDir ?? join(opts.root, '.cache');
  const outDir = ensureDirectory(resolve(opts.outDir), '--out');

  const experiments: Experiment[] = loadAllExperiments(opts.programsDir ?? join(opts.root, 'programs'));
  const points = expand(experiments, opts.profile, opts.filters);
  // A store this run could not be added to is refused now, not after minutes of measuring.
  if (opts.storeDir) checkStore(opts.storeDir);
  const host = await setUpMachine(opts, log);
  const { runtimes, inputs, evictTool } = await preparePoints(points, opts.root, opts.root, cacheDir, log);
  const jobs = planJobs(points, {
    runtimes,
    inputs,
    cacheDir,
    require: opts.require,
    ...(host.cpus ? { cpus: host.cpus } : {}),
    ...(evictTool ? { evictTool } : {}),
    ...(opts.runs ? { runs: opts.runs } : {}),
  });

  const toolchains = toolVersions();
  for (const [name, r] of runtimes) if (r.ok && name !== 'gcc' && r.version !== 'system') toolchains[name] = r.version;
  const file = startResults(outDir, {
    started,
    profile: opts.profile,
    commit: commitInfo(opts.root),
    machine: host.machine,
    toolchains,
    conditions: host.conditions,
    experiments,
  });
  const builds = await buildAll(jobs, log);
  const { interrupted, measuredSeconds } = await runJobs(jobs, builds, host, file, opts, log);
  const results = file.finish({
    partial: interrupted,
    timing: { totalSeconds: (performance.now() - t0) / 1000, measuredSeconds },
    analyses: runAnalyses(experiments, file.benchmarks),
  });

  const { summary, summaryText } = writeReports(outDir, results, experiments);
  const { stored, sitePath } = await store(results, opts, log);
  return {
    results,
    outDir,
    summary,
    summaryText,
    interrupted,
    planned: jobs.length,
    stored,
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
