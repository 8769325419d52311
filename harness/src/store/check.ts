/**
 * A store checked before anything relies on it: before a bench measures for minutes and then
 * cannot publish, and before the site copies it. Every JSON file but the run files must parse
 * and be a version this harness reads (the current one, and v3 for the store's files; an older
 * store is refused in one line), and every file with a schema must pass it (formats/trend-store-format.ts,
 * formats/noise-format.ts): the site renders what this lets through. Read-only; the first problem is a
 * UserError naming the file and the field.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { z } from 'zod';
import { COUNT_STORE_FILE, COUNT_STORE_SCHEMA, CountStoreFile } from '../formats/count-store-format.js';
import { MARKS_FILE, MARKS_SCHEMA, MarksFile } from '../formats/marks-format.js';
import { migrateNoise, NOISE_SCHEMA, NoiseFile } from '../formats/noise-format.js';
import { RELEASES_DIR, RELEASES_SCHEMA } from '../formats/parts/store-layout.js';
import {
  migrateTraceFile,
  TRACE_STORE_DIR,
  TRACE_STORE_SCHEMA,
  TraceStoreFile,
} from '../formats/trace-store-format.js';
import {
  CatalogFile,
  CommitsFile,
  IndexFile,
  MachinesFile,
  NewestPairFile,
  RegressionsFile,
  ShardFile,
  STORE_SCHEMA,
} from '../formats/trend-store-format.js';
import { UserError } from '../lib/errors.js';
import { formatIssues, readJsonFile } from '../lib/json-file.js';
import { HINT, refuseBeforeV3, STORE_FILE_MAX_BYTES } from './store-files.js';

const context = 'refusing to touch the store: ';

/**
 * Every .json file under dir that the site build and publishing read (symlinks are not followed:
 * the writers refuse them). Run files (<machine>/runs/) are left out: the build only copies them,
 * publishing reads the one it merges into with its own checks, and on a long history they are
 * most of the bytes.
 */
function jsonFiles(dir: string, depth = 0): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && !(depth === 1 && e.name === 'runs')) out.push(...jsonFiles(p, depth + 1));
    else if (e.isFile() && e.name.endsWith('.json')) out.push(p);
  }
  return out.sort();
}

/**
 * A directory that is neither empty nor a store (`--store /`, a home directory) is refused by
 * its top level alone, before any walk: the walk below would read a whole file system.
 */
function assertStoreShaped(root: string): void {
  const entries = readdirSync(root).filter((e) => !e.startsWith('.'));
  if (!entries.length || entries.includes('machines.json') || entries.every((e) => e === RELEASES_DIR)) return;
  throw new UserError(
    `--store ${root}: not a store (no machines.json) and not empty (it holds ${entries.sort()[0]}${entries.length > 1 ? ` and ${entries.length - 1} more` : ''})`,
    'give a store, or a new or empty directory',
  );
}

/** A file's schema, the version this harness writes, and what is done to an older one before validation. */
type Kind = { schema: z.ZodType; version: number; older: (file: string) => (raw: unknown) => unknown } | undefined;

/** The schema of a store file by its place (formats/parts/store-layout.ts paths), or undefined for none. */
function kindOf(rel: string): Kind {
  const p = rel.split(sep);
  const at = (...names: (string | undefined)[]) => names.every((n, i) => n === undefined || p[i] === n);
  const store = (schema: z.ZodType) => ({ schema, version: STORE_SCHEMA, older: refuseBeforeV3 });
  if (p[0] === RELEASES_DIR) return undefined; // versioned and checked by the releases part
  if (p.length === 1 && p[0] === 'machines.json') return store(MachinesFile);
  if (p.length === 2 && p[1] === 'index.json') return store(IndexFile);
  if (p.length === 2 && p[1] === COUNT_STORE_FILE)
    return { schema: CountStoreFile, version: COUNT_STORE_SCHEMA, older: () => (raw) => raw };
  if (p.length === 2 && p[1] === MARKS_FILE)
    return { schema: MarksFile, version: MARKS_SCHEMA, older: () => (raw) => raw };
  if (p.length === 3 && p[1] === TRACE_STORE_DIR)
    return { schema: TraceStoreFile, version: TRACE_STORE_SCHEMA, older: () => migrateTraceFile };
  if (p.length === 2 && p[1] === 'noise.json')
    return { schema: NoiseFile, version: NOISE_SCHEMA, older: () => migrateNoise };
  if (!at(undefined, 'trends')) return undefined;
  const last = p.length === 4 || p.length === 5 ? p.at(-1) : undefined;
  if (last === 'regressions.json') return store(RegressionsFile);
  if (p.length === 4 && last === 'catalog.json') return store(CatalogFile);
  if (p.length === 4 && last === 'newest-pair.json') return store(NewestPairFile);
  if (p.length === 5 && last === 'commits.json') return store(CommitsFile);
  return p.length === 6 ? store(ShardFile) : undefined;
}

/** A file's JSON, read as every store reader does: newer versions refused, older ones too or migrated. */
function readRaw(file: string, version: number | undefined, migrate?: (raw: unknown) => unknown): unknown {
  return readJsonFile(file, z.unknown(), {
    ...(version === undefined ? {} : { version }),
    context,
    hint: HINT,
    maxBytes: STORE_FILE_MAX_BYTES,
    ...(migrate ? { migrate } : {}),
  });
}

function checkFile(root: string, file: string): void {
  const rel = relative(root, file);
  const kind = kindOf(rel);
  const releasesIndex = rel.startsWith(`${RELEASES_DIR}${sep}`) && rel.endsWith(`${sep}index.json`);
  const version = kind?.version ?? (releasesIndex ? RELEASES_SCHEMA : undefined);
  const raw = readRaw(file, version, kind?.older(file));
  if (!kind || typeof (raw as { schema?: unknown } | null)?.schema !== 'number') return;
  const parsed = kind.schema.safeParse(raw);
  if (!parsed.success) throw new UserError(`${context}${formatIssues(file, raw, parsed.error)}`, HINT);
}

export function checkStore(root: string): void {
  if (!existsSync(root) || !lstatSync(root).isDirectory()) return;
  assertStoreShaped(root);
  // machines.json first: an older store is refused by it before any other file is read.
  const machines = join(root, 'machines.json');
  if (existsSync(machines)) {
    const raw = readRaw(machines, STORE_SCHEMA, refuseBeforeV3(machines));
    if (!(raw && typeof raw === 'object' && 'machines' in raw))
      throw new UserError(`${context}${machines} is invalid:\n  machines: missing`, HINT);
    const list = (raw as { machines: unknown }).machines;
    if (list === null || typeof list !== 'object' || Array.isArray(list))
      throw new UserError(
        `${context}${machines} is invalid:\n  machines: expected record (got ${Array.isArray(list) ? 'array' : typeof list})`,
        HINT,
      );
  }
  for (const file of jsonFiles(root)) checkFile(root, file);
}
