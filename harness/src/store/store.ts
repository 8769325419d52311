import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { withLock, writeFilesAtomic } from '../lib/atomic.js';
import { assertRealInside } from '../lib/fs-safety.js';
import { assertParamName, assertParamValue, assertSegment, assertSha } from '../lib/ids.js';
import { readJsonFile } from '../lib/json-file.js';
import type { Results } from '../model/results.js';
import { type CommitEntry, IndexFile, MachinesFile, SeriesFile, STORE_SCHEMA } from '../model/store.js';
import { type MIGRATIONS, migrate } from './migrate.js';

/** Reads a store file, or undefined if absent; anything unreadable is refused, never replaced. */
export function readStoreFile<T>(file: string, schema: z.ZodType<T>, kind?: keyof typeof MIGRATIONS): T | undefined {
  if (!existsSync(file)) return undefined;
  return readJsonFile(file, schema, {
    version: STORE_SCHEMA,
    context: 'refusing to touch the store: ',
    hint: 'repair or remove the file by hand, or update the harness if it is newer',
    ...(kind ? { migrate: (raw: unknown) => migrate(kind, raw, STORE_SCHEMA) } : {}),
  });
}

const json = (v: unknown) => `${JSON.stringify(v)}\n`;

/** Metrics worth a trend line; the full syscall breakdown stays in the per-commit file. */
function trended(name: string): boolean {
  return !name.startsWith('syscalls.') || name === 'syscalls.total';
}

export function upsertSeries(
  prev: SeriesFile | undefined,
  experiment: string,
  commitOrder: readonly string[],
  results: Results,
): SeriesFile {
  const sha = results.run.commit.sha;
  const s: SeriesFile = prev ?? { schema: STORE_SCHEMA, experiment, commits: [], series: {} };
  let col = s.commits.indexOf(sha);
  if (col < 0) {
    // Insert in the index's date order so columns stay chronological.
    const rank = (c: string) => commitOrder.indexOf(c);
    col = s.commits.findIndex((c) => rank(c) > rank(sha));
    if (col < 0) col = s.commits.length;
    s.commits.splice(col, 0, sha);
    for (const entry of Object.values(s.series)) {
      entry.definitions.splice(col, 0, null);
      for (const m of Object.values(entry.metrics)) {
        m.values.splice(col, 0, null);
        m.ranges.splice(col, 0, null);
      }
    }
  } else {
    // Re-publishing a commit replaces its column entirely.
    for (const entry of Object.values(s.series)) {
      entry.definitions[col] = null;
      for (const m of Object.values(entry.metrics)) {
        m.values[col] = null;
        m.ranges[col] = null;
      }
    }
  }
  for (const b of results.benchmarks) {
    if (b.experiment !== experiment || b.status !== 'ok') continue;
    const entry = (s.series[b.id] ??= {
      variant: b.variant,
      params: b.params,
      definitions: s.commits.map(() => null),
      metrics: {},
    });
    entry.definitions[col] = b.definition ?? null;
    for (const [name, metric] of Object.entries(b.metrics)) {
      if (!trended(name)) continue;
      const m = (entry.metrics[name] ??= {
        unit: metric.unit,
        direction: metric.direction,
        values: s.commits.map(() => null),
        ranges: s.commits.map(() => null),
      });
      m.values[col] = metric.value;
      m.ranges[col] = metric.stats && metric.stats.n > 1 ? metric.stats.stddev : null;
    }
  }
  return s;
}

/**
 * Appends one run to the store. Idempotent per commit: publishing a commit again replaces its
 * entry. Locked against concurrent publishers; every file is written atomically.
 */
/**
 * Every identifier of a run that becomes a path or a series name, checked where it enters the
 * store: a results.json is data a runner or a pull request could have shaped.
 */
export function checkIdentifiers(results: Results): void {
  assertSha('run.commit.sha', results.run.commit.sha);
  assertSegment('run.machine.id', results.run.machine.id);
  for (const [i, b] of results.benchmarks.entries()) {
    assertSegment(`benchmarks.${i}.experiment`, b.experiment);
    assertSegment(`benchmarks.${i}.variant`, b.variant);
    for (const [k, v] of Object.entries(b.params)) {
      assertParamName(`benchmarks.${i}.params`, k);
      assertParamValue(`benchmarks.${i}.params.${k}`, v);
    }
  }
}

/** Writes files of the store, refusing any that a planted symlink would lead outside it. */
function writeInside(root: string, files: readonly { file: string; data: string }[]): void {
  for (const f of files) assertRealInside(root, f.file);
  writeFilesAtomic(files);
}

export async function publishRun(root: string, results: Results): Promise<{ machineDir: string; replaced: boolean }> {
  checkIdentifiers(results);
  const machine = results.run.machine;
  const machineDir = join(root, machine.id);
  return withLock(join(root, '.lock'), () => {
    const machinesPath = join(root, 'machines.json');
    const indexPath = join(machineDir, 'index.json');
    // Read (and so validate) everything before writing anything.
    const machines = readStoreFile(machinesPath, MachinesFile, 'machines') ?? { schema: STORE_SCHEMA, machines: {} };
    const index = readStoreFile(indexPath, IndexFile, 'index') ?? { schema: STORE_SCHEMA, machine, commits: [] };
    const experiments = [...new Set(results.benchmarks.map((b) => b.experiment))].sort();
    const seriesPaths = new Map(experiments.map((e) => [e, join(machineDir, 'series', `${e}.json`)]));
    const prevSeries = new Map(experiments.map((e) => [e, readStoreFile(seriesPaths.get(e)!, SeriesFile, 'series')]));

    const sha = results.run.commit.sha;
    const counts = { ok: 0, skipped: 0, failed: 0 };
    for (const b of results.benchmarks) counts[b.status]++;
    const entry: CommitEntry = {
      sha,
      date: results.run.commit.date,
      subject: results.run.commit.subject,
      ref: results.run.commit.ref,
      runId: results.run.id,
      profile: results.run.profile,
      partial: results.run.partial,
      file: `runs/${sha}.json`,
      counts,
      experiments,
    };
    const replaced = index.commits.some((c) => c.sha === sha);
    index.commits = [...index.commits.filter((c) => c.sha !== sha), entry].sort(
      (a, b) => a.date.localeCompare(b.date) || a.sha.localeCompare(b.sha),
    );
    index.machine = machine;
    const order = index.commits.map((c) => c.sha);

    machines.machines[machine.id] = { machine, lastRun: results.run.end, commits: index.commits.length };
    // Everything is staged before anything is replaced (a full disk changes nothing), then
    // renamed in this order: the full results first, so the index never points at a file that
    // does not exist.
    writeInside(root, [
      { file: join(machineDir, entry.file), data: json(results) },
      ...experiments.map((e) => ({
        file: seriesPaths.get(e)!,
        data: json(upsertSeries(prevSeries.get(e), e, order, results)),
      })),
      { file: indexPath, data: json(index) },
      { file: machinesPath, data: json(machines) },
    ]);
    return { machineDir, replaced };
  });
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
