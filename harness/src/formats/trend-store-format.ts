/**
 * The trend store's files, laid out as on the gh-pages branch (and as the local history); the
 * layout, the series key and the windows are in ./parts/store-layout.ts (shared with the site). Every
 * file carries `schema`; readers refuse newer versions and never overwrite what they cannot read.
 */
import { z } from 'zod';
import {
  BenchmarkId,
  CommitSha,
  Count,
  Direction,
  Name,
  NoiseKey,
  Num,
  RunId,
  SafeRecord,
  Segment,
  Text,
  Token,
  Unit,
} from './parts/fields.js';
import { STORE_READS_FROM, STORE_SCHEMA } from './parts/store-layout.js';
import { Comparison } from './quick-look-format.js';
import { Machine, MachineId, Params } from './results-format.js';

export { LEGACY_PROFILE, STORE_READS_FROM, STORE_SCHEMA } from './parts/store-layout.js';

/*
 * Every field gets results.json's rules (./parts/fields.ts): names a pattern, free text a cap, map keys
 * no Object.prototype name, numbers a bound. The store is data anyone who can publish could have
 * shaped, and the site renders it. Lists are bounded by the file size limit of their reader.
 */
/**
 * A file of STORE_READS_FROM or later: v4 only added optional fields, so a v3 file is a v4 file as
 * it is, and is read as one (whatever rewrites it writes the current version).
 */
const schema = z
  .union([z.literal(STORE_READS_FROM), z.literal(STORE_SCHEMA)])
  .transform((): typeof STORE_SCHEMA => STORE_SCHEMA);
/** A date as the harness writes them (ISO 8601, or git's commit date). */
const DateText = Text('short');
/** A series' workload: a hash, "legacy" or "unrecorded" (test stores spell theirs out, "c-bs=4096-workload"). */
const Workload = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._+@=,-]{0,199}$/, 'a workload hash or name');
/** A run file, relative to its machine's directory: runs/<sha>/<profile>.json (store v2: runs/<sha>.json). */
const RunFilePath = z
  .string()
  .regex(/^runs\/[0-9a-f]{40}(?:\/[A-Za-z0-9][A-Za-z0-9._-]{0,99})?\.json$/, 'runs/<sha>/<profile>.json')
  .refine((s) => !s.includes('..'), 'must not contain ".."');

export const MachinesFile = z
  .object({
    schema,
    machines: SafeRecord(
      MachineId,
      z
        .object({
          machine: Machine,
          lastRun: DateText,
          /** Distinct commits stored, over every profile. */
          commits: Count,
          /** Per profile (and "legacy"): how many commits have a run of it, and the last publish. */
          profiles: SafeRecord(Segment, z.object({ commits: Count, lastRun: DateText }).strict()),
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
    runId: RunId,
    /** The profile the results say (for "legacy": whichever run store v2 kept). */
    profile: Segment,
    partial: z.boolean(),
    /** The results file, relative to the machine's directory. */
    file: RunFilePath,
    /** The trend window this commit is in, for this profile. */
    window: Segment,
    counts: Counts,
    experiments: z.array(Segment),
    /** The publishes merged into the file, oldest first (at most 20 kept): run id, its end, its benchmarks. */
    sources: z.array(z.object({ runId: RunId, end: DateText, benchmarks: Count }).strict()).max(100),
  })
  .strict();
export type RunEntry = z.infer<typeof RunEntry>;

export const CommitEntry = z
  .object({
    sha: CommitSha,
    date: DateText,
    subject: Text('line'),
    ref: Text('short'),
    /** profile -> its run; a smoke run never replaces a standard one: both are kept. */
    runs: SafeRecord(Segment, RunEntry),
  })
  .strict();
export type CommitEntry = z.infer<typeof CommitEntry>;

/** Every commit of a machine, oldest first: what tools read (the nightly back-fill); the site does not. */
export const IndexFile = z.object({ schema, machine: Machine, commits: z.array(CommitEntry) }).strict();
export type IndexFile = z.infer<typeof IndexFile>;

/**
 * What tools that only list the stored commits read of a machine's index.json, of any store
 * version (the nightly back-fill): each commit's id and the profiles it has runs of.
 */
export const IndexCommits = z
  .object({ commits: z.array(z.object({ sha: CommitSha, runs: SafeRecord(Segment, z.unknown()).optional() }).loose()) })
  .loose();
export type IndexCommits = z.infer<typeof IndexCommits>;

/** A commit at a point in time: a window's first or last, a change's either side. */
export const Moment = z.object({ date: DateText, sha: CommitSha }).strict();
export type Moment = z.infer<typeof Moment>;

export const TrendWindow = z.object({ id: Segment, first: Moment, last: Moment, commits: Count }).strict();
export type TrendWindow = z.infer<typeof TrendWindow>;

const CatalogMetric = z
  .object({
    unit: Unit,
    direction: Direction,
    /** What measured it (results' metric source): "derived" metrics get no change points, as in compare. */
    source: Token,
    /** The first and last window (positions in `windows`) that have a file for it. */
    windows: z.tuple([Count, Count]),
  })
  .strict();

/** trends/<profile>/catalog.json: what a profile's trend data holds; the site's entry point. */
export const CatalogFile = z
  .object({
    schema,
    machine: MachineId,
    profile: Segment,
    windows: z.array(TrendWindow),
    experiments: SafeRecord(
      Segment,
      z
        .object({
          metrics: SafeRecord(Name, CatalogMetric),
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
    sha: CommitSha,
    date: DateText,
    subject: Text('line'),
    ref: Text('short'),
    runId: RunId,
    /** The run file, relative to the machine's directory. */
    file: RunFilePath,
    counts: Counts,
    experiments: z.array(Segment),
  })
  .strict();
export type WindowCommit = z.infer<typeof WindowCommit>;

export const CommitsFile = z
  .object({ schema, profile: Segment, window: Segment, commits: z.array(WindowCommit) })
  .strict();
export type CommitsFile = z.infer<typeof CommitsFile>;

const Column = z.array(Num.nullable());

/** parts/store-layout.ts CountFacts: what a counted-work series' count was at a commit. */
const CountFacts = z
  .object({
    role: z.enum(['decides', 'evidence']),
    because: Text('line').optional(),
    deterministic: z.boolean(),
    settings: Text('line'),
  })
  .strict();

const Series = z
  .object({
    id: BenchmarkId,
    variant: Segment,
    params: Params,
    /** The workload hash (or "legacy", "unrecorded"): part of the series' identity. */
    workload: Workload,
    unit: Unit,
    direction: Direction,
    values: Column,
    /** The spread (standard deviation of the samples) per commit, when there were several. */
    ranges: Column,
    /** The program hash per commit, run-length encoded (parts/store-layout.ts ProgramRuns). */
    programs: z.array(z.tuple([Count, Token.nullable()])),
    /** A counted-work metric's facts per commit, run-length encoded the same way (store v4). */
    counts: z.array(z.tuple([Count, CountFacts.nullable()])).optional(),
  })
  .strict();

/** parts/store-layout.ts seriesKey: "<benchmark id>|<workload>|<unit>". */
const SeriesKey = Text('line').regex(/^[^|]+\|[^|]+\|[^|]+$/, '"<benchmark id>|<workload>|<unit>"');

/**
 * trends/<profile>/<window>/<experiment>/<metric>.json: one metric of one experiment over one
 * window. Columns align with `commits` (the window's commits that ran this experiment, in order).
 */
export const ShardFile = z
  .object({
    schema,
    profile: Segment,
    window: Segment,
    experiment: Segment,
    metric: Name,
    commits: z.array(CommitSha),
    /** parts/store-layout.ts seriesKey(id, workload, unit) -> the series. */
    series: SafeRecord(SeriesKey, Series),
  })
  .strict();
export type ShardFile = z.infer<typeof ShardFile>;

/** A change point of one series, a regression when `worse` (written by the site build into regressions.json). */
export const TrendChange = z
  .object({
    machine: MachineId,
    profile: Segment,
    experiment: Segment,
    metric: Name,
    benchmark: BenchmarkId,
    series: SeriesKey,
    variant: Segment,
    params: Params,
    workload: Workload,
    unit: Unit,
    direction: Direction,
    /** The last commit measured before the change and the first after it. */
    from: Moment.extend({ subject: Text('line') }),
    to: Moment.extend({ subject: Text('line'), window: Segment }),
    /** Medians of the stretches on either side, their ratio after/before and its 95% interval. */
    before: Num,
    after: Num,
    ratio: Num,
    ci: z.tuple([Num, Num]),
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
    machine: MachineId,
    profile: Segment,
    /** The window these are of (its `to` commits), or absent for the whole list. */
    window: Segment.optional(),
    /** How change points were found, for people reading the JSON. */
    method: Text('long'),
    regressions: z.array(TrendChange),
  })
  .strict();
export type RegressionsFile = z.infer<typeof RegressionsFile>;

/**
 * trends/<profile>/newest-pair.json (site build): the comparison the Compare view opens on, of
 * the profile's two newest commits, as compare/quick-look.ts makes it from their run files and
 * the machine's noise thresholds; the page uses it only for that pair and those thresholds.
 */
export const NewestPairFile = z
  .object({
    schema,
    machine: MachineId,
    profile: Segment,
    base: CommitSha,
    head: CommitSha,
    /** The thresholds of the compared metrics it was made with (noise.json may be newer). */
    thresholds: SafeRecord(NoiseKey, Num.nonnegative()),
    comparison: Comparison,
  })
  .strict();
export type NewestPairFile = z.infer<typeof NewestPairFile>;
