/**
 * The main job: plan -> build -> run -> validate -> normalize -> write results, summary and
 * github-action-benchmark inputs -> append to the local history -> rebuild the local site.
 * results.json is rewritten after every benchmark, so a crash or an interrupt loses nothing.
 */
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runAnalyses } from '../analysis/slope.js';
import { type BuildOutcome, buildVariant } from '../build/build.js';
import { UserError } from '../lib/errors.js';
import { killAllChildren, runProcess, which } from '../lib/exec.js';
import { ensureInput, generatorArgs, inputScope } from '../plan/inputs.js';
import { commitInfo, machineInfo } from '../machine/machine.js';
import { cpuPlan, currentConditions, isBusy } from '../machine/conditions.js';
import { type Experiment, loadAllExperiments } from '../plan/experiments.js';
import { failedBenchmark, measuredBenchmark, skippedBenchmark } from '../normalize/normalize.js';
import { applyRuntimes, expand, type Filters, type Point } from '../plan/plan.js';
import type { Profile } from '../model/profiles.js';
import { Progress } from './progress.js';
import { GAB_FILES, toGab } from '../report/gab.js';
import { renderSummary } from '../report/summary.js';
import { type Benchmark, RESULTS_SCHEMA, type Results } from '../model/results.js';
import { profilePoint } from '../run/cpu-profile.js';
import { measurePoint, type Tools } from '../run/hyperfine-runner.js';
import { measureSelfReported } from '../run/self-runner.js';
import { writeFileAtomic } from '../lib/atomic.js';
import { publishRun } from '../store/store.js';
import { readPins, type Resolved, resolveRuntime, toolVersions } from '../machine/toolchains.js';
import { parseHyperfineVersion } from '../run/parse-hyperfine.js';
import { probe } from '../lib/exec.js';

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
  /** Also save a V8 .cpuprofile per measured Node.js point under <out>/cpuprofiles (untimed run). */
  profileCpu?: boolean;
  log?: (msg: string) => void;
}

export interface BenchOutcome {
  results: Results;
  outDir: string;
  summary: string;
  sitePath?: string;
  interrupted: boolean;
}

function ensureWritable(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    const probeFile = join(dir, `.write-test-${process.pid}`);
    writeFileSync(probeFile, 'ok');
    rmSync(probeFile);
  } catch (e) {
    throw new UserError(`output directory ${dir} is not writable: ${(e as Error).message}`, 'choose another one with --out DIR');
  }
}

function findTools(): Tools {
  const hyperfine = which('hyperfine');
  if (!hyperfine) throw new UserError('hyperfine is not installed; every timed benchmark needs it', 'apt-get install hyperfine (or: cargo install hyperfine --locked)');
  const version = parseHyperfineVersion(probe([hyperfine, '--version']) ?? '');
  if (!version || version[0] < 1 || (version[0] === 1 && version[1] < 15)) {
    throw new UserError(`hyperfine ${version?.join('.') ?? '(unknown version)'} is too old; jsio-bench needs >= 1.15`, 'apt-get install hyperfine (Debian 12 ships 1.15)');
  }
  const strace = which('strace');
  const gnuTime = ['/usr/bin/time'].find((p) => probe([p, '--version'])?.includes('GNU'));
  return { hyperfine, ...(strace ? { strace } : {}), ...(gnuTime ? { gnuTime } : {}) };
}

function runId(start: Date, sha: string): string {
  return `${start.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${sha.slice(0, 7)}`;
}

function paramLabel(p: Point): string {
  return Object.entries(p.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

export async function bench(opts: BenchOptions): Promise<BenchOutcome> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const started = new Date();
  const t0 = performance.now();
  const outDir = resolve(opts.outDir);
  ensureWritable(outDir);
  const programsDir = opts.programsDir ?? join(opts.root, 'programs');
  const cacheDir = opts.cacheDir ?? join(opts.root, '.cache');
  const experiments = loadAllExperiments(programsDir);
  if (!experiments.length) throw new UserError(`no experiments found under ${programsDir}`);
  let points = expand(experiments, opts.profile, opts.filters);
  if (opts.runs) points = points.map((p) => ({ ...p, settings: { ...p.settings, runs: opts.runs! } }));
  const tools = findTools();
  const machine = machineInfo();
  const cpus = cpuPlan(machine.cores);
  const taskset = which('taskset');
  const conditions = currentConditions(cpus && taskset ? cpus : undefined);
  if (isBusy(conditions, machine.cores)) {
    const msg = `the machine is busy (load average ${conditions.loadAverage[0].toFixed(2)} on ${machine.cores} cores): timings will be noisy`;
    if (opts.strict) throw new UserError(`${msg}; refusing because of --strict`, 'wait for the load to drop, or run without --strict');
    log(`warning: ${msg}`);
  }
  if (cpus && taskset) {
    // The harness (and so hyperfine and generators, its children) moves off the measured CPUs.
    await runProcess([taskset, '-a', '-p', '-c', cpus.harness, String(process.pid)]);
    tools.pin = { taskset, cpus: cpus.measured };
  }

  // Resolve every runtime once (installing npm-published ones into the cache).
  const pins = readPins(join(opts.root, 'harness', 'toolchains.json'));
  const resolved = new Map<string, Resolved>();
  // gcc is also needed to build the page-cache evictor when a point may run cold, even if
  // only JavaScript variants were chosen.
  const needsGcc = points.some((p) => p.experiment.manifest.evict);
  for (const name of [...new Set([...points.map((p) => p.runtime), ...(needsGcc ? ['gcc'] : [])])]) {
    resolved.set(name, await resolveRuntime(name, pins, join(cacheDir, 'runtimes'), log));
  }
  points = applyRuntimes(points, resolved, opts.require);

  const toolchains = toolVersions();
  for (const [name, r] of resolved) if (r.ok && name !== 'gcc' && r.version !== 'system') toolchains[name] = r.version;
  const commit = commitInfo(opts.root);
  const results: Results = {
    schema: RESULTS_SCHEMA,
    run: {
      id: runId(started, commit.sha),
      profile: opts.profile,
      partial: true,
      start: started.toISOString(),
      end: started.toISOString(),
      commit,
      machine,
      toolchains,
      conditions,
    },
    // The summary and headline specs travel with the results: the site reads no manifests.
    experiments: Object.fromEntries(
      experiments.map((e) => [
        e.id,
        {
          title: e.manifest.title,
          question: e.manifest.question,
          parameters: Object.fromEntries(Object.entries(e.manifest.parameters).map(([k, v]) => [k, { description: v.description, ...(v.unit ? { unit: v.unit } : {}) }])),
          ...(e.manifest.summary ? { summary: e.manifest.summary } : {}),
          headline: e.manifest.headline,
        },
      ]),
    ),
    benchmarks: [],
  };
  const resultsPath = join(outDir, 'results.json');
  const save = () => writeFileAtomic(resultsPath, `${JSON.stringify(results, null, 1)}\n`);

  // Interrupts stop the children, keep what was measured, and mark the run partial.
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
  try {
    // Build each variant once.
    const builds = new Map<string, BuildOutcome | undefined>();
    const gcc = resolved.get('gcc');
    const just = resolved.get('just');
    for (const p of points) {
      const key = `${p.experiment.id}/${p.variant.id}`;
      if (p.skip || builds.has(key) || !p.variant.build) continue;
      log(`building ${key} (${p.variant.build.kind})`);
      builds.set(
        key,
        await buildVariant(p.experiment, p.variant, join(cacheDir, 'build'), {
          ...(gcc?.ok ? { gcc: gcc.path, gccVersion: toolchains.gcc ?? 'gcc' } : {}),
          ...(just?.ok ? { just: just.path, justVersion: just.version } : {}),
        }),
      );
    }

    // The page-cache evictor, built once, only when some point runs cold.
    if (points.some((p) => !p.skip && p.experiment.manifest.evict) && gcc?.ok) {
      const evictSrc = join(opts.root, 'harness', 'tools', 'evict.c');
      const evictBin = join(cacheDir, 'tools', 'evict');
      if (!existsSync(evictBin) || statSync(evictBin).mtimeMs < statSync(evictSrc).mtimeMs) {
        mkdirSync(join(cacheDir, 'tools'), { recursive: true });
        const r = await runProcess([gcc.path, '-O2', '-o', evictBin, evictSrc]);
        if (r.code !== 0) log(`could not build the page-cache evictor: ${r.stderr.trim()}`);
      }
      if (existsSync(evictBin)) tools.evict = evictBin;
    }

    const runnable = points.filter((p) => !p.skip).length;
    const progress = new Progress(runnable);
    for (const p of points) {
      if (interrupted) break;
      let b: Benchmark;
      if (p.skip) {
        b = skippedBenchmark(p, p.skip.reason, p.skip.hint);
      } else {
        const build = builds.get(`${p.experiment.id}/${p.variant.id}`);
        progress.start(`${p.experiment.id} › ${p.variant.id} › ${paramLabel(p)}`);
        const t = performance.now();
        if (build && !build.ok) {
          b = failedBenchmark(p, `build failed: ${build.reason}`);
        } else {
          const rt = resolved.get(p.runtime);
          const baseScope = { ...p.experiment.manifest.profiles[opts.profile].constants, ...p.params, ...p.derived };
          const input = await ensureInput(p.experiment, generatorArgs(p.experiment, baseScope), cacheDir, log);
          const scratch = join(cacheDir, 'scratch', p.experiment.id, p.variant.id);
          rmSync(scratch, { recursive: true, force: true });
          mkdirSync(scratch, { recursive: true });
          if (input.ok) for (const [k, v] of Object.entries(input.facts)) if (typeof v === 'number') p.derived[`input_${k}`] = v;
          const scope = {
            ...baseScope,
            ...(input.ok ? inputScope(input) : {}),
            scratch,
            dir: p.experiment.dir,
            ...(p.variant.source ? { src: join(p.experiment.dir, p.variant.source) } : {}),
            ...(build?.ok ? { bin: build.artifact } : {}),
            ...(rt?.ok ? { [p.runtime.split('@')[0] ?? p.runtime]: rt.path } : {}),
          };
          if (!input.ok) {
            b = failedBenchmark(p, input.reason);
          } else {
            const measure = p.experiment.manifest.runner === 'self' ? measureSelfReported : measurePoint;
            const m = await measure(p, scope, tools);
            measuredSeconds += m.measuredSeconds;
            if (interrupted) break; // the point in flight was killed: it has no honest result
            b = measuredBenchmark(p, m, build);
            if (opts.profileCpu && b.status === 'ok' && p.variant.runtime === 'node') {
              const prof = await profilePoint(p, scope, tools, outDir);
              log('files' in prof ? `cpu profile: ${prof.files.join(', ')}` : `cpu profile of ${p.id} not saved: ${prof.reason}`);
            }
          }
          rmSync(scratch, { recursive: true, force: true });
        }
        progress.finish((performance.now() - t) / 1000, b.status === 'ok' ? 'ok' : `${b.status}: ${b.reason}`);
      }
      results.benchmarks.push(b);
      save();
    }
    progress.end();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  results.run.partial = interrupted;
  results.run.end = new Date().toISOString();
  results.run.timing = { totalSeconds: (performance.now() - t0) / 1000, measuredSeconds };
  const analyses = runAnalyses(experiments, results.benchmarks);
  if (analyses.length) results.analyses = analyses;
  save();
  const summary = renderSummary(results, experiments);
  writeFileAtomic(join(outDir, 'summary.md'), summary);
  const gab = toGab(results.benchmarks, experiments);
  for (const dir of ['smaller', 'bigger'] as const) writeFileAtomic(join(outDir, 'gab', GAB_FILES[dir]), `${JSON.stringify(gab[dir], null, 1)}\n`);

  let sitePath: string | undefined;
  if (interrupted) {
    log('interrupted: the local history was not touched (a partial run is never published)');
  } else if (opts.storeDir) {
    await publishRun(opts.storeDir, results);
    if (opts.buildSite) sitePath = await opts.buildSite(opts.storeDir);
  }
  return { results, outDir, summary, interrupted, ...(sitePath ? { sitePath } : {}) };
}

export type { Experiment };
