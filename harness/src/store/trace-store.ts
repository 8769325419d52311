/**
 * A machine's stored traces (formats/trace-store-format.ts), one file per commit, read and written
 * inside the trend store like its other files: validated or refused (naming the file and the
 * field), never replaced; written atomically, through no planted symlink. The newest
 * TRACE_FILES_KEPT commits' files are kept per machine: a pull request's merge base is almost
 * always recent, and an older one is traced at plan time.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RELEASES_DIR } from '../formats/parts/store-layout.js';
import {
  migrateTraceFile,
  type StoredTrace,
  TRACE_STORE_DIR,
  TRACE_STORE_SCHEMA,
  type TraceStoreFile as TraceFile,
  TraceStoreFile,
} from '../formats/trace-store-format.js';
import { assertRealInside } from '../lib/fs-safety.js';
import { assertSegment, assertSha, isSegment } from '../lib/ids.js';
import { readJsonFile } from '../lib/json-file.js';
import type { Profile } from '../model/profiles.js';
import { HINT, json, STORE_FILE_MAX_BYTES, writeInside } from './store-files.js';

/** Trace files kept per machine (about 100-300 kB each for a whole profile). */
export const TRACE_FILES_KEPT = 100;

function tracePath(root: string, machine: string, sha: string): string {
  assertSegment('machine', machine);
  assertSha('commit', sha);
  return join(root, machine, TRACE_STORE_DIR, `${sha}.json`);
}

/** A trace file anywhere (a run's `traces.json`, a store's), validated; `context` leads any error. */
export function readTraceFile(file: string, context = ''): TraceFile {
  return readJsonFile(file, TraceStoreFile, {
    version: TRACE_STORE_SCHEMA,
    migrate: migrateTraceFile,
    context,
    hint: HINT,
    maxBytes: STORE_FILE_MAX_BYTES,
  });
}

function readStored(root: string, file: string): TraceFile | undefined {
  if (!existsSync(file)) return undefined;
  assertRealInside(root, file);
  return readTraceFile(file, 'refusing to touch the store: ');
}

/** `next`'s points laid over `into`'s, profile by profile (a point traced again takes the new trace). Pure. */
export function mergeTraceFiles(into: TraceFile | undefined, next: TraceFile): TraceFile {
  const profiles: TraceFile['profiles'] = { ...(into?.profiles ?? {}) };
  for (const [profile, points] of Object.entries(next.profiles) as [Profile, Record<string, StoredTrace>][])
    profiles[profile] = { ...(profiles[profile] ?? {}), ...points };
  return { schema: TRACE_STORE_SCHEMA, commit: next.commit, profiles };
}

/** The newest trace in a file: what pruning orders files by. */
const newestIn = (f: TraceFile) =>
  Object.values(f.profiles)
    .flatMap((points) => Object.values(points ?? {}).map((t) => t.traced))
    .sort()
    .at(-1) ?? '';

/** Adds a run's traces to its commit's file on `machine`, then keeps that machine's newest files only. */
export function storeTraces(root: string, machine: string, traces: TraceFile): void {
  const file = tracePath(root, machine, traces.commit);
  const merged = mergeTraceFiles(readStored(root, file), traces);
  mkdirSync(join(root, machine, TRACE_STORE_DIR), { recursive: true });
  writeInside(root, [{ file, data: json(merged) }]);
  const dir = join(root, machine, TRACE_STORE_DIR);
  const files = readdirSync(dir).filter((n) => /^[0-9a-f]{40}\.json$/.test(n));
  if (files.length <= TRACE_FILES_KEPT) return;
  const dated = files.map((n) => ({ n, at: newestIn(readStored(root, join(dir, n))!) }));
  dated.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  for (const { n } of dated.slice(TRACE_FILES_KEPT)) rmSync(join(dir, n));
}

export interface StoredTraces {
  /** Each point's stored trace (several machines' traces of one point joined). */
  byPoint: Map<string, StoredTrace>;
  /** The files they came from. */
  files: string[];
}

/** Two traces of one point as one: every path either saw (a path one machine saw may matter). Pure. */
export function joinTraces(a: StoredTrace, b: StoredTrace): StoredTrace {
  const union = (x: readonly string[], y: readonly string[]) => [...new Set([...x, ...y])].sort();
  const notFully = a.notFullyTraced ?? b.notFullyTraced;
  return {
    paths: union(a.paths, b.paths),
    listed: union(a.listed, b.listed),
    ...(notFully ? { notFullyTraced: notFully } : {}),
    refusedWrites: union(a.refusedWrites, b.refusedWrites),
    traced: [a.traced, b.traced].sort()[1]!,
  };
}

/**
 * The traces every machine of the store keeps for `commit`'s points of `profile`. The machines'
 * files are the trusted level's, and read as any store file: a malformed one is an error.
 */
export function storedTracesOf(root: string, commit: string, profile: Profile): StoredTraces {
  const byPoint = new Map<string, StoredTrace>();
  const files: string[] = [];
  const machines = readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== RELEASES_DIR && isSegment(e.name))
    .map((e) => e.name)
    .sort();
  for (const machine of machines) {
    const file = tracePath(root, machine, commit);
    const stored = readStored(root, file);
    const points = stored?.profiles[profile];
    if (!points) continue;
    files.push(file);
    for (const [id, t] of Object.entries(points)) {
      const had = byPoint.get(id);
      byPoint.set(id, had ? joinTraces(had, t) : t);
    }
  }
  return { byPoint, files };
}
