/**
 * results.json: the one file everything downstream reads (compare, publish, site).
 * Versioned by `schema`; readers refuse newer versions instead of guessing.
 */
import { z } from 'zod';
import type { Manifest } from './manifest-format.js';
import {
  BenchmarkId,
  CommitSha,
  Count,
  Direction,
  isPrototypeKey,
  Name,
  Num,
  ParamName,
  ParamValue as ParamValueField,
  RunId,
  SafeRecord,
  Segment,
  Text,
  Token,
  Unit,
} from './parts/fields.js';

/** 2: benchmarks may carry counted work (`counts`, the instructions metrics); files of schema 1 read as they are. */
export const RESULTS_SCHEMA = 2;

export const Stats = z
  .object({
    n: Num.int(),
    mean: Num,
    median: Num,
    stddev: Num,
    min: Num,
    max: Num,
  })
  .strict();
export type Stats = z.infer<typeof Stats>;

export const Metric = z
  .object({
    unit: Unit,
    direction: Direction,
    /** The headline value: the median for sampled metrics, the count for counters. */
    value: Num,
    /** Every sample, for timed metrics (one per hyperfine run). */
    samples: z.array(Num).optional(),
    stats: Stats.optional(),
    /** Counters that do not drift with machine noise (syscalls, reads, max RSS): compared exactly. */
    deterministic: z.boolean().default(false),
    /** What measured it: hyperfine, time, strace, program, derived, fit. */
    source: Token,
    /**
     * A fitted metric (manifest fit): the least-squares line through every run of every size, in
     * the metric's unit. value is that line's slope (or intercept, or rate); samples are per-run.
     */
    fit: z
      .object({
        /** The reported count the line is over (e.g. reads), and its value at each size. */
        x: Name,
        xs: z.array(Num),
        scales: z.array(Num),
        r2: Num,
        /** 95% interval of the value, from the slope's standard error (Student's t). */
        ci: z.tuple([Num, Num]).optional(),
        n: Num.int(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type Metric = z.infer<typeof Metric>;

const ParamValue = ParamValueField;
export const Params = SafeRecord(ParamName, ParamValue);
export type Params = z.infer<typeof Params>;

const Check = z
  .object({
    field: Name,
    op: z.enum(['equals', 'atLeast', 'atMost']),
    expected: Num,
    seen: Num.nullable(),
    ok: z.boolean(),
    /** Set when the check does not apply to this variant; ok is then true. */
    skipped: Text('line').optional(),
  })
  .strict();

export const Validation = z
  .object({ ok: z.boolean(), checks: z.array(Check), message: Text('long').optional() })
  .strict();
export type Validation = z.infer<typeof Validation>;

export const BuildInfo = z
  .object({
    kind: Token,
    compiler: Text('short'),
    flags: z.array(Text('short')).max(200),
    artifact: Text('line'),
    bytes: Num.int(),
    seconds: Num,
  })
  .strict();
export type BuildInfo = z.infer<typeof BuildInfo>;

/** One counted size of a fit: its operations (reads) and its total instructions. */
const SpanEnd = z.object({ ops: Num.nonnegative(), instructions: Num.nonnegative() }).strict();

export const Counts = z.discriminatedUnion('status', [
  z
    .object({
      status: z.literal('ok'),
      /** What the count covers: the runtime's deterministic settings, in words. */
      settings: Text('line'),
      /**
       * decides: a change beyond the tolerance is the point's "work changed"; evidence: threads, the
       * kernel or a cold cache decide its cost, so its counts are shown, never called.
       */
      role: z.enum(['decides', 'evidence']),
      because: Text('line').optional(),
      /** Evidence only where different program code is compared (a release axis's counts may decide). */
      evidenceFor: z.literal('code-changes').optional(),
      /** The largest relative spread of its repeated counts, the tolerance it is held to, and the repeats. */
      spread: Num,
      tolerance: Num,
      repeats: Num.int(),
      /** Whether its repeated counts agreed within the tolerance: "counts not deterministic here" otherwise. */
      deterministic: z.boolean(),
      /**
       * A fit whose two counted sizes measured no cost per operation (counts/count-rule.ts spanOf): the
       * larger size's total was not above the smaller's by more than the repeats' spread. The point
       * then has no `instructions_per_op`; the two totals say why. Absent in older files.
       */
      /** Taken from the trend store under its key (counts/count-key.ts), not counted by this run. */
      stored: z.literal(true).optional(),
      unmeasurable: z
        .object({
          why: z.enum(['negative', 'within-spread']),
          small: SpanEnd,
          large: SpanEnd,
          spread: Num.nonnegative(),
        })
        .strict()
        .optional(),
    })
    .strict(),
  z.object({ status: z.literal('unavailable'), reason: Text('long') }).strict(),
]);
export type Counts = z.infer<typeof Counts>;

export const Benchmark = z
  .object({
    /** Stable identity: <experiment>/<variant>/<k=v,...> (parameters sorted by name). */
    id: BenchmarkId,
    experiment: Segment,
    variant: Segment,
    params: Params,
    status: z.enum(['ok', 'skipped', 'failed']),
    reason: Text('long').optional(),
    hint: Text('long').optional(),
    command: Text('long').optional(),
    /** Hash of what this benchmark measures (manifest entry, sources, build flags): see definition.ts. */
    definition: Token.optional(),
    /** Hash of the workload (parameters, derived values, input, checks, placement): plan/definition.ts. Absent in older files. */
    workload: Token.optional(),
    /** Where the generator and the program ran (manifest placement and the CPUs). */
    placement: Text('short').optional(),
    /** Values derived for this point (bytes sent, counts) so readers need no manifest. */
    derived: SafeRecord(Name, Num).default({}),
    validation: Validation.optional(),
    metrics: SafeRecord(Name, Metric).default({}),
    build: BuildInfo.optional(),
    /** How its work was counted (the `instructions` metrics: counts/count-instructions.ts), or why it could not be. */
    counts: Counts.optional(),
  })
  .strict();
export type Benchmark = z.infer<typeof Benchmark>;

/**
 * A machine id names directories (the store, github-action-benchmark's data): letters, digits,
 * dots, dashes and underscores, starting with a letter or digit, never "..".
 */
export const MachineId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'letters, digits, ".", "_" and "-", starting with a letter or digit')
  .refine((s) => !s.includes('..'), 'must not contain ".."')
  .refine((s) => !isPrototypeKey(s), 'a name of an Object.prototype property is refused');

export const Machine = z
  .object({
    id: MachineId,
    hostname: Text('short'),
    cpu: Text('short'),
    cores: Num.int(),
    memoryBytes: Num,
    kernel: Text('short'),
    governor: Text('short'),
    runner: Text('short'),
  })
  .passthrough();
export type Machine = z.infer<typeof Machine>;

export const Commit = z
  .object({
    sha: CommitSha,
    ref: Text('short'),
    subject: Text('line'),
    date: Text('short'),
    dirty: z.boolean(),
  })
  .strict();
export type Commit = z.infer<typeof Commit>;

const ExperimentInfo = z.object({ title: Text('short'), question: Text('line') }).passthrough();

/** One 4 KiB read from a cold page cache on this machine's disk (machine/cold-read.ts). */
export const ColdRead = z
  .object({
    /** Median and 90th percentile of the timed reads, in microseconds. */
    medianMicros: z.number().nonnegative(),
    p90Micros: z.number().nonnegative(),
    reads: z.number().int().positive(),
    blockBytes: z.number().int().positive(),
  })
  .strict();
export type ColdRead = z.infer<typeof ColdRead>;

const Run = z
  .object({
    id: RunId,
    profile: Segment,
    /** True when the run stopped early (interrupt): only some benchmarks are present. */
    partial: z.boolean(),
    start: Text('short'),
    end: Text('short'),
    commit: Commit,
    machine: Machine,
    toolchains: SafeRecord(Token, Text('short')),
    /** What could make numbers drift: load, governor, turbo, SMT, CPU sets (see conditions.ts). */
    conditions: z
      .object({
        loadAverage: z.tuple([Num, Num, Num]),
        governor: Text('short'),
        turbo: Text('short'),
        smt: Text('short'),
        measuredCpus: Text('short'),
        harnessCpus: Text('short'),
        /**
         * How the untimed check of a hyperfine-timed program read its max RSS: the address-space layout
         * fixed (setarch -R) or random. A self-timed program's is the largest over its timed runs (random).
         * Absent in runs from before it was recorded.
         */
        rssLayout: z.enum(['fixed', 'random']).optional(),
        /** Measured when the run has cold-cache points: what "cold" costs on this machine. */
        coldRead: ColdRead.optional(),
        /**
         * Where its programs ran: "bubblewrap" (a sandbox per process, at fixed paths, with a fixed
         * environment: counts and start-up move with both) or "none: <why>". Absent before sandboxes.
         */
        sandbox: Text('short').optional(),
      })
      .strict()
      .optional(),
    /**
     * How the counting stage used the counts stored under their keys (counts/stored-counts.ts):
     * `store` says whether it could ("reused", or "not reused: <why>"), then how many points took a
     * stored count, were counted, or wait for a later run (the budget was spent), the live
     * re-checks and the families whose stored counts a disagreeing re-check dropped. Absent when
     * nothing was counted, and in older files.
     */
    counting: z
      .object({
        store: Text('line'),
        reused: Count,
        counted: Count,
        deferred: Count,
        budget: Count,
        /** `otherWork`: the re-count made another number of operations than the stored one (a pipe's reads): not compared. */
        rechecked: z
          .array(
            z
              .object({ id: BenchmarkId, family: Token, agreed: z.boolean(), otherWork: z.literal(true).optional() })
              .strict(),
          )
          .max(100),
        dropped: z.array(Token).max(100),
        /** Deciding families reused without a re-check: none of their stored points had repeated steadily. */
        unchecked: z.array(Token).max(100).optional(),
        /**
         * Other profiles whose points were counted too, untimed (`bench --count-profiles`: main's
         * runners count the pull requests' profile): how many of their keys were stored, counted
         * now, left for a later run, or failed. Their counts are kept with the run's own.
         */
        profiles: z
          .array(z.object({ profile: Token, reused: Count, counted: Count, deferred: Count, failed: Count }).strict())
          .max(10)
          .optional(),
      })
      .strict()
      .optional(),
    /** Wall seconds spent inside measured commands vs the whole run: the harness's own cost. */
    timing: z.object({ totalSeconds: Num, measuredSeconds: Num }).strict().optional(),
  })
  .strict();

/** A least-squares line of a metric over a numeric parameter, for one variant and parameter group. */
export const SlopeFit = z
  .object({
    experiment: Segment,
    kind: z.literal('slope'),
    x: Name,
    metric: Name,
    /** The metric's unit; the slope is in unit per unit of x. */
    unit: Unit,
    variant: Segment,
    /** Every parameter but x: what the fit holds fixed. */
    params: Params,
    points: Num.int(),
    xs: z.array(Num),
    slope: Num,
    intercept: Num,
    r2: Num,
    /** The analysis's `per` divisor at these points (e.g. lines), when it declares one. */
    per: Num.optional(),
  })
  .strict();
export type SlopeFit = z.infer<typeof SlopeFit>;

export const Results = z
  .object({
    schema: z.union([z.literal(1), z.literal(RESULTS_SCHEMA)]),
    run: Run,
    experiments: SafeRecord(Segment, ExperimentInfo),
    benchmarks: z.array(Benchmark),
    /** Cross-point analyses declared by manifests (optional: older files have none). */
    analyses: z.array(SlopeFit).optional(),
  })
  .strict();
export type Results = z.infer<typeof Results>;

/**
 * What results.json carries of each experiment, so its readers (the summary, the site) need no
 * manifest: pipeline/results-file.ts writes it, the site reads it. The results schema checks the
 * title and question and passes the rest through, so a reader finds the rest as written here.
 */
// A type, not an interface: it must fit the schema's pass-through record.
export type ExperimentInfo = {
  title: string;
  question: string;
  parameters?: Record<string, { description: string; unit?: string }>;
  summary?: Manifest['summary'];
  headline?: Manifest['headline'];
  /** Not written any more; an older file may carry the Overview's picture here. */
  overview?: unknown;
};

/** results.json as written, its experiments' copies typed. */
export type WrittenResults = Omit<Results, 'experiments'> & { experiments: Record<string, ExperimentInfo> };
