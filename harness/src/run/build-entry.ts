/**
 * A build's entry in the content-keyed build cache (`<builds>/<E>/<V>/<key>/`, plan/jobs.ts): the
 * artifact and `build.json` (what made it, and the file trace of its processes when it ran under
 * one). An entry is filled whole: the build writes a staging folder beside it (`<key>.tmp-<pid>`)
 * that is renamed into place, so two processes making the same entry both end with one complete
 * entry, and a filled entry is used as it is.
 */
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { BuildInfo } from '../formats/results-format.js';
import { writeFileAtomic } from '../lib/atomic.js';
import { UserError } from '../lib/errors.js';
import type { PointTrace } from '../machine/sandbox/traced-step.js';
import { ENTRY_META as META } from '../plan/build-reads.js';

/** What an entry says of its build. */
export interface EntryMeta {
  info: BuildInfo;
  trace?: PointTrace;
  /** The side's files the trace saw the build read, with their digests (plan/build-reads.ts). */
  reads?: Record<string, string>;
}

const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** A trace as build.json holds it, or undefined when it is not one. */
function traceOf(v: unknown): PointTrace | undefined {
  const t = v as Partial<PointTrace> | undefined;
  if (!t || !strings(t.paths) || !strings(t.listed) || !strings(t.refusedWrites) || typeof t.seconds !== 'number')
    return undefined;
  return t as PointTrace;
}

/** A filled entry's meta, or undefined when `entry` is not a complete one (absent, or its files missing). */
export function readEntry(entry: string, artifact: string): EntryMeta | undefined {
  let raw: { info?: unknown; trace?: unknown; reads?: unknown };
  try {
    raw = JSON.parse(readFileSync(join(entry, META), 'utf8')) as typeof raw;
    if (!readdirSync(entry).includes(artifact)) return undefined;
  } catch {
    return undefined;
  }
  const info = BuildInfo.safeParse(raw.info);
  if (!info.success) return undefined;
  const trace = traceOf(raw.trace);
  const reads = raw.reads as Record<string, string> | undefined;
  return { info: info.data, ...(trace ? { trace } : {}), ...(trace && reads ? { reads } : {}) };
}

/** The staging folder this process fills an entry through. */
export const stagingOf = (entry: string) => `${entry}.tmp-${process.pid}`;

/**
 * Moves a made build from `staging` into `entry`. Keyed: when another process filled the entry
 * first, its build is used (it is the same build) and this one's staging folder is left for the
 * caller to remove; a trace made here is added to an entry that has none. Unkeyed (the checkout's
 * own entry): the entry of the last run is replaced.
 */
export function settle(entry: string, staging: string, made: EntryMeta, keyed: boolean): EntryMeta {
  writeFileSync(join(staging, META), `${JSON.stringify(made)}\n`);
  if (!keyed) rmSync(entry, { recursive: true, force: true });
  try {
    renameSync(staging, entry);
    return made;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
  }
  const theirs = readEntry(entry, made.info.artifact);
  if (!theirs)
    throw new UserError(`${entry}: a build cache entry without its build`, `remove ${entry}, then run again`);
  if (theirs.trace || !made.trace) return theirs;
  const traced = { ...theirs, trace: made.trace, ...(made.reads ? { reads: made.reads } : {}) };
  writeFileAtomic(join(entry, META), `${JSON.stringify(traced)}\n`);
  return traced;
}

/**
 * The entry's files in the checkout's own folder `view` (hard links; copies across file systems),
 * replacing what an earlier run put there: where bench.yml uploads the static just(js) binary from.
 */
export function showInView(entry: string, view: string): void {
  rmSync(view, { recursive: true, force: true });
  mkdirSync(view, { recursive: true });
  for (const d of readdirSync(entry, { withFileTypes: true, recursive: true })) {
    const from = join(d.parentPath, d.name);
    const to = join(view, from.slice(entry.length + 1));
    if (d.isDirectory()) mkdirSync(to, { recursive: true });
    else if (d.isFile()) {
      try {
        linkSync(from, to);
      } catch {
        copyFileSync(from, to);
      }
    }
  }
}
