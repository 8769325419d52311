/**
 * Reading the release files (./release-store.ts) at either trust: an artifact a runner uploaded is
 * all valid or refused whole, with one line naming the first bad field; a store's own file (the
 * nightly starts from gh-pages, the site is built from it) keeps every valid record and skips each
 * bad one with one line, so one bad entry never stops the nightly, `releases changes` or the site.
 * Older schema versions are migrated first. Pure: the files are read in ../store/release-files.ts.
 */
import { z } from 'zod';
import { UserError } from '../lib/errors.js';
import { Segment } from '../formats/parts/fields.js';
import { RELEASES_SCHEMA } from '../model/store-layout.js';
import { CAPS, ReleaseChange, type ReleaseChangesFile, ReleaseEntry, type ReleaseIndexFile } from './release-store.js';

/** Strict: the first bad record refuses the file. Skip: bad records are left out, each reported. */
export type Trust = { mode: 'strict' } | { mode: 'skip'; warn: (line: string) => void };

/**
 * Takes an older file forward. 1 -> 2: the same records, now validated field by field (a record
 * version 1 accepted that 2 refuses is skipped on read, like any bad record). 2 -> 3: the same
 * records (3 only adds optional fields).
 */
export function migrateReleaseFile(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const v = (raw as { schema?: unknown }).schema;
  return v === 1 || v === 2 ? { ...(raw as object), schema: RELEASES_SCHEMA } : raw;
}

/** The first problem of a failed parse on one line: "releases.3.version: not a release version (got "x")". */
function firstIssue(raw: unknown, error: z.ZodError, prefix: readonly PropertyKey[] = []): string {
  const issue = error.issues[0]!;
  const keys = issue.code === 'unrecognized_keys' ? [issue.keys[0]!] : [];
  const path = [...prefix, ...issue.path, ...keys];
  let value: unknown = raw;
  for (const k of [...issue.path, ...keys])
    value = value && typeof value === 'object' ? (value as never)[k] : undefined;
  const got = value === undefined ? '' : ` (got ${JSON.stringify(value)?.slice(0, 60)})`;
  const what = issue.code === 'unrecognized_keys' ? 'unknown key' : issue.message;
  return `${path.map(String).join('.') || '(top level)'}: ${what}${got}`.replace(/[\r\n]+/g, ' ');
}

/** A file's frame: its version, its machine (the directory it is in), its lists of records. */
const frame = (lists: readonly string[]) =>
  z
    .object({
      schema: z.literal(RELEASES_SCHEMA),
      machine: Segment,
      ...Object.fromEntries(
        lists.map((l) => [l, z.array(z.unknown()).max(l === 'releases' ? CAPS.releases : CAPS.changes)]),
      ),
    })
    .strict();

function checked<T>(
  file: string,
  raw: unknown,
  machine: string,
  lists: readonly string[],
  record: z.ZodType<T>,
  trust: Trust,
) {
  const top = frame(lists).safeParse(migrateReleaseFile(raw));
  if (!top.success) throw new UserError(`${file} is invalid: ${firstIssue(raw, top.error)}`);
  const data = top.data as unknown as { machine: string } & Record<string, unknown[]>;
  if (data.machine !== machine)
    throw new UserError(
      `${file} is invalid: machine: ${JSON.stringify(data.machine)} is not the directory's ${machine}`,
    );
  const out: Record<string, T[]> = {};
  for (const list of lists) {
    out[list] = [];
    data[list]!.forEach((item, i) => {
      const r = record.safeParse(item);
      if (r.success) out[list]!.push(r.data);
      else if (trust.mode === 'strict')
        throw new UserError(`${file} is invalid: ${firstIssue(item, r.error, [list, i])}`);
      else trust.warn(`${file}: skipping ${list}.${i}: ${firstIssue(item, r.error)}`);
    });
  }
  return out;
}

/** releases/<machine>/index.json, checked at a trust. */
export function checkReleaseIndex(file: string, raw: unknown, machine: string, trust: Trust): ReleaseIndexFile {
  const c = checked(file, raw, machine, ['releases'], ReleaseEntry, trust);
  return { schema: RELEASES_SCHEMA, machine, releases: c.releases! };
}

/** releases/<machine>/changes.json, checked at a trust. */
export function checkReleaseChanges(file: string, raw: unknown, machine: string, trust: Trust): ReleaseChangesFile {
  const c = checked(file, raw, machine, ['changes', 'candidates'], ReleaseChange, trust);
  return { schema: RELEASES_SCHEMA, machine, changes: c.changes!, candidates: c.candidates! };
}
