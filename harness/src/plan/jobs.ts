/**
 * plan, second half: points -> jobs, once runtimes and inputs are known. Everything a job needs
 * is resolved here, once: its scope (constants, parameters, derived values, input facts, paths),
 * its command, runtime, placement, eviction, build and identity. A point that cannot run is a job
 * that says why (a missing runtime is "skipped" with the install hint; a failed input generator
 * is "failed"); `--require` makes a missing runtime an error before anything is measured.
 */
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { type Experiment, jsRuntimes, type Variant } from '../formats/manifest-format.js';
import { UserError } from '../lib/errors.js';
import { shellQuote } from '../lib/exec.js';
import { evaluate, fillTemplate, type Scope } from '../lib/expr.js';
import { translate } from '../machine/sandbox/argv.js';
import type { Resolved } from '../machine/toolchains.js';
import { freezeJob, type Job, type JobBuild, type JobCommand } from '../model/job.js';
import { familyOf, NATIVE_COUNTING } from '../model/runtime-families.js';
import { INSIDE, type Sandbox } from '../model/sandbox.js';
import { matchesAt } from '../model/select.js';
import { entryFor } from './build-reads.js';
import { recipeOf } from './build-recipe.js';
import { workloadHash } from './definition.js';
import { buildIdentity, measuredInputs } from './identify-inputs.js';
import { type InputResult, inputScope } from './inputs.js';
import type { Point } from './plan.js';

export interface PlanEnvironment {
  /** Every runtime key the points need (and gcc), resolved: installed, or why not. */
  runtimes: ReadonlyMap<string, Resolved>;
  /** Each point's input by point id, for experiments with a generator. */
  inputs: ReadonlyMap<string, InputResult>;
  cacheDir: string;
  /** The content-keyed build cache, shared by every checkout (machine/cache-root.ts); cacheDir/builds by default. */
  buildsDir?: string;
  /** Where the programs write their files ({scratch}/<experiment>/<variant>); cacheDir/scratch by default. */
  scratchDir?: string;
  /** taskset and the machine's CPU sets: the harness's, the measured programs', all of them. */
  cpus?: { taskset: string; harness: string; measured: string; all: string };
  /** The page-cache evictor, when it could be built. */
  evictTool?: string;
  /** Runtimes that must be available (`--require`). */
  require: readonly string[];
  /** The sandbox the checkout's processes run in, when one can start here. */
  sandbox?: Sandbox;
  /** Timed runs per job, replacing the profile's (`--runs`). */
  runs?: number;
  /** Timed runs of some variants (by id), replacing `runs` and the profile's for them. */
  variantRuns?: Readonly<Record<string, number>>;
}

/** A required runtime that is missing stops the run before anything is measured. */
function checkRequired(runtimes: ReadonlyMap<string, Resolved>, required: readonly string[]): void {
  for (const r of required) {
    for (const [name, res] of runtimes) {
      if ((name === r || name.startsWith(`${r}@`)) && !res.ok)
        throw new UserError(`required runtime ${name} is unavailable: ${res.reason}`, res.hint);
    }
  }
}

/** The artifact's file name in its build folder. */
function artifactName(variant: Variant): string | undefined {
  const spec = variant.build;
  if (!spec || !variant.source) return undefined;
  switch (spec.kind) {
    case 'gcc':
      return variant.id;
    case 'just-static':
      // The builder writes ./<name> beside <name>.js.
      return basename(variant.source, '.js');
    case 'esbuild':
      return `${variant.id}.mjs`;
  }
}

/** Build keys carry their scheme: a change to what the key covers makes every entry anew. */
const BUILD_SCHEME = 'b1';

/**
 * The key of a variant's build in the content-keyed cache: the digest of what the build reads
 * (buildIdentity), the builder's version, how the harness runs it (its recipe: a harness that
 * builds otherwise makes its own), and where the build sees its folder (the fixed path in a
 * sandbox; the checkout's own path without one, since a compiler may write it into the artifact).
 * Where what it reads is unknown, a key of the checkout's own (`unkeyed-`): made again every run.
 */
function buildKey(
  point: Point,
  env: PlanEnvironment,
  tool: string | undefined,
  name: string,
): { key: string; keyed: boolean } {
  const { experiment: exp, variant } = point;
  const where = env.sandbox ? translate(exp.dir, env.sandbox.roots) : exp.dir;
  const id = buildIdentity(exp, variant);
  const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
  if (!id.ok) return { key: `unkeyed-${digest(`${exp.dir}\0${where}`)}`, keyed: false };
  const recipe = recipeOf(variant.build!, name);
  return { key: `${BUILD_SCHEME}-${digest(JSON.stringify({ id: id.digest, tool, where, recipe }))}`, keyed: true };
}

function jobBuild(point: Point, env: PlanEnvironment): JobBuild | undefined {
  const { experiment: exp, variant } = point;
  const spec = variant.build;
  const name = artifactName(variant);
  if (!spec || !variant.source || !name) return undefined;
  const toolKey = spec.kind === 'gcc' ? 'gcc' : spec.kind === 'just-static' ? 'just' : undefined;
  const tool = toolKey ? env.runtimes.get(toolKey) : undefined;
  const { key, keyed } = buildKey(point, env, tool?.ok ? `${toolKey} ${tool.version}` : toolKey, name);
  const builds = env.buildsDir ?? join(env.cacheDir, 'builds');
  const entry = join(builds, exp.id, variant.id, key);
  return {
    key: `${exp.id}/${variant.id}`,
    spec,
    source: join(exp.dir, variant.source),
    // A file only a trace saw the build read, changed here: an entry of this checkout's copy.
    artifact: join(keyed ? entryFor(entry, exp.dir) : entry, name),
    keyed,
    inside: `${INSIDE.build}/${exp.id}/${variant.id}`,
    view: join(env.cacheDir, 'build', exp.id, variant.id),
    // The build runs in its experiment's folder of its own checkout: relative paths in flags and
    // libraries resolve there, so each side of a paired diff builds from its own files.
    cwd: exp.dir,
    ...(spec.kind === 'just-static' ? { config: join(exp.dir, spec.config) } : {}),
    ...(tool?.ok ? { tool: { path: tool.path, version: tool.version } } : {}),
  };
}

/** A job's sandbox: its side's, with the job's build entry shown at its fixed path (read-only). */
function jobSandbox(sandbox: Sandbox | undefined, build: JobBuild | undefined): Sandbox | undefined {
  if (!sandbox || !build) return sandbox;
  return Object.freeze({
    ...sandbox,
    roots: [...sandbox.roots, { host: dirname(build.artifact), inside: build.inside }],
  });
}

/** Values are quoted into commands, except {js}: it is a command line already (runtime, flags, file). */
export const quoteValue = (v: string, name: string) => (name === 'js' ? v : shellQuote(v));

/** How each JavaScript runtime runs a program file (its family's invocation): `{js}` in a command template. */
function jsInvocation(runtimeKey: string, path: string, script: string, extra: readonly string[] = []): string {
  const args = familyOf(runtimeKey)?.invocation ?? [];
  return [path, ...args, ...extra, script].map(shellQuote).join(' ');
}

/**
 * The commands a point's instructions are counted with (counts/count-instructions.ts): a JavaScript
 * runtime's deterministic settings in its invocation and environment, at the point's own size and,
 * for a fit, its smallest too. Undefined where the runtime has no such settings.
 */
function jobCounting(
  point: Point,
  scope: Scope,
  script: string | undefined,
  rt: { ok: true; path: string } | undefined,
  commandFor: (sc: Scope) => JobCommand,
  runnable: boolean,
): Job['counting'] {
  const js = jsRuntimes(point.variant) !== undefined;
  const settings = js ? familyOf(point.runtime)?.counting : NATIVE_COUNTING;
  if (!settings || !runnable) return undefined;
  const args = settings.args ?? [];
  const countScope: Scope =
    js && rt && script ? { ...scope, js: jsInvocation(point.runtime, rt.path, script, args) } : scope;
  // A static just(js) app takes V8's flags on its own command line, after the binary.
  const bin =
    point.variant.build?.kind === 'just-static' && typeof scope.bin === 'string' ? shellQuote(scope.bin) : undefined;
  const withFlags = (c: JobCommand): JobCommand =>
    bin && args.length ? { ...c, program: c.program.replace(bin, [bin, ...args.map(shellQuote)].join(' ')) } : c;
  const m = point.experiment.manifest;
  const sizes = point.countSizes?.map(({ scale, derived: d }) => {
    const sc: Scope = { ...countScope, ...d, scale };
    return {
      scale,
      scope: sc,
      command: withFlags(commandFor(sc)),
      ...(m.fit?.bytes ? { bytes: evaluate(m.fit.bytes, sc) } : {}),
      ...(m.fit?.expected ? { expected: evaluate(m.fit.expected, sc) } : {}),
    };
  });
  return {
    settings: settings.counts,
    env: settings.env ?? {},
    scratch: String(scope.scratch),
    command: withFlags(commandFor(countScope)),
    ...(sizes && sizes.length >= 2 ? { sizes: [sizes[0]!, sizes.at(-1)!] } : {}),
  };
}

/** A point's own scratch folder for its counted runs, beside its variant's (counts of several points run at once). */
const countScratch = (scratch: string, id: string) =>
  `${scratch}.counts-${createHash('sha256').update(id).digest('hex').slice(0, 12)}`;

/** The command's leading VAR=value assignments stay in front of taskset and any measuring tool. */
export function splitAssignments(program: string): { assignments: string; rest: string } {
  const [, assignments = '', rest = program] = /^((?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*)([\s\S]*)$/.exec(program) ?? [];
  return { assignments, rest };
}

/** The taskset prefixes of the generator and the program under the manifest's placement. */
export function placementOf(
  kind: Experiment['manifest']['placement'],
  cpus: PlanEnvironment['cpus'],
): { generator: string; program: string; text: string; startOn?: { taskset: string; cpus: string } } {
  if (!cpus) return { generator: '', program: '', text: `${kind}: not applied (one core, or no taskset)` };
  // Where a timed process tree starts (its shell, before taskset moves the programs): on the
  // measured cores, not the harness's. A shell forked on the harness's core waits behind any load
  // there before it starts the program, and the wait is timed (docs/reading-results.md).
  const startOn = (set: string) => ({ taskset: cpus.taskset, cpus: set });
  const on = (set: string) => `${shellQuote(cpus.taskset)} -c ${set} `;
  switch (kind) {
    case 'split':
      return {
        generator: on(cpus.harness),
        program: on(cpus.measured),
        text: `split: generator on cpu ${cpus.harness}, program on cpu ${cpus.measured}`,
        startOn: startOn(cpus.measured),
      };
    case 'shared':
      return {
        generator: on(cpus.measured),
        program: on(cpus.measured),
        text: `shared: generator and program on cpu ${cpus.measured}`,
        startOn: startOn(cpus.measured),
      };
    case 'none':
      // Children inherit the harness's own pinning: widen it back to every core.
      return {
        generator: on(cpus.all),
        program: on(cpus.all),
        text: `none: generator and program on cpus ${cpus.all}`,
        startOn: startOn(cpus.all),
      };
  }
}

export function planJob(point: Point, env: PlanEnvironment): Job {
  const { experiment: exp, variant } = point;
  const m = exp.manifest;
  const rt = env.runtimes.get(point.runtime);
  const input = m.generate ? env.inputs.get(point.id) : undefined;
  const build = jobBuild(point, env);
  const sandbox = jobSandbox(env.sandbox, build);
  const scratch = join(env.scratchDir ?? join(env.cacheDir, 'scratch'), exp.id, variant.id);
  const inputFacts = inputFactsOf(input);
  const derived = { ...point.derived, ...inputFacts };
  const js = jsRuntimes(variant) !== undefined;
  // The program a JavaScript runtime runs: its esbuild bundle when it has one, else its source.
  const script =
    build?.spec.kind === 'esbuild' ? build.artifact : variant.source ? join(exp.dir, variant.source) : undefined;
  const scope: Scope = {
    ...point.settings.constants,
    ...point.params,
    ...point.derived,
    scale: 1,
    ...(input?.ok ? inputScope(input) : {}),
    scratch,
    dir: exp.dir,
    ...(variant.source ? { src: join(exp.dir, variant.source) } : {}),
    ...(build ? { bin: build.artifact } : {}),
    ...(js && rt?.ok
      ? { runtime: rt.path, ...(script ? { js: jsInvocation(point.runtime, rt.path, script) } : {}) }
      : {}),
  };
  const blocked = whyBlocked(point, rt, input);
  const placement = placementOf(m.placement, env.cpus);
  const coldPoint = m.evict !== undefined && matchesAt(point, m.evict.when);
  const evictBlocked = evictionBlocked(blocked, coldPoint, env);
  const commandFor = jobCommandFor(m, variant, placement, blocked, scope);
  const runnable = !blocked && !evictBlocked;
  const sizes = jobSizes(point, scope, commandFor, runnable);
  const counting = jobCounting(
    point,
    { ...scope, scratch: countScratch(scratch, point.id) },
    script,
    rt?.ok ? rt : undefined,
    commandFor,
    runnable,
  );
  return freezeJob({
    id: point.id,
    experiment: exp,
    variant,
    params: point.params,
    derived,
    scope,
    settings: jobSettings(point, env),
    runtime: point.runtime,
    definition: definitionOf(point),
    workload: jobWorkload(point, derived, placement.text),
    placement: placement.text,
    ...(input?.ok && input.digest ? { inputDigest: input.digest } : {}),
    ...(placement.startOn ? { startOn: placement.startOn } : {}),
    runner: m.runner,
    command: commandFor(scope),
    ...(sizes ? { sizes } : {}),
    ...(counting ? { counting } : {}),
    cwd: exp.dir,
    scratch,
    ...(sandbox ? { sandbox } : {}),
    ...(build ? { build } : {}),
    ...(runnable && coldPoint && env.evictTool
      ? {
          evict: [shellQuote(env.evictTool), ...m.evict!.paths.map((p) => fillTemplate(p, scope, shellQuote))].join(
            ' ',
          ),
        }
      : {}),
    checks: m.validate,
    ...(runnable && m.throughputBytes ? { throughputBytes: evaluate(m.throughputBytes, scope) } : {}),
    rates: jobRates(m, scope, runnable),
    ...(blocked || evictBlocked ? { blocked: blocked ?? evictBlocked } : {}),
  });
}

/** How often a point runs: a variant's own count, else the run's, else the manifest's. */
function jobSettings(point: Point, env: PlanEnvironment): Job['settings'] {
  const { variantRuns } = env;
  const own = variantRuns && Object.hasOwn(variantRuns, point.variant.id) ? variantRuns[point.variant.id] : undefined;
  return {
    runs: own ?? env.runs ?? point.settings.runs,
    warmup: point.settings.warmup,
    timeout: point.settings.timeout,
  };
}

/** A generated input's numeric facts, as the names expressions see them (input_<fact>). */
function inputFactsOf(input: InputResult | undefined): Record<string, number> {
  return input?.ok
    ? Object.fromEntries(
        Object.entries(input.facts)
          .filter((e): e is [string, number] => typeof e[1] === 'number')
          .map(([k, v]) => [`input_${k}`, v]),
      )
    : {};
}

/** Why a point cannot run: its runtime is missing, or its input could not be generated. */
function whyBlocked(point: Point, rt: Resolved | undefined, input: InputResult | undefined): Job['blocked'] {
  const m = point.experiment.manifest;
  return !rt?.ok
    ? {
        // Found, but not the pinned version: the point is broken here, never measured with another.
        status: rt && 'broken' in rt && rt.broken ? 'failed' : 'skipped',
        reason: rt?.reason ?? `${point.runtime} was not resolved`,
        ...(rt?.hint ? { hint: rt.hint } : {}),
      }
    : m.generate && !input
      ? { status: 'failed', reason: 'its input was not generated (a bug in the harness)' }
      : input && !input.ok
        ? { status: 'failed', reason: input.reason }
        : undefined;
}

/** A cold-cache point that could run but has no page-cache evictor is skipped. */
function evictionBlocked(blocked: Job['blocked'], coldPoint: boolean, env: PlanEnvironment): Job['blocked'] {
  return !blocked && coldPoint && !env.evictTool
    ? {
        status: 'skipped',
        reason: 'cold cache: the page-cache evictor could not be built (is gcc installed? apt-get install gcc)',
      }
    : undefined;
}

/** A scope's command lines: the generator's and the program's, under the manifest's placement. */
function jobCommandFor(
  m: Experiment['manifest'],
  variant: Variant,
  placement: ReturnType<typeof placementOf>,
  blocked: Job['blocked'],
  scope: Scope,
): (sc: Scope) => JobCommand {
  // A job that cannot run still shows its command; what is missing stays a {placeholder}.
  const fill = (t: string, sc: Scope = scope) => fillTemplate(t, sc, quoteValue, { keepUnknown: !!blocked });
  return (sc: Scope): JobCommand => {
    const { assignments, rest } = splitAssignments(fill(variant.command, sc));
    return {
      ...(m.input ? { generator: fill(m.input.pipe, sc) } : {}),
      generatorPin: placement.generator,
      assignments,
      pin: placement.program,
      program: rest,
    };
  };
}

function jobSizes(point: Point, scope: Scope, commandFor: (sc: Scope) => JobCommand, runnable: boolean): Job['sizes'] {
  const m = point.experiment.manifest;
  // Fit experiments also run each point at smaller sizes (its own size last).
  return m.fit
    ? [...point.smaller, { scale: 1, derived: point.derived }].map(({ scale, derived: d }) => {
        const sc: Scope = { ...scope, ...d, scale };
        return {
          scale,
          scope: sc,
          command: commandFor(sc),
          ...(runnable && m.fit?.bytes ? { bytes: evaluate(m.fit.bytes, sc) } : {}),
          ...(runnable && m.fit?.expected ? { expected: evaluate(m.fit.expected, sc) } : {}),
        };
      })
    : undefined;
}

function jobWorkload(point: Point, derived: Record<string, number>, placementText: string): string {
  const exp = point.experiment;
  // Every size a fit runs at is part of what the point measures.
  return workloadHash(
    exp,
    point.params,
    {
      ...derived,
      ...Object.fromEntries(
        point.smaller.flatMap((s) => Object.entries(s.derived).map(([k, v]) => [`${k}@${s.scale}`, v])),
      ),
    },
    placementText,
  );
}

function jobRates(m: Experiment['manifest'], scope: Scope, runnable: boolean): Job['rates'] {
  return runnable
    ? Object.entries(m.rates).map(([name, r]) => ({
        name,
        per: evaluate(r.per, scope),
        unit: r.unit,
        ...(r.time ? { time: r.time } : {}),
      }))
    : [];
}

/** Every point as a job, in plan order; fails first if a required runtime is missing. */
/** Benchmark.definition: the point's measured-input identity, or "unknown" when it cannot be proven. */
function definitionOf(point: Point): string {
  const id = measuredInputs(point);
  return id.ok ? id.digest : 'unknown';
}

export function planJobs(points: readonly Point[], env: PlanEnvironment): Job[] {
  checkRequired(env.runtimes, env.require);
  return points.map((p) => planJob(p, env));
}
