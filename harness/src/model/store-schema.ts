/**
 * The trend store's files, laid out as on the gh-pages branch (and as the local history); the
 * layout, the series key and the windows are in ./store-layout.ts (shared with the site). Every
 * file carries `schema`; readers refuse newer versions and never overwrite what they cannot read.
 */
import { z } from 'zod';
import { Direction, Machine, Params } from './results.js';
import { STORE_SCHEMA } from './store-layout.js';

export { LEGACY_PROFILE, STORE_SCHEMA } from './store-layout.js';

const schema = z.literal(STORE_SCHEMA);
const Count = z.number().int().nonnegative();

export const MachinesFile = z
  .object({
    schema,
    machines: z.record(
      z.string(),
      z
        .object({
          machine: Machine,
          lastRun: z.string(),
          /** Distinct commits stored, over every profile. */
          commits: Count,
          /** Per profile (and "legacy"): how many commits have a run of it, and the last publish. */
          profiles: z.record(z.string(), z.object({ commits: Count, lastRun: z.string() }).strict()),
        })
        .strict(),
    ),
  })
  .strict();
export type MachinesFile = z.infer<typeof MachinesFile>;

const Counts = z.object({ ok: Count, skipped: Count, failed: Count }).strict();

/** One commit's run of one profile: every publish of that commit and profile merged into one file. */
export const RunEntry = z
  .object({
    /** The run that published last. */
    runId: z.string(),
    /** The profile the results say (for "legacy": whichever run store v2 kept). */
    profile: z.string(),
    partial: z.boolean(),
    /** The results file, relative to the machine's directory. */
    file: z.string(),
    /** The trend window this commit is in, for this profile. */
    window: z.string(),
    counts: Counts,
    experiments: z.array(z.string()),
    /** The publishes merged into the file, oldest first (at most 20 kept): run id, its end, its benchmarks. */
    sources: z.array(z.object({ runId: z.string(), end: z.string(), benchmarks: Count }).strict()),
  })
  .strict();
export type RunEntry = z.infer<typeof RunEntry>;

export const CommitEntry = z
  .object({
    sha: z.string(),
    date: z.string(),
    subject: z.string(),
    ref: z.string(),
    /** profile -> its run; a smoke run never replaces a standard one: both are kept. */
    runs: z.record(z.string(), RunEntry),
  })
  .strict();
export type CommitEntry = z.infer<typeof CommitEntry>;

/** Every commit of a machine, oldest first: what tools read (the nightly back-fill); the site does not. */
export const IndexFile = z.object({ schema, machine: Machine, commits: z.array(CommitEntry) }).strict();
export type IndexFile = z.infer<typeof IndexFile>;

/** A commit at a point in time: a window's first or last, a change's either side. */
export const Moment = z.object({ date: z.string(), sha: z.string() }).strict();
export type Moment = z.infer<typeof Moment>;

export const TrendWindow = z.object({ id: z.string(), first: Moment, last: Moment, commits: Count }).strict();
export type TrendWindow = z.infer<typeof TrendWindow>;

export const CatalogMetric = z
  .object({
    unit: z.string(),
    direction: Direction,
    /** What measured it (results' metric source): "derived" metrics get no change points, as in compare. */
    source: z.string(),
    /** The first and last window (positions in `windows`) that have a file for it. */
    windows: z.tuple([Count, Count]),
  })
  .strict();
export type CatalogMetric = z.infer<typeof CatalogMetric>;

/** trends/<profile>/catalog.json: what a profile's trend data holds; the site's entry point. */
export const CatalogFile = z
  .object({
    schema,
    machine: z.string(),
    profile: z.string(),
    windows: z.array(TrendWindow),
    experiments: z.record(
      z.string(),
      z
        .object({
          metrics: z.record(z.string(), CatalogMetric),
          /** The newest commit whose run of this profile has this experiment (the Overview shows it). */
          latest: Moment,
        })
        .strict(),
    ),
  })
  .strict();
export type CatalogFile = z.infer<typeof CatalogFile>;

export const WindowCommit = z
  .object({
    sha: z.string(),
    date: z.string(),
    subject: z.string(),
    ref: z.string(),
    runId: z.string(),
    /** The run file, relative to the machine's directory. */
    file: z.string(),
    counts: Counts,
    experiments: z.array(z.string()),
  })
  .strict();
export type WindowCommit = z.infer<typeof WindowCommit>;

export const CommitsFile = z
  .object({ schema, profile: z.string(), window: z.string(), commits: z.array(WindowCommit) })
  .strict();
export type CommitsFile = z.infer<typeof CommitsFile>;

const Column = z.array(z.number().nullable());

export const Series = z
  .object({
    id: z.string(),
    variant: z.string(),
    params: Params,
    /** The workload hash (or "legacy", "unrecorded"): part of the series' identity. */
    workload: z.string(),
    unit: z.string(),
    direction: Direction,
    values: Column,
    /** The spread (standard deviation of the samples) per commit, when there were several. */
    ranges: Column,
    /** The program hash per commit, run-length encoded (store-layout.ts ProgramRuns). */
    programs: z.array(z.tuple([Count, z.string().nullable()])),
  })
  .strict();
export type Series = z.infer<typeof Series>;

/**
 * trends/<profile>/<window>/<experiment>/<metric>.json: one metric of one experiment over one
 * window. Columns align with `commits` (the window's commits that ran this experiment, in order).
 */
export const ShardFile = z
  .object({
    schema,
    profile: z.string(),
    window: z.string(),
    experiment: z.string(),
    metric: z.string(),
    commits: z.array(z.string()),
    /** store-layout.ts seriesKey(id, workload, unit) -> the series. */
    series: z.record(z.string(), Series),
  })
  .strict();
export type ShardFile = z.infer<typeof ShardFile>;

/** A change point of one series, a regression when `worse` (written by the site build into regressions.json). */
export const TrendChange = z
  .object({
    machine: z.string(),
    profile: z.string(),
    experiment: z.string(),
    metric: z.string(),
    benchmark: z.string(),
    series: z.string(),
    variant: z.string(),
    params: Params,
    workload: z.string(),
    unit: z.string(),
    direction: Direction,
    /** The last commit measured before the change and the first after it. */
    from: Moment.extend({ subject: z.string() }),
    to: Moment.extend({ subject: z.string(), window: z.string() }),
    /** Medians of the stretches on either side, their ratio after/before and its 95% interval. */
    before: z.number(),
    after: z.number(),
    ratio: z.number(),
    ci: z.tuple([z.number(), z.number()]),
    /** Points on either side that the ratio is taken from. */
    points: z.tuple([Count, Count]),
    /** True when the change makes the metric worse (slower, bigger, less throughput). */
    worse: z.boolean(),
    /** The benchmark's program changed between `from` and `to` (source, build or runtime version). */
    programChanged: z.boolean(),
  })
  .strict();
export type TrendChange = z.infer<typeof TrendChange>;

export const RegressionsFile = z
  .object({
    schema,
    machine: z.string(),
    profile: z.string(),
    /** The window these are of (its `to` commits), or absent for the whole list. */
    window: z.string().optional(),
    /** How change points were found, for people reading the JSON. */
    method: z.string(),
    regressions: z.array(TrendChange),
  })
  .strict();
export type RegressionsFile = z.infer<typeof RegressionsFile>;
