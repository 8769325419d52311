/**
 * Removing one run (a commit's run of one profile) from a store: a run that should never have
 * been published (measured with a wrong setting, on a broken build) leaves the history. Under the
 * store's lock, every file that names the run is rewritten without it, all staged before any is
 * replaced; the run file is deleted last, once nothing names it. The site rebuilt afterwards no
 * longer shows it (it copies the store).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  commitOrder,
  decodePrograms,
  decodeRuns,
  encodePrograms,
  encodeRuns,
  paths,
  sameFacts,
} from '../formats/parts/store-layout.js';
import { CatalogFile, CommitsFile, IndexFile, MachinesFile, ShardFile } from '../formats/trend-store-format.js';
import { withLock } from '../lib/atomic.js';
import { UserError } from '../lib/errors.js';
import { assertRealInside } from '../lib/fs-safety.js';
import { assertSegment } from '../lib/ids.js';
import { readStoreFile, runFileOf, writeInside } from './store-files.js';

export interface RemoveRequest {
  /** A commit sha, or an unambiguous prefix of one (at least 7 characters). */
  commit: string;
  profile?: string;
  machine?: string;
}

const json = (v: unknown) => `${JSON.stringify(v)}\n`;

/** A shard without `sha`'s column; series left with no value are dropped. */
export function dropColumn(shard: ShardFile, sha: string): ShardFile {
  const col = shard.commits.indexOf(sha);
  if (col < 0) return shard;
  const series: ShardFile['series'] = {};
  const without = <T>(xs: readonly T[]) => xs.filter((_, i) => i !== col);
  for (const [key, { counts, ...s }] of Object.entries(shard.series)) {
    const values = without(s.values);
    if (values.every((v) => v === null)) continue;
    const facts = counts ? without(decodeRuns(counts, shard.commits.length)) : [];
    series[key] = {
      ...s,
      values,
      ranges: without(s.ranges),
      programs: encodePrograms(without(decodePrograms(s.programs, shard.commits.length))),
      ...(facts.some((f) => f !== null) ? { counts: encodeRuns(facts, sameFacts) } : {}),
    };
  }
  return { ...shard, commits: shard.commits.filter((c) => c !== sha), series };
}

function pickOne(kind: string, asked: string | undefined, have: readonly string[], flag: string): string {
  if (asked !== undefined) {
    if (!have.includes(asked))
      throw new UserError(`${flag} ${asked}: no such ${kind}; the store has ${have.join(', ') || 'none'}`);
    return asked;
  }
  if (have.length === 1) return have[0]!;
  throw new UserError(`the store has ${have.length} ${kind}s (${have.join(', ') || 'none'}): choose one with ${flag}`);
}

/** Removes the run; returns what was removed. */
export function removeRun(
  root: string,
  req: RemoveRequest,
): Promise<{ machine: string; sha: string; profile: string; commitGone: boolean }> {
  if (!/^[0-9a-f]{7,40}$/.test(req.commit))
    throw new UserError(`--remove ${req.commit}: expected a commit sha (7 to 40 hex digits)`);
  return withLock(join(root, '.lock'), () => {
    const machinesPath = join(root, paths.machines());
    const machines = readStoreFile(root, machinesPath, MachinesFile);
    if (!machines) throw new UserError(`${root}: not a store (no machines.json)`);
    const machine = assertSegment(
      '--machine',
      pickOne('machine', req.machine, Object.keys(machines.machines).sort(), '--machine'),
    );
    const indexPath = join(root, paths.index(machine));
    const index = readStoreFile(root, indexPath, IndexFile);
    const matches = index?.commits.filter((c) => c.sha.startsWith(req.commit)) ?? [];
    if (matches.length !== 1)
      throw new UserError(
        `--remove ${req.commit}: ${matches.length ? `${matches.length} commits of ${machine} start so; give more digits` : `no run of that commit for machine ${machine}`}`,
      );
    const commit = matches[0]!;
    const profile = pickOne('profile', req.profile, Object.keys(commit.runs).sort(), '--profile');
    const entry = commit.runs[profile]!;
    const runFile = runFileOf(root, indexPath, machine, commit.sha, profile, entry.file);
    const catalogPath = join(root, paths.catalog(machine, profile));
    const catalog = readStoreFile(root, catalogPath, CatalogFile);
    const files: { file: string; data: string }[] = [];
    if (catalog) {
      const ordinal = catalog.windows.findIndex((w) => w.id === entry.window);
      const commitsPath = join(root, paths.commits(machine, profile, entry.window));
      const commits = readStoreFile(root, commitsPath, CommitsFile);
      if (commits) {
        commits.commits = commits.commits.filter((c) => c.sha !== commit.sha);
        files.push({ file: commitsPath, data: json(commits) });
        const w = catalog.windows[ordinal];
        if (w) {
          w.commits = commits.commits.length;
          const sorted = [...commits.commits].sort(commitOrder);
          if (sorted.length) {
            w.first = { date: sorted[0]!.date, sha: sorted[0]!.sha };
            w.last = { date: sorted.at(-1)!.date, sha: sorted.at(-1)!.sha };
          }
        }
      }
      for (const [experiment, e] of Object.entries(catalog.experiments)) {
        for (const metric of Object.keys(e.metrics)) {
          const path = join(root, paths.shard(machine, profile, entry.window, experiment, metric));
          const shard = readStoreFile(root, path, ShardFile);
          if (shard?.commits.includes(commit.sha))
            files.push({ file: path, data: json(dropColumn(shard, commit.sha)) });
        }
        if (e.latest.sha === commit.sha) {
          const newest = newestWith(root, machine, profile, catalog, experiment, commit.sha);
          if (newest) e.latest = newest;
          else delete catalog.experiments[experiment];
        }
      }
      files.push({ file: catalogPath, data: json(catalog) });
    }
    delete commit.runs[profile];
    const commitGone = Object.keys(commit.runs).length === 0;
    if (commitGone) index!.commits = index!.commits.filter((c) => c.sha !== commit.sha);
    files.push({ file: indexPath, data: json(index) });
    const m = machines.machines[machine]!;
    m.commits = index!.commits.length;
    const left = index!.commits.filter((c) => c.runs[profile]).length;
    if (left) m.profiles[profile] = { commits: left, lastRun: m.profiles[profile]?.lastRun ?? '' };
    else delete m.profiles[profile];
    if (!m.commits) delete machines.machines[machine];
    files.push({ file: machinesPath, data: json(machines) });
    writeInside(root, files);
    // Nothing names the run file any more: it goes last.
    if (existsSync(runFile)) {
      assertRealInside(root, runFile);
      rmSync(runFile);
    }
    return { machine, sha: commit.sha, profile, commitGone };
  });
}

/** The newest commit of the profile, other than `without`, whose run has the experiment. */
function newestWith(
  root: string,
  machine: string,
  profile: string,
  catalog: CatalogFile,
  experiment: string,
  without: string,
): { date: string; sha: string } | undefined {
  for (const w of [...catalog.windows].reverse()) {
    const file = readStoreFile(root, join(root, paths.commits(machine, profile, w.id)), CommitsFile);
    const hit = [...(file?.commits ?? [])]
      .sort(commitOrder)
      .reverse()
      .find((c) => c.sha !== without && c.experiments.includes(experiment));
    if (hit) return { date: hit.date, sha: hit.sha };
  }
  return undefined;
}
