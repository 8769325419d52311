/**
 * A machine's stored counts (formats/count-store-format.ts), read and written inside the trend store
 * like its other files: validated or refused, never replaced; written atomically, through no
 * planted symlink. A missing file is an empty store of counts. A run measured apart from the store
 * (the runners' `bench --no-store --count-store`) leaves the counts it made or re-checked in its
 * own counts.json, which `npm run pages` merges in here (mergeRunCounts).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  COUNT_STORE_FILE,
  COUNT_STORE_SCHEMA,
  type CountStoreFile,
  CountStoreFile as CountStoreSchema,
} from '../formats/count-store-format.js';
import { assertRealInside } from '../lib/fs-safety.js';
import { assertSegment } from '../lib/ids.js';
import { readJsonFile } from '../lib/json-file.js';
import { HINT, json, STORE_FILE_MAX_BYTES, writeInside } from '../store/store-files.js';

function countStorePath(root: string, machine: string): string {
  assertSegment('machine', machine);
  return join(root, machine, COUNT_STORE_FILE);
}

/** `context` leads any error (the paired diff only reads the store: it refuses to use it, not to touch it). */
export function readCountStore(
  root: string,
  machine: string,
  context = 'refusing to touch the store: ',
): CountStoreFile {
  const file = countStorePath(root, machine);
  if (!existsSync(file)) return { schema: COUNT_STORE_SCHEMA, counts: {} };
  assertRealInside(root, file);
  return readCountFile(file, context);
}

/** A counts file anywhere (a run's counts.json), validated; `context` leads any error. */
export function readCountFile(file: string, context = ''): CountStoreFile {
  return readJsonFile(file, CountStoreSchema, {
    version: COUNT_STORE_SCHEMA,
    context,
    hint: HINT,
    maxBytes: STORE_FILE_MAX_BYTES,
  });
}

/**
 * A run's counts laid over the stored ones. Pure. The families whose re-check disagreed in that run
 * lose every stored count first (a count of such a family that a later run made is lost too: it is
 * counted again, never kept wrong); an entry the run re-checked keeps the higher number of checks,
 * so a run published twice, or after a newer one, takes nothing back.
 */
export function mergeRunCounts(into: CountStoreFile, run: CountStoreFile, dropped: readonly string[]): CountStoreFile {
  const counts: CountStoreFile['counts'] = {};
  for (const [key, c] of Object.entries(into.counts)) if (!dropped.includes(c.family)) counts[key] = c;
  for (const [key, c] of Object.entries(run.counts)) {
    const old = counts[key];
    counts[key] = old && old.checks > c.checks ? { ...c, checks: old.checks } : c;
  }
  return { schema: COUNT_STORE_SCHEMA, counts };
}

export function writeCountStore(root: string, machine: string, store: CountStoreFile): void {
  const file = countStorePath(root, machine);
  mkdirSync(join(root, machine), { recursive: true });
  writeInside(root, [{ file, data: json(store) }]);
}
