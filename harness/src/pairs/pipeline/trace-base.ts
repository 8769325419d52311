/**
 * The trusted plan's trace of the base: one point per experiment, variant and runtime (the
 * smallest, which runs the same files as the larger ones) set up, built and run once under a file
 * trace in its sandbox, with the base's own programs only (the head is data: none of its code
 * runs here). Every point of the group takes its representative's trace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setUpMachine } from '../../pipeline/setup.js';
import type { Point } from '../../plan/plan.js';
import { type TraceOutcome, traceJob } from '../../run/trace-files.js';
import { type LoadedSide, prepareSide } from './diff-sides.js';

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

export interface BaseTraces {
  /** Each base point's trace (its representative's), or why there is none. */
  byPoint: Map<string, TraceOutcome>;
  /** How many points ran under the trace. */
  traced: number;
  seconds: number;
}

/**
 * Sets up, builds and traces the base's representative points; `harnessRoot` is the harness that
 * runs (its C tools; the scratch of its folder in the harness's cache). Where the set-up fails (no sandbox can start, hyperfine missing), every point is
 * "not traced" with the reason and the plan goes on with its static identities: a plan that
 * cannot be made fails the merge check, a trace that cannot be made only says so.
 */
export async function traceBase(base: LoadedSide, harnessRoot: string, log: (m: string) => void): Promise<BaseTraces> {
  const start = performance.now();
  try {
    return await traceRepresentatives(base, harnessRoot, log, start);
  } catch (e) {
    const reason = `not traced: ${(e as Error).message}`.slice(0, 600);
    log(`trace: none (${reason})`);
    const byPoint = new Map(base.points.map((p) => [p.id, { ok: false as const, reason, seconds: 0 }]));
    return { byPoint, traced: 0, seconds: (performance.now() - start) / 1000 };
  }
}

async function traceRepresentatives(
  base: LoadedSide,
  harnessRoot: string,
  log: (m: string) => void,
  start: number,
): Promise<BaseTraces> {
  const repOf = representatives(base.points);
  const host = await setUpMachine({}, log);
  const side = await prepareSide(base, harnessRoot, 'base', { require: [] }, host, log, new Set(repOf.values()));
  const byRep = new Map<string, TraceOutcome>();
  for (const job of side.jobs) {
    const build = job.build ? side.builds.get(job.build.key) : undefined;
    if (job.blocked || (build && !build.ok)) {
      const why = job.blocked?.reason ?? (build && !build.ok ? `build failed: ${build.reason}` : '');
      byRep.set(job.id, { ok: false, reason: `not traced: ${why}`, seconds: 0 });
      continue;
    }
    const work = mkdtempSync(join(tmpdir(), 'jsio-trace-'));
    try {
      byRep.set(job.id, await traceJob(job, host.tools, work));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const byPoint = new Map<string, TraceOutcome>();
  for (const [id, rep] of repOf)
    byPoint.set(id, byRep.get(rep) ?? { ok: false, reason: 'not traced: the point was not planned', seconds: 0 });
  const seconds = (performance.now() - start) / 1000;
  const running = [...byRep.values()].reduce((a, t) => a + (t.ok ? t.trace.seconds : t.seconds), 0);
  log(
    `trace: ${byRep.size} base point(s) traced for ${repOf.size} in ${seconds.toFixed(1)} s (${running.toFixed(1)} s of traced runs, the rest setting up and building)`,
  );
  return { byPoint, traced: byRep.size, seconds };
}
