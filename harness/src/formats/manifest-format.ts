/**
 * The manifest: everything that defines one experiment, as data. One per folder
 * programs/<experiment>/manifest.json; the folder name is the experiment id.
 */
import { z } from 'zod';
import { familyOf, runtimeFamilies } from '../model/runtime-families.js';
import { Check as CheckSchema, ReportedField, SlopeAnalysis } from './parts/manifest-checks.js';
import { At, id, name, Overview } from './parts/overview-vocabulary.js';
import { ParameterSpec, paramValue, perProfile } from './parts/parameter.js';
import { ReleaseSuite } from './parts/release-suite.js';

export { Overview } from './parts/overview-vocabulary.js';
export type { ParamValue } from './parts/parameter.js';

const MANIFEST_SCHEMA = 1;

const NodeVersions = z.array(z.string().regex(/^(current|\d+)$/, '"current" or a major version')).min(1);
/** The majors of a family pinned per major (model/runtime-families.ts) a manifest runs under, per profile. */
const MajorVersions = z
  .union([NodeVersions, perProfile(NodeVersions)])
  .default(['current'])
  .transform((v) => (Array.isArray(v) ? { smoke: v, quick: v, standard: v, full: v } : v));

const ProfileSettings = z
  .object({
    runs: z.number().int().min(1),
    warmup: z.number().int().min(0),
    /** Per-run timeout in seconds: a hung program is killed and reported as a timeout. */
    timeout: z.number().positive().default(120),
    /** Named numbers usable in `derive` expressions (e.g. bytes per run). */
    constants: z.record(name, z.number()).default({}),
  })
  .strict();

const Build = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('gcc'),
      flags: z.array(z.string()).default(['-O3']),
      libs: z.array(z.string()).default([]),
    })
    .strict(),
  z.object({ kind: z.literal('just-static'), config: z.string().min(1) }).strict(),
  z.object({ kind: z.literal('esbuild'), platform: z.enum(['node', 'neutral']).default('node') }).strict(),
]);

/**
 * The JavaScript runtimes a program can run under. "The same program under another runtime or
 * version" is one mechanism: a variant lists the runtimes it runs under, and each of its points
 * gets the parameter `runtime` (node20, node22, bun, deno, just: plan/plan.ts runtimeLabel), so
 * one program's results under Bun and under Node 22 are two points of one variant, and a
 * runtime's trend is a filter (--param runtime=bun), not a renamed copy of the variant. The
 * families are model/runtime-families.ts's, asked when a manifest is read.
 */
export type JsRuntime = string;
// Not a string schema: a bad value of any type fails like an enum's, reported by the union whole.
const JsRuntime = z.custom<JsRuntime>((s) => typeof s === 'string' && familyOf(s)?.key === s, { abort: true });

/** The runtimes a variant runs under, or undefined for a native build or a system tool. */
export function jsRuntimes(v: { runtime: Variant['runtime'] }): JsRuntime[] | undefined {
  if (v.runtime === 'native' || v.runtime === 'system') return undefined;
  return Array.isArray(v.runtime) ? v.runtime : [v.runtime];
}

const Variant = z
  .object({
    id,
    description: z.string().min(1),
    /**
     * What executes the program: gcc output ("native"), a system tool ("system"), or the
     * JavaScript runtime(s) it runs under: "node", or a list such as ["node", "bun", "deno"].
     */
    runtime: z.union([z.enum(['native', 'system']), JsRuntime, z.array(JsRuntime).min(1)]),
    /** Program source in the experiment folder, named <subject>-<runtime>.<ext>. */
    source: z.string().optional(),
    build: Build.optional(),
    /**
     * Command template. Placeholders: {js} (the point's runtime running the program: its
     * esbuild bundle if it has one, else its source), {runtime} (the runtime's binary), {bin}
     * (build output), {src} (source path), parameters and derived values.
     */
    command: z.string().min(1),
    /** How the program reports: one JSON line (default), a bare number, or nothing. */
    output: z.enum(['json-line', 'number', 'none']).default('json-line'),
    /** With output "number": which reported field the number is. */
    numberField: name.optional(),
    /** Validation checks that cannot apply to this variant, each with the reason. */
    skipChecks: z.record(name, z.string().min(1)).default({}),
    /** Only the points matching this selector exist for this variant (e.g. read-only programs: {"op": "read"}). */
    when: At.optional(),
    /** Why this variant's instruction counts are evidence, not a verdict (its work depends on thread scheduling). */
    countsEvidence: z.string().min(1).max(300).optional(),
    /**
     * How far this variant's instruction count of one run may move between runs of the very same
     * program, and why (a C program that prints the times it measured: the C library's float
     * formatting takes more or fewer instructions by the value). A live re-check compares within
     * it instead of to the instruction (docs/counts.md); without it, C is held exact.
     */
    countsVary: z
      .object({ instructions: z.number().int().positive().max(1_000_000), because: z.string().min(1).max(300) })
      .strict()
      .optional(),
    /**
     * Parameters that do not apply to this variant (Bun and Deno have no UV_THREADPOOL_SIZE):
     * it gets one point per combination of the others, and its ids and labels lack them.
     */
    ignores: z.array(name).default([]),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.output === 'number' && !v.numberField) {
      ctx.addIssue({ code: 'custom', path: ['numberField'], message: 'required when output is "number"' });
    }
    if (v.build && !v.source) ctx.addIssue({ code: 'custom', path: ['source'], message: 'a build needs a source' });
  });

export const Manifest = z
  .object({
    schema: z.literal(MANIFEST_SCHEMA),
    title: z.string().min(1),
    question: z.string().min(1),
    /**
     * hyperfine: the harness times whole runs. self: the program measures itself and prints one
     * JSON line per run (run/self-reported.ts); the harness repeats it and pools the samples.
     */
    runner: z.enum(['hyperfine', 'self']).default('hyperfine'),
    /**
     * Where the input generator and the measured program run (this decides a pipe's speed on
     * small machines): "split" = generator on the harness's core, program on the others;
     * "shared" = both on one measured core; "none" = no pinning (experiments about parallelism,
     * which need every core). Every variant of an experiment, its ceiling included, runs under
     * the same placement; it is recorded with each result and is part of the workload.
     */
    placement: z.enum(['split', 'shared', 'none']).default('split'),
    parameters: z.record(name, ParameterSpec),
    /**
     * Versions of multi-version runtimes to run node variants under ("current" = the running
     * node): one list for every profile, or a list per profile (so quick can stay quick).
     */
    runtimes: z
      .object(
        Object.fromEntries(
          runtimeFamilies()
            .filter((f) => f.pin === 'majors')
            .map((f) => [f.key, MajorVersions]),
        ),
      )
      .strict()
      .prefault({}),
    profiles: perProfile(ProfileSettings),
    /** Values computed per point, in order, from constants, parameters and earlier derived values. */
    derive: z.record(name, z.string()).default({}),
    input: z
      .object({
        /** Command whose stdout is piped into every variant (a real pipe). */
        pipe: z.string().min(1),
      })
      .strict()
      .optional(),
    /**
     * A generator script (run with the harness's node) that writes input files into the folder
     * given by --out and prints one JSON line of facts (bytes, lines, checksums...). Its output
     * is cached by script content + arguments. Facts become input_<name> values; the folder is
     * {input_dir}.
     */
    generate: z
      .object({
        script: z.string().min(1),
        /** --name value arguments: expressions over constants, parameters and derived values. */
        args: z.record(name, z.string()).default({}),
      })
      .strict()
      .optional(),
    /**
     * Cold-cache points: before every run, evict these paths from the page cache and verify it
     * (mincore). A point whose eviction cannot be verified is skipped with the reason.
     */
    evict: z
      .object({
        when: z.record(name, z.union([paramValue, z.array(paramValue)])),
        paths: z.array(z.string().min(1)).min(1),
      })
      .strict()
      .optional(),
    /** Parameter combinations that are not measured at all (e.g. [{"op": "write", "cache": "cold"}]). */
    exclude: z.array(At).default([]),
    /** Expression for the bytes one run processes; gives the throughput metric (MB/s). */
    throughputBytes: z.string().optional(),
    /**
     * No longer used (a program's imports are followed: plan/identify-inputs.ts). Still read, so a
     * base checkout from before can be paired with a newer head.
     */
    shared: z.array(z.string().min(1)).optional(),
    /**
     * Further rates, like throughput but for other units: {"lines_per_s": {"per": "input_lines",
     * "unit": "lines/s"}} -> metric lines_per_s, `per` units over each run's wall time. With
     * `time`, over a time the program reports itself instead (a reported field, in seconds, one
     * per run: runner "self"), so start-up is left out: {"io_throughput": {"per": "bytes / 1e6",
     * "time": "io_seconds", "unit": "MB/s"}}.
     */
    rates: z
      .record(
        name,
        z
          .object({
            per: z.string().min(1),
            unit: z.string().min(1),
            time: name.optional(),
            description: z.string().optional(),
          })
          .strict(),
      )
      .default({}),
    /**
     * A headline free of start-up: each point also runs at smaller input sizes (`scale` in derive
     * expressions takes each of `scales`; 1 is the point's own size), and a least-squares line
     * time = start-up + x × cost through all runs of all sizes gives the cost per operation (x is
     * a reported count, e.g. reads), its 95% interval and R², the start-up (the intercept), and,
     * with `bytes`, the steady-state throughput (bytes per second once started).
     */
    fit: z
      .object({
        scales: z.array(z.number().positive().max(1)).min(1),
        x: name,
        /** For variants that do not report x (system tools): an expression for it, e.g. the expected count. */
        expected: z.string().optional(),
        /** Expression for the bytes one run processes (at each scale): gives steady_throughput. */
        bytes: z.string().optional(),
        /**
         * The sizes (relative to the point's own) its instructions are counted at: the count per
         * operation is taken between the first and the last. Counting costs start-up, not size, so
         * a wide span past a JIT's warm-up may be larger than the timed one (default: the smallest
         * timed scale and 1).
         */
        countScales: z.array(z.number().positive().max(64)).min(2).optional(),
        /** Metric names: the cost per operation (ns), the start-up (s), the steady throughput (MB/s). */
        cost: name,
        startup: name.default('startup'),
        throughput: name.default('steady_throughput'),
        description: z.string().optional(),
      })
      .strict()
      .optional(),
    /** Fields the programs report in their JSON line; each becomes a metric. */
    reports: z.record(name, ReportedField).default({}),
    validate: z.array(CheckSchema).default([]),
    /** Why this experiment's instruction counts are evidence, not a verdict (its work depends on thread scheduling). */
    countsEvidence: z.string().min(1).max(300).optional(),
    variants: z.array(Variant).min(1),
    summary: z
      .object({
        at: At,
        metrics: z.array(z.string()).min(1),
        /**
         * Each row's metric divided by a reference row's: the variant `to` (same parameters),
         * and/or the same variant with the parameters in `at` changed (e.g. {"pool": 4}).
         */
        ratios: z
          .array(
            z
              .object({ metric: z.string(), to: id.optional(), at: z.record(name, paramValue).optional() })
              .strict()
              .refine((r) => r.to !== undefined || r.at !== undefined, {
                message: 'give `to` (a variant) and/or `at` (parameter values)',
              }),
          )
          .default([]),
        /**
         * The experiment's own questions, answered per scenario and variant: the metric at
         * `head` parameter values over the same benchmark at `base` values, tested on samples.
         */
        answers: z
          .array(
            z
              .object({
                question: z.string().min(1),
                metric: z.string().min(1),
                base: z.record(name, paramValue),
                head: z.record(name, paramValue),
              })
              .strict()
              .refine((a) => Object.keys(a.head).every((k) => k in a.base) && Object.keys(a.base).length > 0, {
                message: '`head` must change parameters that `base` sets',
              }),
          )
          .default([]),
      })
      .strict()
      .optional(),
    /**
     * Analyses across points, computed after the run into results.json and summary.md. "slope":
     * least-squares fit of a metric's value (median) over numeric parameter x, one fit per variant
     * and combination of every other parameter (mode, node version...), with intercept and R^2.
     */
    analyses: z.array(SlopeAnalysis).default([]),
    /**
     * The Overview's picture: the metric (or the first of several that the run has) against the
     * parameter `x` that answers the question, with `at` fixing others, `panels` splitting by one
     * more, reference variants drawn thin, and how the one-sentence answer is computed from it.
     */
    overview: Overview.optional(),
    /** What a reader calls the experiment's metrics ("cost per read"): the site never shows a key. */
    labels: z.record(name, z.string().min(1).max(40)).default({}),
    /** The few stable series fed to github-action-benchmark. */
    headline: z.object({ at: At, metrics: z.array(z.string()).min(1) }).strict(),
    /** The release suite (npm run releases; formats/parts/release-suite.ts). */
    releases: ReleaseSuite.optional(),
  })
  .strict();

export type Manifest = z.infer<typeof Manifest>;
export type Variant = Manifest['variants'][number];
export type Check = Manifest['validate'][number];
/** A cross-point analysis a manifest declares (computed after the run into results.json). */
export type ManifestAnalysis = Manifest['analyses'][number];
/** A point's parameter values: the one type of results.json, planned here. */

/** One experiment: its folder under programs/ (the folder name is its id) and its manifest. */
export interface Experiment {
  id: string;
  dir: string;
  manifestPath: string;
  manifest: Manifest;
}
