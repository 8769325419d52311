/**
 * A machine's stored counts (model/count-store-schema.ts), read and written inside the trend store
 * like its other files: validated or refused, never replaced; written atomically, through no
 * planted symlink. A missing file is an empty store of counts.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { assertRealInside } from '../lib/fs-safety.js';
import { assertSegment } from '../lib/ids.js';
import { readJsonFile } from '../lib/json-file.js';
import {
  COUNT_STORE_FILE,
  COUNT_STORE_SCHEMA,
  type CountStoreFile,
  CountStoreFile as CountStoreSchema,
} from '../model/count-store-schema.js';
import { HINT, json, STORE_FILE_MAX_BYTES, writeInside } from './store-files.js';

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
  return readJsonFile(file, CountStoreSchema, {
    version: COUNT_STORE_SCHEMA,
    context,
    hint: HINT,
    maxBytes: STORE_FILE_MAX_BYTES,
  });
}

export function writeCountStore(root: string, machine: string, store: CountStoreFile): void {
  const file = countStorePath(root, machine);
  mkdirSync(join(root, machine), { recursive: true });
  writeInside(root, [{ file, data: json(store) }]);
}
