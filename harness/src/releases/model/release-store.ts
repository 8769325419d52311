/**
 * The schemas of the store's release files (layout: store-layout.ts, paths.release*): which
 * releases a machine has measured, with the values of every experiment's release suite, and the
 * changes found between releases. The site reads the same files (gh-pages/src/runtimes.ts).
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

export const ReleaseEntry = z
  .object({
    family: Family,
    line: z.string(),
    version: z.string(),
    /** The registry's publish date. */
    date: z.string(),
    profile: z.string(),
    /** When it was measured, and by which commit of this repository. */
    measured: z.string(),
    commit: z.string(),
    experiments: z.array(z.string()),
    /** Suite points that failed or were skipped, with why (a failed answer has no value). */
    problems: z.array(z.string()),
    values: z.array(SuiteValue),
  })
  .strict();
export type ReleaseEntry = z.infer<typeof ReleaseEntry>;

export const ReleaseIndexFile = z
  .object({ schema: z.literal(RELEASES_SCHEMA), machine: z.string(), releases: z.array(ReleaseEntry) })
  .strict();
export type ReleaseIndexFile = z.infer<typeof ReleaseIndexFile>;

/** A change between two consecutive measured releases of a line, on one suite point. */
export const ReleaseChange = z
  .object({
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
    fromDate: z.string(),
    toDate: z.string(),
    /** after / before, from the release timeline (segment medians). */
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
