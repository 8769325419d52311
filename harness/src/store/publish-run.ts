/**
 * The trend store's writer (layout: formats/parts/store-layout.ts; schemas: formats/trend-store-format.ts). Publishing a
 * run is idempotent, locked against concurrent publishers, all or nothing on disk, and merges
 * into what a commit already has for the same profile; runs of other profiles are kept apart.
 * Reading and writing files: ./store-files.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { commitOrder, paths } from '../formats/parts/store-layout.js';
import type { Results } from '../formats/results-format.js';
import {
  CatalogFile,
  type CommitEntry,
  CommitsFile,
  IndexFile,
  MachinesFile,
  type RunEntry,
  ShardFile,
  STORE_SCHEMA,
} from '../formats/trend-store-format.js';
import { withLock } from '../lib/atomic.js';
import { UserError } from '../lib/errors.js';
import { assertSegment } from '../lib/ids.js';
import { mergeResults } from './merge.js';
import {
  checkIdentifiers,
  HINT,
  json,
  readStoredRun,
  readStoreFile,
  runFileOf,
  type StagedFile,
  writeInside,
} from './store-files.js';
import { projectColumn, trended } from './trend-columns.js';
import { placeInWindow } from './windows.js';

function countsOf(r: Results): RunEntry['counts'] {
  const counts = { ok: 0, skipped: 0, failed: 0 };
  for (const b of r.benchmarks) counts[b.status]++;
  return counts;
}

const experimentsOf = (r: Results) => [...new Set(r.benchmarks.map((b) => b.experiment))].sort();

/** A run being published: what every step below writes from. */
interface Publication {
  root: string;
  results: Results;
  /** The run merged into what the commit already had for this profile: what is stored. */
  merged: Results;
  /** The run file's path inside the machine's folder. */
  runFile: string;
  moment: { date: string; sha: string };
  counts: RunEntry['counts'];
  experiments: string[];
}

/**
 * Publishes one run into the store. A commit keeps one run per profile: publishing into a commit
 * and profile that already has one merges (benchmarks replaced by id, every other kept, see
 * merge.ts); another profile's run of the same commit is never touched. Idempotent; locked
 * against concurrent publishers; every file staged before any is replaced.
 * `replaced` is true when the commit already had a run of this profile (the new one was merged in).
 */
export async function publishRun(
  root: string,
  results: Results,
): Promise<{ machineDir: string; replaced: boolean; profile: string; window: string }> {
  checkIdentifiers(results);
  const machine = results.run.machine;
  const profile = results.run.profile;
  const sha = results.run.commit.sha;
  const machineDir = join(root, machine.id);
  return withLock(join(root, '.lock'), () => {
    // Read (and so validate) everything before writing anything.
    const { machinesPath, indexPath, catalogPath, machines, index, catalog } = readStore(root, results);
    const stored = index.commits.find((c) => c.sha === sha);
    const prevEntry = stored?.runs[profile];
    const runFile = `runs/${sha}/${profile}.json`;
    const prevFile = prevEntry && runFileOf(root, indexPath, machine.id, sha, profile, prevEntry.file);
    if (prevFile && !existsSync(prevFile))
      throw new UserError(`refusing to touch the store: ${indexPath} lists ${prevFile}, which does not exist`, HINT);
    const merged = mergeResults(prevFile ? readStoredRun(root, prevFile) : undefined, results);
    const p: Publication = {
      root,
      results,
      merged,
      runFile,
      moment: { date: results.run.commit.date, sha },
      counts: countsOf(merged),
      experiments: experimentsOf(merged),
    };
    const window = windowOf(catalog, prevEntry, p.moment);
    const { commitsPath, commitsFile, rank } = listInWindow(p, window);
    const shards = projectShards(p, catalog, window, rank);
    indexRun(p, index, stored, window);
    countRuns(p, machines, index);
    // Everything is staged before anything is replaced (a full disk changes nothing), then
    // renamed in this order: the run file first, so nothing ever names a file that does not exist.
    writeInside(root, [
      { file: join(machineDir, runFile), data: json(merged) },
      ...shards,
      { file: commitsPath, data: json(commitsFile) },
      { file: catalogPath, data: json(catalog) },
      { file: indexPath, data: json(index) },
      { file: machinesPath, data: json(machines) },
    ]);
    return { machineDir, replaced: Boolean(prevEntry), profile, window };
  });
}

/** The machines file, the machine's index and the profile's catalog, or empty ones for a new store. */
function readStore(root: string, results: Results) {
  const machine = results.run.machine;
  const profile = results.run.profile;
  const machinesPath = join(root, paths.machines());
  const indexPath = join(root, paths.index(machine.id));
  const catalogPath = join(root, paths.catalog(machine.id, profile));
  const machines = readStoreFile(root, machinesPath, MachinesFile) ?? {
    schema: STORE_SCHEMA,
    machines: {},
  };
  const index = readStoreFile(root, indexPath, IndexFile) ?? { schema: STORE_SCHEMA, machine, commits: [] };
  const catalog = readStoreFile(root, catalogPath, CatalogFile) ?? {
    schema: STORE_SCHEMA,
    machine: machine.id,
    profile,
    windows: [],
    experiments: {},
  };
  return { machinesPath, indexPath, catalogPath, machines, index, catalog };
}

/** The commit's trend window, kept once chosen; a new commit is placed (in `catalog.windows`). */
function windowOf(catalog: CatalogFile, prevEntry: RunEntry | undefined, moment: Publication['moment']): string {
  let window = prevEntry?.window;
  if (!window || !catalog.windows.some((w) => w.id === window)) {
    const placed = placeInWindow(catalog.windows, moment);
    catalog.windows = placed.windows;
    window = placed.id;
  }
  return window;
}

/** The window's commit list with this commit in it, and each commit's rank in that list. */
function listInWindow({ root, results, merged, runFile, counts, experiments }: Publication, window: string) {
  const { machine, profile } = results.run;
  const sha = results.run.commit.sha;
  const commitsPath = join(root, paths.commits(machine.id, profile, window));
  const commitsFile = readStoreFile(root, commitsPath, CommitsFile) ?? {
    schema: STORE_SCHEMA,
    profile,
    window,
    commits: [],
  };
  const windowCommit = {
    sha,
    date: results.run.commit.date,
    subject: results.run.commit.subject,
    ref: results.run.commit.ref,
    runId: merged.run.id,
    file: runFile,
    counts,
    experiments,
  };
  commitsFile.commits = [...commitsFile.commits.filter((c) => c.sha !== sha), windowCommit].sort(commitOrder);
  const rankOf = new Map(commitsFile.commits.map((c, i) => [c.sha, i]));
  const rank = (s: string) => rankOf.get(s) ?? Number.MAX_SAFE_INTEGER;
  return { commitsPath, commitsFile, rank };
}

/**
 * Every metric of every experiment this run measured: its column for this commit, from the
 * merged run, staged as the window's shards; the catalog's metrics and latest moments follow.
 */
function projectShards(
  { root, results, merged, moment }: Publication,
  catalog: CatalogFile,
  window: string,
  rank: (sha: string) => number,
): StagedFile[] {
  const { machine, profile } = results.run;
  const sha = results.run.commit.sha;
  const ordinal = catalog.windows.findIndex((w) => w.id === window);
  const shards: StagedFile[] = [];
  for (const experiment of [...new Set(results.benchmarks.map((b) => b.experiment))].sort()) {
    const mine = merged.benchmarks.filter((b) => b.experiment === experiment);
    const entry = catalog.experiments[experiment];
    const inWindow = Object.entries(entry?.metrics ?? {})
      .filter(([, m]) => m.windows[0] <= ordinal && ordinal <= m.windows[1])
      .map(([name]) => name);
    const measured = mine.flatMap((b) => (b.status === 'ok' ? Object.keys(b.metrics).filter(trended) : []));
    const metrics = { ...(entry?.metrics ?? {}) };
    for (const metric of [...new Set([...inWindow, ...measured])].sort()) {
      assertSegment('metric', metric);
      const path = join(root, paths.shard(machine.id, profile, window, experiment, metric));
      const prev = readStoreFile(root, path, ShardFile);
      const shard = projectColumn(prev, { profile, window, experiment, metric }, sha, rank, mine);
      if (!prev && !Object.keys(shard.series).length) continue;
      shards.push({ file: path, data: json(shard) });
      const sample = mine.find((b) => b.status === 'ok' && b.metrics[metric])?.metrics[metric];
      const before = metrics[metric];
      metrics[metric] = {
        unit: sample?.unit ?? before!.unit,
        direction: sample?.direction ?? before!.direction,
        source: sample?.source ?? before!.source,
        windows: [Math.min(before?.windows[0] ?? ordinal, ordinal), Math.max(before?.windows[1] ?? ordinal, ordinal)],
      };
    }
    const has = mine.length > 0;
    const latest = entry?.latest;
    catalog.experiments[experiment] = {
      metrics,
      latest: has && (!latest || commitOrder(moment, latest) >= 0) ? moment : (latest ?? moment),
    };
  }
  return shards;
}

/** The index: the commit, and its run of this profile beside any other profile's. */
function indexRun(
  { results, merged, runFile, counts, experiments }: Publication,
  index: IndexFile,
  stored: CommitEntry | undefined,
  window: string,
): void {
  const { machine, profile } = results.run;
  const sha = results.run.commit.sha;
  const prevEntry = stored?.runs[profile];
  const sources = [
    ...(prevEntry?.sources ?? []).filter((s) => s.runId !== results.run.id),
    { runId: results.run.id, end: results.run.end, benchmarks: results.benchmarks.length },
  ].slice(-20);
  const runEntry: RunEntry = {
    runId: merged.run.id,
    profile,
    partial: merged.run.partial,
    file: runFile,
    window,
    counts,
    experiments,
    sources,
  };
  const commit: CommitEntry = {
    sha,
    date: results.run.commit.date,
    subject: results.run.commit.subject,
    ref: results.run.commit.ref,
    runs: { ...(stored?.runs ?? {}), [profile]: runEntry },
  };
  index.commits = [...index.commits.filter((c) => c.sha !== sha), commit].sort(commitOrder);
  index.machine = machine;
}

/** The machines file: this machine's commits and runs per profile, counted from its index. */
function countRuns({ results }: Publication, machines: MachinesFile, index: IndexFile): void {
  const { machine, profile } = results.run;
  const before = machines.machines[machine.id];
  const profiles: Record<string, { commits: number; lastRun: string }> = {};
  for (const c of index.commits)
    for (const p of Object.keys(c.runs))
      profiles[p] = { commits: (profiles[p]?.commits ?? 0) + 1, lastRun: before?.profiles[p]?.lastRun ?? '' };
  profiles[profile]!.lastRun = results.run.end;
  machines.machines[machine.id] = {
    machine,
    lastRun: results.run.end,
    commits: index.commits.length,
    profiles,
  };
}

/**
 * Stores a machine's calibrated noise thresholds as <root>/<machine>/noise.json (read by compare
 * --noise-store and the site). The machine id becomes a directory name, so it must be one.
 */
export function publishNoise(root: string, noise: { machine: string }): string {
  const file = join(root, assertSegment('noise machine', noise.machine), 'noise.json');
  writeInside(root, [{ file, data: `${JSON.stringify(noise)}\n` }]);
  return file;
}
