/**
 * The store's releases part (layout: formats/parts/store-layout.ts, schemas: formats/release-store-format.ts):
 * publishing a measured release (its results per experiment and its index entry) and the
 * changes found between releases. Locked with the rest of the store, all or nothing on disk;
 * an unreadable file is refused, never replaced.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { paths, RELEASES_DIR, RELEASES_SCHEMA } from '../formats/parts/store-layout.js';
import { RESULTS_MAX_BYTES, readResults, readResultsArtifact } from '../formats/read-results.js';
import type { ReleaseChangesFile, ReleaseEntry, ReleaseIndexFile } from '../formats/release-store-format.js';
import { checkReleaseChanges, checkReleaseIndex, type Trust } from '../formats/release-store-format.js';
import type { Results } from '../formats/results-format.js';
import { withLock, writeFilesAtomic } from '../lib/atomic.js';
import { UserError } from '../lib/errors.js';
import { assertRealInside } from '../lib/fs-safety.js';
import { assertSegment, isSegment } from '../lib/ids.js';
import { parseJson, readJsonFile } from '../lib/json-file.js';
import { readUntrusted } from '../lib/untrusted.js';

const HINT = 'repair or remove the file by hand, or update the harness if it is newer';

/** Where a bad record of a store's own file is reported (it is skipped, never fatal). */
export type Warn = (line: string) => void;
const toStderr: Warn = (line) => process.stderr.write(`${line}\n`);

/** A store's own file, or an artifact's (opened without following links, size-bounded). */
export type Source = 'store' | 'artifact';

/** A release file's JSON, unvalidated (the caller checks it at its trust); undefined when absent. */
function readRaw(root: string, rel: string, source: Source): unknown {
  const file = join(root, rel);
  if (!existsSync(file)) return undefined;
  if (source === 'artifact')
    return parseJson(file, readUntrusted(file, RESULTS_MAX_BYTES, 'release file'), z.unknown(), {
      version: RELEASES_SCHEMA,
    });
  assertRealInside(root, file);
  return readJsonFile(file, z.unknown(), {
    version: RELEASES_SCHEMA,
    context: 'refusing to touch the store: ',
    hint: HINT,
  });
}

const trustOf = (source: Source, warn: Warn): Trust =>
  source === 'artifact' ? { mode: 'strict' } : { mode: 'skip', warn };

/** A kind of release file: where a machine's is, how it is checked, what it is when absent. */
interface ReleaseFile<T> {
  rel: (machine: string) => string;
  check: (file: string, raw: unknown, machine: string, trust: Trust) => T;
  empty: (machine: string) => T;
}

const INDEX: ReleaseFile<ReleaseIndexFile> = {
  rel: paths.releaseIndex,
  check: checkReleaseIndex,
  empty: (machine) => ({ schema: RELEASES_SCHEMA, machine, releases: [] }),
};

const CHANGES: ReleaseFile<ReleaseChangesFile> = {
  rel: paths.releaseChanges,
  check: checkReleaseChanges,
  empty: (machine) => ({ schema: RELEASES_SCHEMA, machine, changes: [], candidates: [] }),
};

/** A machine's file of a kind, checked at the source's trust. */
function readChecked<T>(root: string, machine: string, kind: ReleaseFile<T>, warn: Warn, source: Source): T {
  assertSegment('machine', machine);
  const rel = kind.rel(machine);
  const raw = readRaw(root, rel, source);
  return raw === undefined ? kind.empty(machine) : kind.check(join(root, rel), raw, machine, trustOf(source, warn));
}

/** A machine's release index: a store's bad entries are skipped (each with one line), an artifact's refuse it. */
export function readReleaseIndex(
  root: string,
  machine: string,
  warn: Warn = toStderr,
  source: Source = 'store',
): ReleaseIndexFile {
  return readChecked(root, machine, INDEX, warn, source);
}

/** A machine's changes, read like its index. */
export function readReleaseChanges(
  root: string,
  machine: string,
  warn: Warn = toStderr,
  source: Source = 'store',
): ReleaseChangesFile {
  return readChecked(root, machine, CHANGES, warn, source);
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

/** A UserError's message on one line (a results file's issues are listed on several). */
function oneLine(e: unknown): never {
  if (e instanceof UserError) throw new UserError(e.message.replace(/\s*\n\s*/g, ' '));
  throw e;
}

/**
 * The results files of the entries being added, each read at the source's trust: an artifact's bad
 * file refuses the import; a store's is skipped with one line (its entry stays, without the file).
 */
function resultFiles(
  root: string,
  from: string,
  machine: string,
  added: readonly ReleaseEntry[],
  source: Source,
  warn: Warn,
) {
  const files: { file: string; data: string }[] = [];
  for (const r of added) {
    for (const e of r.experiments) {
      const rel = paths.releaseRun(machine, r.profile, r.line, r.version, e);
      const file = join(from, rel);
      if (!existsSync(file)) continue;
      let results: Results;
      try {
        if (source === 'store') assertRealInside(from, file);
        results = source === 'artifact' ? readResultsArtifact(file) : readResults(file);
      } catch (err) {
        if (source === 'artifact' || !(err instanceof UserError)) throw err;
        warn(`skipping ${file}: ${err.message.split('\n').slice(0, 2).join(' ').replace(/\s+/g, ' ')}`);
        continue;
      }
      files.push({ file: join(root, rel), data: json(results) });
    }
  }
  return files;
}

/**
 * Merges one machine's releases measured elsewhere into this store: only that machine's files are
 * read and written (releases/<machine>/), so one machine's artifact never touches another's data.
 * Entries this store lacks are added with their results files, and changes.json is the measuring
 * side's (it is recomputed from the whole timeline each time). From an artifact, everything is
 * validated first and one bad record refuses the whole import; from a store (gh-pages, where the
 * nightly starts), a bad record is skipped with one line. Nothing this store has is removed but
 * its own bad records, which are skipped with one line and not written back.
 */
export async function importReleases(
  root: string,
  from: string,
  machine: string,
  opts: { source?: Source; warn?: Warn } = {},
): Promise<number> {
  const source = opts.source ?? 'artifact';
  const warn = opts.warn ?? toStderr;
  let incoming: ReleaseIndexFile;
  let changes: ReleaseChangesFile | undefined;
  let files: { file: string; data: string }[];
  const key = (r: ReleaseEntry) => `${r.family}@${r.version}|${r.profile}`;
  const lacks = (index: ReleaseIndexFile) => {
    const have = new Set(index.releases.map(key));
    return (r: ReleaseEntry) => !have.has(key(r));
  };
  try {
    incoming = readReleaseIndex(from, machine, warn, source);
    const hasChanges = existsSync(join(from, paths.releaseChanges(machine)));
    changes = hasChanges ? readReleaseChanges(from, machine, warn, source) : undefined;
    // An artifact's results are all checked; a store's only where they are added.
    const wanted =
      source === 'artifact'
        ? incoming.releases
        : incoming.releases.filter(lacks(readReleaseIndex(root, machine, () => {})));
    files = resultFiles(root, from, machine, wanted, source, warn);
  } catch (e) {
    oneLine(e);
  }
  return withLock(join(root, '.lock'), () => {
    const index = readReleaseIndex(root, machine, warn);
    const added = incoming.releases.filter(lacks(index));
    const keep = new Set(
      added.flatMap((r) =>
        r.experiments.map((e) => join(root, paths.releaseRun(machine, r.profile, r.line, r.version, e))),
      ),
    );
    const out = files.filter((f) => keep.has(f.file));
    out.push({
      file: join(root, paths.releaseIndex(machine)),
      data: json({ ...index, releases: [...index.releases, ...added] } satisfies ReleaseIndexFile),
    });
    if (changes) out.push({ file: join(root, paths.releaseChanges(machine)), data: json(changes) });
    writeInside(root, out);
    return added.length;
  });
}
