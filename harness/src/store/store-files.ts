/**
 * Reading and writing the trend store's files: every read validated or refused, never replaced;
 * every write staged inside the store, through no planted symlink.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { RESULTS_MAX_BYTES } from '../formats/read-results.js';
import { RESULTS_SCHEMA, type Results, Results as ResultsSchema } from '../formats/results-format.js';
import { LEGACY_PROFILE, STORE_READS_FROM, STORE_SCHEMA } from '../formats/trend-store-format.js';
import { writeFilesAtomic } from '../lib/atomic.js';
import { UserError } from '../lib/errors.js';
import { assertRealInside } from '../lib/fs-safety.js';
import { assertParamName, assertParamValue, assertSegment, assertSha } from '../lib/ids.js';
import { readJsonFile } from '../lib/json-file.js';
import { trended } from './trend-columns.js';

export const HINT = 'repair or remove the file by hand, or update the harness if it is newer';

/**
 * The largest store file (a run file has results.json's own limit). A machine's index.json grows
 * by about half a kilobyte per commit: this is room for a history of over 100,000 commits, and a
 * bound on what a crafted file can make a reader or a visitor load.
 */
export const STORE_FILE_MAX_BYTES = 64 * 2 ** 20;

/**
 * A store file older than v3 is refused in one line. Until commit 05964c6 the harness converted
 * v1 and v2 stores as it read them; none was ever published where a reader could meet it, so the
 * conversion went and the harness of that commit is the way to convert one.
 */
export function refuseBeforeV3(file: string): (raw: unknown) => unknown {
  return (raw) => {
    const v = (raw as { schema?: unknown } | null)?.schema;
    if (typeof v === 'number' && v < STORE_READS_FROM)
      throw new UserError(
        `refusing to touch the store: ${file} is store v${v}, which this harness no longer reads (v${STORE_READS_FROM} and later): convert it with the harness of commit 05964c6 (its publish-run converts the store it publishes into), or start a new store`,
      );
    return raw;
  };
}

/**
 * Reads a store file, or undefined if absent; anything unreadable is refused, never replaced. A
 * file reached through a symlink that leads out of the store is refused too (it would be
 * published).
 */
export function readStoreFile<T>(root: string, file: string, schema: z.ZodType<T>): T | undefined {
  if (!existsSync(file)) return undefined;
  assertRealInside(root, file);
  return readJsonFile(file, schema, {
    version: STORE_SCHEMA,
    context: 'refusing to touch the store: ',
    hint: HINT,
    maxBytes: STORE_FILE_MAX_BYTES,
    migrate: refuseBeforeV3(file),
  });
}

export function readStoredRun(root: string, file: string): Results {
  assertRealInside(root, file);
  return readJsonFile(file, ResultsSchema, {
    version: RESULTS_SCHEMA,
    maxBytes: RESULTS_MAX_BYTES,
    context: 'refusing to touch the store: ',
    hint: HINT,
  });
}

/**
 * The run file of a commit's run of one profile, derived from the validated ids, never taken
 * from the index's `file` (an index is data anyone who can publish could have shaped): an index
 * that names any other file is refused, so nothing outside the run is read or deleted.
 */
export function runFileOf(
  root: string,
  indexPath: string,
  machine: string,
  sha: string,
  profile: string,
  listed: string,
) {
  assertSegment('machine', machine);
  assertSha('commit', sha);
  assertSegment('profile', profile);
  // Store v2 kept one run per commit at runs/<sha>.json; v3 keeps one per profile.
  const expected = profile === LEGACY_PROFILE ? `runs/${sha}.json` : `runs/${sha}/${profile}.json`;
  if (listed !== expected)
    throw new UserError(
      `refusing to touch the store: ${indexPath} lists ${JSON.stringify(listed)} as the ${profile} run of ${sha}; that run's file is ${expected}`,
      HINT,
    );
  return join(root, machine, expected);
}

export const json = (v: unknown) => `${JSON.stringify(v)}\n`;

/**
 * Every identifier of a run that becomes a path or a series name, checked where it enters the
 * store: a results.json is data a runner or a pull request could have shaped.
 */
export function checkIdentifiers(results: Results): void {
  assertSha('run.commit.sha', results.run.commit.sha);
  assertSegment('run.machine.id', results.run.machine.id);
  assertSegment('run.profile', results.run.profile);
  if (results.run.profile === LEGACY_PROFILE)
    throw new UserError(`run.profile: "${LEGACY_PROFILE}" is reserved for data migrated from store v2`);
  for (const [i, b] of results.benchmarks.entries()) {
    assertSegment(`benchmarks.${i}.experiment`, b.experiment);
    assertSegment(`benchmarks.${i}.variant`, b.variant);
    for (const [k, v] of Object.entries(b.params)) {
      assertParamName(`benchmarks.${i}.params`, k);
      assertParamValue(`benchmarks.${i}.params.${k}`, v);
    }
    for (const name of Object.keys(b.metrics)) if (trended(name)) assertSegment(`benchmarks.${i}.metrics`, name);
  }
}

export type StagedFile = { file: string; data: string | Uint8Array };

/** Writes files of the store, refusing any that a planted symlink would lead outside it. */
export function writeInside(root: string, files: readonly StagedFile[]): void {
  for (const f of files) assertRealInside(root, f.file);
  writeFilesAtomic(files);
}
