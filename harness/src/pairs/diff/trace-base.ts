/**
 * The trusted plan's trace of the base: the traces main's runs stored for the base commit and the
 * plan's profile where the trend store has them (`--store`), and for the other points one point
 * per experiment, variant and runtime set up, built and run once under a file trace in its sandbox
 * (pipeline/trace-points.ts), with the base's own programs only (the head is data: none of its
 * code runs here).
 */
import { commitInfo } from '../../machine/machine.js';
import type { Profile } from '../../model/profiles.js';
import { setUpMachine } from '../../pipeline/setup.js';
import { outcomeOfStored, type PointTraces, tracePoints } from '../../pipeline/trace-points.js';
import type { TraceOutcome } from '../../run/trace-files.js';
import { storedTracesOf } from '../../store/trace-store.js';
import type { LoadedSide } from '../engine/diff-sides.js';

export interface BaseTraces extends PointTraces {
  /** How many points took a stored trace (none traced here). */
  fromStore: number;
}

/** The trend store to take the base commit's traces from, and the plan's profile. */
export interface TraceStore {
  dir: string;
  profile: Profile;
}

/**
 * Every base point's trace: stored where `store` has the base commit's for the profile, traced
 * here for the rest (`harnessRoot` is the harness that runs: its C tools, the scratch of its folder in
 * the harness's cache). Where the set-up fails (no
 * sandbox can start, hyperfine missing), every point left is "not traced" with the reason and the
 * plan goes on with its static identities: a plan that cannot be made fails the merge check, a
 * trace that cannot be made only says so. A malformed store file is an error.
 */
export async function traceBase(
  base: LoadedSide,
  harnessRoot: string,
  log: (m: string) => void,
  store?: TraceStore,
): Promise<BaseTraces> {
  const stored = store ? storedTracesOf(store.dir, commitInfo(base.root).sha, store.profile) : undefined;
  const fromStore = new Map<string, TraceOutcome>();
  for (const p of base.points) {
    const t = stored?.byPoint.get(p.id);
    if (t) fromStore.set(p.id, outcomeOfStored(t));
  }
  if (store)
    log(
      `trace: ${fromStore.size} of ${base.points.length} base point(s) from the store${stored?.files.length ? ` (${stored.files.join(', ')})` : ' (none stored for this commit and profile)'}`,
    );
  const missing = base.points.filter((p) => !fromStore.has(p.id));
  const traced = missing.length ? await traceHere({ ...base, points: missing }, harnessRoot, log) : undefined;
  return {
    byPoint: new Map([...fromStore, ...(traced?.byPoint ?? [])]),
    traced: traced?.traced ?? 0,
    seconds: traced?.seconds ?? 0,
    fromStore: fromStore.size,
  };
}

async function traceHere(base: LoadedSide, harnessRoot: string, log: (m: string) => void): Promise<PointTraces> {
  const start = performance.now();
  try {
    const host = await setUpMachine({}, log);
    return await tracePoints(base.points, host, { root: base.root, harnessRoot, label: 'base' }, log);
  } catch (e) {
    const reason = `not traced: ${(e as Error).message}`.slice(0, 600);
    log(`trace: none (${reason})`);
    const byPoint = new Map(base.points.map((p) => [p.id, { ok: false as const, reason, seconds: 0 }]));
    return { byPoint, traced: 0, seconds: (performance.now() - start) / 1000 };
  }
}
