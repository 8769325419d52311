/**
 * What a build was seen to read, kept in its entry of the content-keyed build cache: the side's
 * files its file trace named (`programs/wc/wc-c.c`, `data/blob.bin`), each with its digest in the
 * checkout that made it. A build key covers what the static rules see (buildIdentity); a file only
 * the trace saw (an assembler's `.incbin` whose name a macro makes) is checked here: a checkout
 * whose copy differs gets an entry of its own instead of another checkout's build.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hashFile } from './input-digest.js';

/** The entry's file naming what made it (run/build-entry.ts writes it). */
export const ENTRY_META = 'build.json';

/** A path of the side's tree as a trace names it, on this machine: programs/ is the experiment's folder's parent. */
function hostPath(path: string, expDir: string): string {
  const programs = dirname(expDir);
  return path === 'programs' || path.startsWith('programs/')
    ? join(programs, path.slice('programs'.length))
    : join(dirname(programs), path);
}

/** A file's digest, "folder" for a folder, "absent" when it is not there. */
function digestOf(file: string): string {
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st) return 'absent';
  if (!st.isFile()) return st.isDirectory() ? 'folder' : 'special';
  const h = createHash('sha256');
  hashFile(h, file);
  return h.digest('hex').slice(0, 16);
}

/** The digests of the side's files `paths` (as a trace names them) in the checkout of `expDir`. */
export function readsOf(paths: readonly string[], expDir: string): Record<string, string> {
  return Object.fromEntries([...paths].sort().map((p) => [p, digestOf(hostPath(p, expDir))]));
}

/** The reads an entry recorded, or undefined when it has none (never traced, or not filled). */
function recordedReads(entry: string): Record<string, string> | undefined {
  try {
    const raw = JSON.parse(readFileSync(join(entry, ENTRY_META), 'utf8')) as { reads?: unknown };
    const reads = raw.reads;
    if (!reads || typeof reads !== 'object') return undefined;
    return Object.values(reads).every((v) => typeof v === 'string') ? (reads as Record<string, string>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The entry a checkout's build goes to: `entry` (its key by what the static rules see), unless a
 * traced build filled it having read a file whose copy here differs; then an entry of its own
 * beside it, keyed by those files as they are here.
 */
export function entryFor(entry: string, expDir: string): string {
  const recorded = recordedReads(entry);
  if (!recorded) return entry;
  const here = readsOf(Object.keys(recorded), expDir);
  if (Object.entries(recorded).every(([p, d]) => here[p] === d)) return entry;
  return `${entry}-r${createHash('sha256').update(JSON.stringify(here)).digest('hex').slice(0, 12)}`;
}
