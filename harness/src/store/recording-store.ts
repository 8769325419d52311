/**
 * A machine's stored recordings (formats/transcript-format.ts StoredRecording), one gzipped file per
 * commit: main records each pushed commit's harness at the pull requests' profile, and a pull
 * request based on that commit records only its head (pairs/harness-shift/harness-transcripts.ts).
 * Read as every store file is — validated or refused, naming the file and the field — and written
 * atomically through no planted symlink. A recording is about 1/60 of its JSON once gzipped (a
 * few hundred kB at the quick profile); the newest RECORDINGS_KEPT per machine are kept, since a
 * pull request's merge base is almost always recent and an older one is recorded in the diff.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { RECORDING_SCHEMA, StoredRecording } from '../formats/transcript-format.js';
import { UserError } from '../lib/errors.js';
import { assertRealInside } from '../lib/fs-safety.js';
import { assertSegment, assertSha } from '../lib/ids.js';
import { parseJson } from '../lib/json-file.js';
import { readUntrusted, readUntrustedBytes } from '../lib/untrusted.js';
import { HINT, writeInside } from './store-files.js';

/** The folder of a machine's recordings in the store. */
const RECORDING_STORE_DIR = 'recordings';
/** A run's recording, beside its results.json (`transcript --side --recording`; `npm run pages` stores it). */
export const RUN_RECORDING_FILE = 'recording.json';
/** Recordings kept per machine. */
export const RECORDINGS_KEPT = 40;
/** Bounds on what a stored recording may take: compressed on disk, and once unpacked. */
const GZ_MAX_BYTES = 64 * 2 ** 20;
const JSON_MAX_BYTES = 500 * 2 ** 20;

export function recordingPath(root: string, machine: string, sha: string): string {
  assertSegment('machine', machine);
  assertSha('commit', sha);
  return join(root, machine, RECORDING_STORE_DIR, `${sha}.json.gz`);
}

const parseRecording = (file: string, text: string, context: string) =>
  parseJson(file, text, StoredRecording, { version: RECORDING_SCHEMA, context, hint: HINT });

/** A run's recording.json (an artifact: read as untrusted), validated. */
export function readRecordingFile(file: string): StoredRecording {
  return parseRecording(file, readUntrusted(file, JSON_MAX_BYTES, 'recording'), '');
}

/** A stored recording, or undefined when the store has none for that commit on that machine. */
export function readStoredRecording(root: string, machine: string, sha: string): StoredRecording | undefined {
  const file = recordingPath(root, machine, sha);
  if (!existsSync(file)) return undefined;
  assertRealInside(root, file);
  const context = 'refusing the stored recording: ';
  let text: string;
  try {
    const gz = readUntrustedBytes(file, GZ_MAX_BYTES, 'stored recording');
    text = gunzipSync(gz, { maxOutputLength: JSON_MAX_BYTES }).toString('utf8');
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`${context}${file} is not a gzipped recording: ${(e as Error).message}`, HINT);
  }
  const r = parseRecording(file, text, context);
  if (r.commit !== sha || r.machine !== machine)
    throw new UserError(`${context}${file} holds the recording of ${r.commit.slice(0, 12)} on ${r.machine}`, HINT);
  return r;
}

/** Stores a run's recording under its commit on its machine, then keeps that machine's newest ones only. */
export function storeRecording(root: string, r: StoredRecording): void {
  const file = recordingPath(root, r.machine, r.commit);
  const dir = join(root, r.machine, RECORDING_STORE_DIR);
  mkdirSync(dir, { recursive: true });
  writeInside(root, [{ file, data: gzipSync(`${JSON.stringify(r)}\n`) }]);
  const names = readdirSync(dir).filter((n) => /^[0-9a-f]{40}\.json\.gz$/.test(n));
  if (names.length <= RECORDINGS_KEPT) return;
  const dated = names.map((n) => ({ n, at: readStoredRecording(root, r.machine, n.slice(0, 40))!.recorded }));
  dated.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  for (const { n } of dated.slice(RECORDINGS_KEPT)) rmSync(join(dir, n));
}
