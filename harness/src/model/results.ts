/**
 * results.json: the one file everything downstream reads (compare, publish, site).
 * Versioned by `schema`; readers refuse newer versions instead of guessing.
 */
import { z } from 'zod';

export const RESULTS_SCHEMA = 1;

export const Direction = z.enum(['smaller', 'bigger']);
export type Direction = z.infer<typeof Direction>;

export const Stats = z
  .object({
    n: z.number().int(),
    mean: z.number(),
    median: z.number(),
    stddev: z.number(),
    min: z.number(),
    max: z.number(),
  })
  .strict();
export type Stats = z.infer<typeof Stats>;

export const Metric = z
  .object({
    unit: z.string().min(1),
    direction: Direction,
    /** The headline value: the median for sampled metrics, the count for counters. */
    value: z.number(),
    /** Every sample, for timed metrics (one per hyperfine run). */
    samples: z.array(z.number()).optional(),
    stats: Stats.optional(),
    /** Counters that do not drift with machine noise (syscalls, reads, max RSS): compared exactly. */
    deterministic: z.boolean().default(false),
    /** What measured it: hyperfine, time, strace, program, derived, fit. */
    source: z.string(),
    /**
     * A fitted metric (manifest fit): the least-squares line through every run of every size, in
     * the metric's unit. value is that line's slope (or intercept, or rate); samples are per-run.
     */
    fit: z
      .object({
        /** The reported count the line is over (e.g. reads), and its value at each size. */
        x: z.string(),
        xs: z.array(z.number()),
        scales: z.array(z.number()),
        r2: z.number(),
        /** 95% interval of the value, from the slope's standard error (Student's t). */
        ci: z.tuple([z.number(), z.number()]).optional(),
        n: z.number().int(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type Metric = z.infer<typeof Metric>;

export const ParamValue = z.union([z.number(), z.string()]);
export const Params = z.record(z.string(), ParamValue);
export type Params = z.infer<typeof Params>;

export const Check = z
  .object({
    field: z.string(),
    op: z.enum(['equals', 'atLeast', 'atMost']),
    expected: z.number(),
    seen: z.number().nullable(),
    ok: z.boolean(),
    /** Set when the check does not apply to this variant; ok is then true. */
    skipped: z.string().optional(),
  })
  .strict();

export const Validation = z
  .object({ ok: z.boolean(), checks: z.array(Check), message: z.string().optional() })
  .strict();
export type Validation = z.infer<typeof Validation>;

export const BuildInfo = z
  .object({
    kind: z.string(),
    compiler: z.string(),
    flags: z.array(z.string()),
    artifact: z.string(),
    bytes: z.number().int(),
    seconds: z.number(),
  })
  .strict();
export type BuildInfo = z.infer<typeof BuildInfo>;

export const Benchmark = z
  .object({
    /** Stable identity: <experiment>/<variant>/<k=v,...> (parameters sorted by name). */
    id: z.string(),
    experiment: z.string(),
    variant: z.string(),
    params: Params,
    status: z.enum(['ok', 'skipped', 'failed']),
    reason: z.string().optional(),
    hint: z.string().optional(),
    command: z.string().optional(),
    /** Hash of what this benchmark measures (manifest entry, sources, build flags): see definition.ts. */
    definition: z.string().optional(),
    /** Hash of the workload (parameters, derived values, input, checks, placement): plan/definition.ts. Absent in older files. */
    workload: z.string().optional(),
    /** Where the generator and the program ran (manifest placement and the CPUs). */
    placement: z.string().optional(),
    /** Values derived for this point (bytes sent, counts) so readers need no manifest. */
    derived: z.record(z.string(), z.number()).default({}),
    validation: Validation.optional(),
    metrics: z.record(z.string(), Metric).default({}),
    build: BuildInfo.optional(),
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
  .refine((s) => !s.includes('..'), 'must not contain ".."');

export const Machine = z
  .object({
    id: MachineId,
    hostname: z.string(),
    cpu: z.string(),
    cores: z.number().int(),
    memoryBytes: z.number(),
    kernel: z.string(),
    governor: z.string(),
    runner: z.string(),
  })
  .passthrough();
export type Machine = z.infer<typeof Machine>;

export const Commit = z
  .object({
    sha: z.string(),
    ref: z.string(),
    subject: z.string(),
    date: z.string(),
    dirty: z.boolean(),
  })
  .strict();
export type Commit = z.infer<typeof Commit>;

export const ExperimentInfo = z.object({ title: z.string(), question: z.string() }).passthrough();

export const Run = z
  .object({
    id: z.string(),
    profile: z.string(),
    /** True when the run stopped early (interrupt): only some benchmarks are present. */
    partial: z.boolean(),
    start: z.string(),
    end: z.string(),
    commit: Commit,
    machine: Machine,
    toolchains: z.record(z.string(), z.string()),
    /** What could make numbers drift: load, governor, turbo, SMT, CPU sets (see conditions.ts). */
    conditions: z
      .object({
        loadAverage: z.tuple([z.number(), z.number(), z.number()]),
        governor: z.string(),
        turbo: z.string(),
        smt: z.string(),
        measuredCpus: z.string(),
        harnessCpus: z.string(),
      })
      .strict()
      .optional(),
    /** Wall seconds spent inside measured commands vs the whole run: the harness's own cost. */
    timing: z.object({ totalSeconds: z.number(), measuredSeconds: z.number() }).strict().optional(),
  })
  .strict();
export type Run = z.infer<typeof Run>;

/** A least-squares line of a metric over a numeric parameter, for one variant and parameter group. */
export const SlopeFit = z
  .object({
    experiment: z.string(),
    kind: z.literal('slope'),
    x: z.string(),
    metric: z.string(),
    /** The metric's unit; the slope is in unit per unit of x. */
    unit: z.string(),
    variant: z.string(),
    /** Every parameter but x: what the fit holds fixed. */
    params: Params,
    points: z.number().int(),
    xs: z.array(z.number()),
    slope: z.number(),
    intercept: z.number(),
    r2: z.number(),
    /** The analysis's `per` divisor at these points (e.g. lines), when it declares one. */
    per: z.number().optional(),
  })
  .strict();
export type SlopeFit = z.infer<typeof SlopeFit>;

export const Results = z
  .object({
    schema: z.literal(RESULTS_SCHEMA),
    run: Run,
    experiments: z.record(z.string(), ExperimentInfo),
    benchmarks: z.array(Benchmark),
    /** Cross-point analyses declared by manifests (optional: older files have none). */
    analyses: z.array(SlopeFit).optional(),
  })
  .strict();
export type Results = z.infer<typeof Results>;

/** Sorted k=v list: the parameter part of a benchmark's identity. */
export function paramKey(params: Params): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join(',');
}

export function benchmarkId(experiment: string, variant: string, params: Params): string {
  return `${experiment}/${variant}/${paramKey(params)}`;
}
