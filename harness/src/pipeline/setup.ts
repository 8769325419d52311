/**
 * The set-up stage both pipelines share (`bench` for one checkout, `pairs` for two): this
 * machine's tools and CPUs, every point's runtimes, inputs and evictor, the jobs planned from
 * them, the toolchains line of the results, and the stop on SIGINT/SIGTERM.
 *
 *   set up the machine -> resolve runtimes -> prepare inputs (and the evictor) -> plan jobs
 *
 * Everything here can refuse the run (exit 2) before anything is measured.
 */
import { join } from 'node:path';
import { busyByOthers, isBusy } from '../analysis/busy.js';
import { UserError } from '../lib/errors.js';
import { killAllChildren, runProcess } from '../lib/exec.js';
import { noteOldCheckoutCaches } from '../machine/cache-root.js';
import { measureColdRead } from '../machine/cold-read.js';
import { cpuPlan, currentConditions } from '../machine/conditions.js';
import { sampleForeignCores } from '../machine/cpu-share.js';
import { machineInfo } from '../machine/machine.js';
import { refuseNpmConfig } from '../machine/sandbox/npm-config.js';
import { type OpenedSandbox, openSandbox, runpathOf } from '../machine/sandbox/open.js';
import { refuseTrackedHarnessFiles } from '../machine/sandbox/tracked.js';
import { type Homes, type Resolved, readPins, resolveRuntime, toolVersions } from '../machine/toolchains.js';
import { buildEvictor, findTools, type Tools } from '../machine/tools.js';
import type { Job } from '../model/job.js';
import type { Sandbox } from '../model/sandbox.js';
import { prepareInputs } from '../plan/inputs.js';
import { planJobs } from '../plan/jobs.js';
import type { Point } from '../plan/plan.js';

export interface Host {
  tools: Tools;
  machine: ReturnType<typeof machineInfo>;
  conditions: ReturnType<typeof currentConditions>;
  cpus?: { taskset: string; harness: string; measured: string; all: string };
}

let saidRandomLayout = false;

/** Finds the measuring tools and records the machine; moves the harness off the measured CPUs. */
export async function setUpMachine(opts: { strict?: boolean }, log: (m: string) => void): Promise<Host> {
  const tools = findTools();
  const machine = machineInfo();
  const cpus = cpuPlan(machine.cores);
  const conditions = {
    ...currentConditions(cpus && tools.taskset ? cpus : undefined),
    rssLayout: tools.setarch ? ('fixed' as const) : ('random' as const),
  };
  if (!tools.setarch && tools.gnuTime && !saidRandomLayout) {
    // Once per process: a release sweep or a harness shift sets up a bench per release or round.
    saidRandomLayout = true;
    log(
      'note: max RSS is read with a random address-space layout (setarch -R is missing or not permitted here): it moves by a few % from run to run',
    );
  }
  // The load average lags a minute and counts this user's previous run too (every release of a
  // sweep would warn): when it says busy, a short sample of /proc says whether others are busy now.
  const others = isBusy(conditions, machine.cores) ? await sampleForeignCores() : 0;
  if (others === undefined || busyByOthers(others, machine.cores)) {
    const now = others === undefined ? '' : `; other processes use ${others.toFixed(2)} cores now`;
    const msg = `the machine is busy (load average ${conditions.loadAverage[0].toFixed(2)} on ${machine.cores} cores${now}): timings will be noisy`;
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
async function resolveRuntimes(
  points: readonly Point[],
  opts: { root: string; homes: Homes },
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
  for (const name of names)
    out.set(name, await resolveRuntime(name, pins, join(cacheDir, 'runtimes'), log, opts.homes));
  return out;
}

/**
 * What points need, once their runtimes are resolved, before they can be planned into jobs: their
 * generated inputs (for points whose runtime resolved; in the side's sandbox when it has one) and,
 * when a point may run cold, the page-cache evictor built from `evictorRoot`'s harness/tools.
 */
async function preparePoints(
  points: readonly Point[],
  runtimes: ReadonlyMap<string, Resolved>,
  o: { evictorRoot: string; cacheDir: string; sandbox?: Sandbox | undefined; strace?: string | undefined },
  log: (m: string) => void,
) {
  const inputs = await prepareInputs(
    points.filter((p) => runtimes.get(p.runtime)?.ok),
    o.cacheDir,
    log,
    o.sandbox,
    o.strace,
  );
  const gcc = runtimes.get('gcc');
  const cold = points.some((p) => p.experiment.manifest.evict) && gcc?.ok;
  const evictTool = cold ? await buildEvictor(gcc.path, o.evictorRoot, o.cacheDir, log) : undefined;
  // What "cold" costs here, beside the cold-cache answers: measured on the inputs' disk.
  const coldRead = evictTool && gcc?.ok ? await measureColdRead(gcc.path, o.evictorRoot, o.cacheDir, log) : undefined;
  return { inputs, evictTool, ...(coldRead ? { coldRead } : {}) };
}

/** The toolchains line of a run: the tools' versions and every runtime the points resolved. */
function toolchainsOf(runtimes: ReadonlyMap<string, Resolved>): Record<string, string> {
  const toolchains = toolVersions();
  for (const [name, r] of runtimes) if (r.ok && name !== 'gcc' && r.version !== 'system') toolchains[name] = r.version;
  return toolchains;
}

export interface CheckoutPlan {
  /** The checkout whose programs and pins are planned. */
  root: string;
  /** Where runtimes, generated inputs and the C tools are cached (the harness's, outside the checkouts: both sides share it). */
  cacheDir: string;
  /** The checkout whose harness/tools builds the evictor. */
  evictorRoot: string;
  /** The checkout's own folder there (builds, bench's scratch); defaults to cacheDir. */
  jobCacheDir?: string;
  /** One scratch directory for every job (the paired diff: both sides write one file by one path). */
  scratchDir?: string;
  require: string[];
  /** Another folder of programs than the checkout's (`--programs`). */
  programsDir?: string;
  /**
   * Whether its processes run sandboxed: `required` (the paired diff refuses where bubblewrap
   * cannot start), `preferred` (`bench` measures without and says so), `off`.
   */
  sandbox: 'required' | 'preferred' | 'off';
  /**
   * The checkout's own just(js) installation (its JUST_HOME and JUST_TARGET), when it is not the
   * environment's: the paired diff of a pin bump runs each side's pinned release.
   */
  justHome?: string;
  runs?: number;
  variantRuns?: Readonly<Record<string, number>>;
  /**
   * Run the input generators under a file trace (in the sandbox, with the host's strace): the
   * trace pass's, and bench's when it will trace (so the pass finds its inputs' traces cached).
   */
  traceInputs?: boolean;
}

/** Runtimes, inputs and evictor for the points, then their jobs: the stage after "plan points". */
export async function planCheckout(points: readonly Point[], host: Host, o: CheckoutPlan, log: (m: string) => void) {
  refuseTrackedHarnessFiles(o.root);
  refuseNpmConfig(o.root);
  noteOldCheckoutCaches(o.root, log);
  const runtimes = await resolveRuntimes(
    points,
    { root: o.root, homes: o.justHome ? { JUST_HOME: o.justHome } : {} },
    o.cacheDir,
    log,
  );
  // Opened before the inputs are generated: the generators run in it too.
  const sandbox = sideSandbox(o, host, runtimes, log);
  const { inputs, evictTool, coldRead } = await preparePoints(
    points,
    runtimes,
    {
      evictorRoot: o.evictorRoot,
      cacheDir: o.cacheDir,
      sandbox: sandbox.ok ? sandbox.sandbox : undefined,
      strace: o.traceInputs ? host.tools.strace : undefined,
    },
    log,
  );
  const jobs: Job[] = planJobs(points, {
    ...(sandbox.ok ? { sandbox: sandbox.sandbox } : {}),
    runtimes,
    inputs,
    cacheDir: o.jobCacheDir ?? o.cacheDir,
    // Builds are keyed by content in the cache every checkout shares.
    buildsDir: join(o.cacheDir, 'builds'),
    require: o.require,
    ...(o.scratchDir ? { scratchDir: o.scratchDir } : {}),
    ...(host.cpus ? { cpus: host.cpus } : {}),
    ...(evictTool ? { evictTool } : {}),
    ...(o.runs ? { runs: o.runs } : {}),
    ...(o.variantRuns ? { variantRuns: o.variantRuns } : {}),
  });
  // What each point's generator touched, where it ran under a file trace.
  const inputTraces = new Map([...inputs].flatMap(([id, r]) => (r.ok && r.trace ? [[id, r.trace] as const] : [])));
  return {
    jobs,
    inputTraces,
    toolchains: toolchainsOf(runtimes),
    sandbox: sandbox.ok ? ('bubblewrap' as const) : sandbox.reason,
    ...(coldRead ? { coldRead } : {}),
  };
}

/**
 * The checkout's sandbox (machine/sandbox/open.ts): its tree, caches and scratch at the fixed
 * paths, the tools it runs that live outside the system's folders beside them. Refuses the run
 * when required and it cannot start; otherwise says the run measures without one.
 */
function sideSandbox(
  o: CheckoutPlan,
  host: Host,
  runtimes: ReadonlyMap<string, Resolved>,
  log: (m: string) => void,
): OpenedSandbox {
  if (o.sandbox === 'off') return { ok: false, reason: 'switched off', hint: '' };
  // The harness's own node runs the input generators.
  const toolPaths = [
    process.execPath,
    ...Object.values(host.tools),
    ...[...runtimes.values()].flatMap((r) => (r.ok ? [r.path] : [])),
  ].filter((p): p is string => typeof p === 'string');
  const opened = openSandbox({
    root: o.root,
    cacheDir: o.cacheDir,
    scratchDir: o.scratchDir ?? join(o.jobCacheDir ?? o.cacheDir, 'scratch'),
    ...(o.programsDir ? { programsDir: o.programsDir } : {}),
    ...justFolders(o.justHome),
    toolPaths,
    libraryDirs: [...new Set(toolPaths.flatMap(runpathOf))],
  });
  if (opened.ok) return opened;
  if (o.sandbox === 'required') throw new UserError(`no sandbox for ${o.root}: ${opened.reason}`, opened.hint);
  log(`warning: measuring without a sandbox: ${opened.reason} (${opened.hint})`);
  return opened;
}

/** just(js)'s folders for the sandbox: the side's own installation (both), or the environment's. */
function justFolders(home: string | undefined): { justHome?: string; justTarget?: string } {
  if (home) return { justHome: home, justTarget: home };
  const { JUST_HOME, JUST_TARGET } = process.env;
  return { ...(JUST_HOME ? { justHome: JUST_HOME } : {}), ...(JUST_TARGET ? { justTarget: JUST_TARGET } : {}) };
}

/** A stop on SIGINT/SIGTERM: kills the running processes, and the pipeline ends at its next check. */
export interface Interrupt {
  readonly interrupted: boolean;
  /** Removes the handlers (always, in a finally). */
  dispose(): void;
}

/** Listens for SIGINT/SIGTERM until disposed; `says` is what the log tells the user then. */
export function onInterrupt(log: (m: string) => void, says: string): Interrupt {
  const state = { interrupted: false };
  const onSignal = (sig: NodeJS.Signals) => {
    if (state.interrupted) return;
    state.interrupted = true;
    log(`\n${sig} received: ${says}`);
    killAllChildren('SIGKILL');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    get interrupted() {
      return state.interrupted;
    },
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
