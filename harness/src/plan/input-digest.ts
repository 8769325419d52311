/**
 * A generated input's content digest: the bytes a generator wrote, which is what the paired diff
 * compares as the input's part of a workload (a generator whose text changed but whose output did
 * not changes no workload). Kept in its own file beside `.facts.json`, never among the facts: the
 * facts feed the derived values and so the trend store's workload hash (plan/definition.ts), which
 * must not move when the digest is introduced.
 */
import { createHash, type Hash } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/** The digest's file in an input's cache folder. */
export const DIGEST_FILE = '.digest';
/** The trace of the generator's processes, kept beside the input it made (plan/inputs.ts). */
export const INPUT_TRACE_FILE = '.trace.json';
/** The harness's own files in an input folder (the digest's temporary files too): not what the generator wrote. */
const ownFile = (name: string) => name === '.facts.json' || name === INPUT_TRACE_FILE || name.startsWith(DIGEST_FILE);
const DIGEST_TEXT = /^[0-9a-f]{64}$/;

/** Feeds a file's bytes to `h` in chunks (a file may be larger than memory allows at once). */
export function hashFile(h: Hash, path: string): void {
  const fd = openSync(path, 'r');
  try {
    // In chunks: a records input can be gigabytes.
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) h.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}

function hashTree(h: Hash, root: string, rel: string): void {
  const names = readdirSync(join(root, rel)).sort();
  for (const name of names) {
    if (!rel && ownFile(name)) continue;
    const path = join(rel, name);
    const full = join(root, path);
    const st = lstatSync(full);
    // Each entry framed by its kind, path and length, so no two trees hash alike by concatenation.
    if (st.isDirectory()) {
      h.update(`d ${path.length}:${path}\n`);
      hashTree(h, root, path);
    } else if (st.isSymbolicLink()) {
      const target = readlinkSync(full);
      h.update(`l ${path.length}:${path} ${target.length}:${target}\n`);
    } else {
      h.update(`f ${path.length}:${path} ${st.size}\n`);
      hashFile(h, full);
    }
  }
}

/** The sha256 of every file a generator wrote under `dir` (paths, kinds and bytes; the harness's own files left out). */
export function digestTree(dir: string): string {
  const h = createHash('sha256');
  hashTree(h, dir, '');
  return h.digest('hex');
}

/**
 * The digest of a cached input: read from its file, or (an input cached before digests were kept)
 * computed on this first read and stored for the next. A cache that cannot be written still gets
 * its digest, computed again next time.
 */
export function inputDigest(dir: string): string {
  const file = join(dir, DIGEST_FILE);
  try {
    const text = readFileSync(file, 'utf8').trim();
    if (DIGEST_TEXT.test(text)) return text;
  } catch {
    // absent: computed below
  }
  const digest = digestTree(dir);
  writeDigest(dir, digest);
  return digest;
}

/** Stores a digest beside the facts, atomically (a half-written digest is never read as one). */
export function writeDigest(dir: string, digest: string): void {
  const tmp = join(dir, `${DIGEST_FILE}.tmp-${process.pid}`);
  try {
    writeFileSync(tmp, `${digest}\n`);
    renameSync(tmp, join(dir, DIGEST_FILE));
  } catch {
    // A read-only cache: the digest is computed again on the next read.
  }
}
