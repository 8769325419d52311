/**
 * A checkout's points traced: one point per experiment, variant and runtime (the smallest, which
 * runs the same files as the larger ones) set up, built and run once under a file trace in its
 * sandbox (run/trace-files.ts); every point of the group takes its representative's trace. A
 * point's trace is its generator's, its build's and its run's together: the generator and the
 * build ran under a trace when they were made (a cached input keeps its trace beside it, a build
 * of bench's own run keeps it with the result), and one made without a trace is made again. What
 * the trusted plan does to the base (pairs/diff/trace-base.ts) and `bench --trace-profiles`
 * does to the commit it measured (./bench-traces.ts), by one code path, so a trace main stored is
 * the trace the plan would have made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoredTrace } from '../formats/trace-store-format.js';
import { cacheRoot, checkoutCache } from '../machine/cache-root.js';
import { type PointTrace, unionTraces } from '../machine/sandbox/traced-step.js';
import type { Job } from '../model/job.js';
import type { Point } from '../plan/plan.js';
import { type BuildResult, buildAll } from '../run/build.js';
import { type TraceOutcome, traceJob } from '../run/trace-files.js';
import { type Host, planCheckout } from './setup.js';

/** The sum of a point's derived sizes: the smaller, the cheaper its traced run. */
const sizeOf = (p: Point) => Object.values(p.derived).reduce((a, b) => a + b, 0);

/** Each point's representative (the smallest point of its experiment, variant and runtime; ties by id). Pure. */
export function representatives(points: readonly Point[]): Map<string, string> {
  const groups = new Map<string, Point[]>();
  for (const p of points) {
    const key = `${p.experiment.id}\0${p.variant.id}\0${p.runtime}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const out = new Map<string, string>();
  for (const group of groups.values()) {
    const rep = [...group].sort((a, b) => sizeOf(a) - sizeOf(b) || a.id.localeCompare(b.id))[0]!;
    for (const p of group) out.set(p.id, rep.id);
  }
  return out;
}

export interface PointTraces {
  /** Each point's trace (its representative's), or why there is none. */
  byPoint: Map<string, TraceOutcome>;
  /** How many points ran under the trace. */
  traced: number;
  seconds: number;
}

export interface TracePointsOptions {
  /** The checkout whose points run (its programs, builds and pins). */
  root: string;
  /** The checkout whose harness runs: it builds the evictor, and its folder of the harness's cache holds the scratch. */
  harnessRoot: string;
  /** Programs from another folder than the checkout's (`bench --programs`). */
  programsDir?: string;
  /** The cache of runtimes, inputs and builds, when not the harness's (machine/cache-root.ts): `bench`'s given one. */
  cacheDir?: string;
  /** What the log calls the points ("base", "quick"). */
  label: string;
  /**
   * Builds already made in the same sandbox and cache (bench's, by build key): taken as they are,
   * with the traces they kept.
   */
  builds?: ReadonlyMap<string, BuildResult>;
}

/**
 * Sets up, builds and traces the points' representatives. Throws where the set-up fails (no
 * sandbox can start): the caller says what a missing trace means for it.
 */
export async function tracePoints(
  points: readonly Point[],
  host: Host,
  o: TracePointsOptions,
  log: (m: string) => void,
): Promise<PointTraces> {
  const start = performance.now();
  const repOf = representatives(points);
  const reps = new Set(repOf.values());
  // bench's folders: the cache given, else the harness's, with the checkout's builds and scratch in its own folder there.
  const cacheDir = o.cacheDir ?? cacheRoot();
  const { jobs, inputTraces } = await planCheckout(
    points.filter((p) => reps.has(p.id)),
    host,
    {
      root: o.root,
      cacheDir,
      evictorRoot: o.harnessRoot,
      jobCacheDir: o.cacheDir ?? checkoutCache(o.root),
      scratchDir: join(o.cacheDir ?? checkoutCache(o.harnessRoot), 'scratch'),
      require: [],
      // The paths must be the side's fixed ones, whichever checkout it is.
      sandbox: 'required',
      // The generators run under the trace too; a cached input without its trace is made again.
      traceInputs: true,
      ...(o.programsDir ? { programsDir: o.programsDir } : {}),
    },
    log,
  );
  log(`${o.label}: ${jobs.length} benchmarks planned in ${o.root}`);
  const builds = await tracedBuilds(jobs, o.builds, host.tools.strace, (m) => log(`${o.label}: ${m}`));
  const byRep = new Map<string, TraceOutcome>();
  // The traced runs' own time: a point's whole trace also carries its build's and generator's, made before.
  let running = 0;
  for (const job of jobs) {
    const build = job.build ? builds.get(job.build.key) : undefined;
    if (job.blocked || (build && !build.ok)) {
      const why = job.blocked?.reason ?? (build && !build.ok ? `build failed: ${build.reason}` : '');
      byRep.set(job.id, { ok: false, reason: `not traced: ${why}`, seconds: 0 });
      continue;
    }
    const work = mkdtempSync(join(tmpdir(), 'jsio-trace-'));
    try {
      const run = await traceJob(job, host.tools, work);
      running += run.ok ? run.trace.seconds : run.seconds;
      byRep.set(job.id, run.ok ? { ok: true, trace: wholeTrace(job, inputTraces.get(job.id), build, run.trace) } : run);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const byPoint = new Map<string, TraceOutcome>();
  for (const [id, rep] of repOf)
    byPoint.set(id, byRep.get(rep) ?? { ok: false, reason: 'not traced: the point was not planned', seconds: 0 });
  const seconds = (performance.now() - start) / 1000;
  log(
    `trace: ${byRep.size} ${o.label} point(s) traced for ${repOf.size} in ${seconds.toFixed(1)} s (${running.toFixed(1)} s of traced runs, the rest setting up and building)`,
  );
  return { byPoint, traced: byRep.size, seconds };
}

/**
 * The builds the traced points need: those given (bench's, made in the same sandbox and cache)
 * where they kept their trace, the others made here under one. A given build without a trace is
 * made again under one in a staging folder, for its trace: its entry keeps the artifact it holds
 * (run/build-entry.ts), which the counting stage after the trace pass digests.
 */
async function tracedBuilds(
  jobs: readonly Job[],
  given: ReadonlyMap<string, BuildResult> | undefined,
  strace: string | undefined,
  log: (m: string) => void,
): Promise<Map<string, BuildResult>> {
  const made = new Map([...(given ?? [])].filter(([, b]) => !b.ok || b.trace));
  const untraced = [...(given?.keys() ?? [])].filter((k) => !made.has(k));
  if (untraced.length) log(`${untraced.length} build(s) made without a trace: made again under one`);
  const rest = jobs.filter((j) => !(j.build && made.has(j.build.key)));
  return new Map([...made, ...(await buildAll(rest, log, strace))]);
}

/**
 * A point's whole trace: its generator's, its build's and its run's. A generator or build that
 * ran without a trace leaves the point not fully traced, saying which.
 */
function wholeTrace(job: Job, input: PointTrace | undefined, build: BuildResult | undefined, run: PointTrace) {
  const parts = [...(input ? [input] : []), ...(build?.ok && build.trace ? [build.trace] : []), run];
  const missing = [
    ...(job.experiment.manifest.generate && !input ? ['its input generator'] : []),
    ...(build?.ok && !build.trace ? ['its build'] : []),
  ];
  const whole = unionTraces(parts);
  return missing.length && !whole.notFullyTraced
    ? { ...whole, notFullyTraced: `${missing.join(' and ')} ran without a trace` }
    : whole;
}

/** A trace as the store keeps it. */
export function storedTraceOf(t: Extract<TraceOutcome, { ok: true }>['trace'], at: Date): StoredTrace {
  return {
    paths: t.paths,
    listed: t.listed,
    ...(t.notFullyTraced ? { notFullyTraced: t.notFullyTraced.slice(0, 1000) } : {}),
    refusedWrites: t.refusedWrites.slice(0, 1000),
    traced: at.toISOString(),
  };
}

/** A stored trace as a trace made here (it took no time here). */
export function outcomeOfStored(t: StoredTrace): TraceOutcome {
  return {
    ok: true,
    trace: {
      paths: t.paths,
      listed: t.listed,
      ...(t.notFullyTraced ? { notFullyTraced: t.notFullyTraced } : {}),
      refusedWrites: t.refusedWrites,
      seconds: 0,
    },
  };
}
