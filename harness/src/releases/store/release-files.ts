/**
 * The store's releases part (layout: model/store-layout.ts, schemas: releases/model/release-store.ts):
 * publishing a measured release (its results per experiment and its index entry) and the
 * changes found between releases. Locked with the rest of the store, all or nothing on disk;
 * an unreadable file is refused, never replaced.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { withLock, writeFilesAtomic } from '../../lib/atomic.js';
import { assertRealInside } from '../../lib/fs-safety.js';
import { assertSegment, isSegment } from '../../lib/ids.js';
import { readJsonFile } from '../../lib/json-file.js';
import { RESULTS_SCHEMA, type Results, Results as ResultsSchema } from '../../model/results.js';
import { paths, RELEASES_DIR, RELEASES_SCHEMA } from '../../model/store-layout.js';
import {
  ReleaseChangesFile as ChangesSchema,
  ReleaseIndexFile as IndexSchema,
  migrateReleaseFile,
  type ReleaseChangesFile,
  type ReleaseEntry,
  type ReleaseIndexFile,
} from '../model/release-store.js';

const HINT = 'repair or remove the file by hand, or update the harness if it is newer';

function read<T>(
  root: string,
  rel: string,
  schema: import('zod').ZodType<T>,
  version: number = RELEASES_SCHEMA,
): T | undefined {
  const file = join(root, rel);
  if (!existsSync(file)) return undefined;
  assertRealInside(root, file);
  return readJsonFile(file, schema, {
    version,
    ...(version === RELEASES_SCHEMA ? { migrate: migrateReleaseFile } : {}),
    context: 'refusing to touch the store: ',
    hint: HINT,
  });
}

export function readReleaseIndex(root: string, machine: string): ReleaseIndexFile {
  assertSegment('machine', machine);
  return read(root, paths.releaseIndex(machine), IndexSchema) ?? { schema: RELEASES_SCHEMA, machine, releases: [] };
}

export function readReleaseChanges(root: string, machine: string): ReleaseChangesFile {
  assertSegment('machine', machine);
  return (
    read(root, paths.releaseChanges(machine), ChangesSchema) ?? {
      schema: RELEASES_SCHEMA,
      machine,
      changes: [],
      candidates: [],
    }
  );
}

/** "node@22.4.1" for every release a machine has measured at a profile. */
export function measuredKeys(index: ReleaseIndexFile, profile: string): Set<string> {
  return new Set(index.releases.filter((r) => r.profile === profile).map((r) => `${r.family}@${r.version}`));
}

/** The machines a store (or an artifact laid out as one) has releases for. */
export function releaseMachines(root: string): string[] {
  const dir = join(root, RELEASES_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && isSegment(e.name) && existsSync(join(dir, e.name, 'index.json')))
    .map((e) => e.name)
    .sort();
}

const json = (v: unknown) => `${JSON.stringify(v)}\n`;

function writeInside(root: string, files: { file: string; data: string }[]): void {
  for (const f of files) assertRealInside(root, f.file);
  writeFilesAtomic(files);
}

/**
 * Adds (or replaces: a re-measured release) one release's entry and its results files. The
 * identifiers that become paths are checked here: they come from the registry and the run.
 */
export async function publishRelease(
  root: string,
  machine: string,
  entry: ReleaseEntry,
  results: ReadonlyMap<string, Results>,
): Promise<void> {
  assertSegment('machine', machine);
  assertSegment('profile', entry.profile);
  assertSegment('line', entry.line);
  assertSegment('version', entry.version);
  for (const e of results.keys()) assertSegment('experiment', e);
  await withLock(join(root, '.lock'), () => {
    const index = readReleaseIndex(root, machine);
    const others = index.releases.filter(
      (r) => !(r.family === entry.family && r.version === entry.version && r.profile === entry.profile),
    );
    const files = [...results].map(([experiment, r]) => ({
      file: join(root, paths.releaseRun(machine, entry.profile, entry.line, entry.version, experiment)),
      data: json(r),
    }));
    files.push({
      file: join(root, paths.releaseIndex(machine)),
      data: json({ ...index, releases: [...others, entry] } satisfies ReleaseIndexFile),
    });
    writeInside(root, files);
  });
}

/**
 * Gives entries measured before upstream dates were kept the date their project gives them
 * (`dates`: family@version -> YYYY-MM-DD, from a changelog); nothing else is touched, and an
 * entry that has one keeps it. Returns how many entries were dated.
 */
export async function dateReleases(root: string, machine: string, dates: ReadonlyMap<string, string>): Promise<number> {
  assertSegment('machine', machine);
  return withLock(join(root, '.lock'), () => {
    const index = readReleaseIndex(root, machine);
    let dated = 0;
    const releases = index.releases.map((r) => {
      const d = dates.get(`${r.family}@${r.version}`);
      if (r.released || !d) return r;
      dated++;
      return { ...r, released: d };
    });
    if (dated)
      writeInside(root, [
        {
          file: join(root, paths.releaseIndex(machine)),
          data: json({ ...index, releases } satisfies ReleaseIndexFile),
        },
      ]);
    return dated;
  });
}

export async function writeReleaseChanges(root: string, machine: string, changes: ReleaseChangesFile): Promise<void> {
  assertSegment('machine', machine);
  await withLock(join(root, '.lock'), () =>
    writeInside(root, [{ file: join(root, paths.releaseChanges(machine)), data: json(changes) }]),
  );
}

/**
 * Merges one machine's releases measured elsewhere (a workflow artifact laid out as a store) into
 * this store: entries this store lacks are added with their results files, and changes.json is
 * the measuring side's (it is recomputed from the whole timeline each time). Everything read is
 * validated first; nothing this store has is removed.
 */
export async function importReleases(root: string, from: string, machine: string): Promise<number> {
  const incoming = readReleaseIndex(from, machine);
  const changes = read(from, paths.releaseChanges(machine), ChangesSchema);
  return withLock(join(root, '.lock'), () => {
    const index = readReleaseIndex(root, machine);
    const have = new Set(index.releases.map((r) => `${r.family}@${r.version}|${r.profile}`));
    const added = incoming.releases.filter((r) => !have.has(`${r.family}@${r.version}|${r.profile}`));
    const files: { file: string; data: string }[] = [];
    for (const r of added) {
      for (const e of r.experiments) {
        for (const s of [r.profile, r.line, r.version, e]) assertSegment('release path', s);
        const rel = paths.releaseRun(machine, r.profile, r.line, r.version, e);
        const results = read(from, rel, ResultsSchema, RESULTS_SCHEMA);
        if (results) files.push({ file: join(root, rel), data: json(results) });
      }
    }
    files.push({
      file: join(root, paths.releaseIndex(machine)),
      data: json({ ...index, releases: [...index.releases, ...added] } satisfies ReleaseIndexFile),
    });
    if (changes) files.push({ file: join(root, paths.releaseChanges(machine)), data: json(changes) });
    writeInside(root, files);
    return added.length;
  });
}
