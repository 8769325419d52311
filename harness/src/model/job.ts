/**
 * A job: one benchmark point, fully resolved by plan before anything is measured — the exact
 * command and what its templates and checks see, the runtime, where it runs, how its cache is
 * evicted, what must be built first, and what identifies it. Build, run and normalize read jobs
 * and never write into them (they are frozen).
 */

import type { Check, Experiment, Manifest, Variant } from '../formats/manifest-format.js';
import type { Params } from '../formats/results-format.js';
import type { Scope } from '../lib/expr.js';
import type { Sandbox } from './sandbox.js';

/** How a job's program is run: the profile's runs, warm-ups and timeout (not its constants). */
type RunSettings = Readonly<Pick<Manifest['profiles']['quick'], 'runs' | 'warmup' | 'timeout'>>;

/** What a job needs built before it runs: the spec, its source and where the artifact will be. */
export interface JobBuild {
  /** One build per experiment and variant, shared by all of its jobs. */
  readonly key: string;
  readonly spec: NonNullable<Variant['build']>;
  readonly source: string;
  /**
   * The artifact in its entry of the content-keyed build cache (`<builds>/<E>/<V>/<key>/<name>`,
   * machine/cache-root.ts): outside every checkout, shared by every checkout with the same build.
   */
  readonly artifact: string;
  /**
   * Whether the entry's key names the build's content (plan/identify-inputs.ts buildIdentity): a
   * filled entry is used as it is. False where what the build reads cannot be known: its entry is
   * the checkout's own, made again on every run.
   */
  readonly keyed: boolean;
  /** Where every sandbox shows the entry (`/jsio/build/<E>/<V>`): the same path whichever entry it is. */
  readonly inside: string;
  /**
   * The checkout's own folder the build is also shown in (hard links to the entry's files): where
   * bench.yml uploads the static just(js) binary from (`workflow build-dir`).
   */
  readonly view?: string;
  /** The folder the build runs in (its experiment's): relative paths in flags and libraries resolve here. */
  readonly cwd: string;
  /** just(js) app builds: the config file that makes the program the binary's entry point. */
  readonly config?: string;
  /** The toolchain binary that builds it (gcc, just), when one is needed. */
  readonly tool?: { path: string; version: string };
}

/** The shell command of a job, in parts, so runners can put a measuring tool in front of the program. */
export interface JobCommand {
  /** The input generator whose stdout is piped into the program (manifest `input.pipe`). */
  readonly generator?: string;
  /** `taskset -c <cpus>` in front of the generator, as the placement says. */
  readonly generatorPin: string;
  /** Leading VAR=value assignments of the program's command: they stay in front of any wrapper. */
  readonly assignments: string;
  /** `taskset -c <cpus>` when the program is pinned. */
  readonly pin: string;
  readonly program: string;
}

export interface Job {
  readonly id: string;
  readonly experiment: Experiment;
  readonly variant: Variant;
  readonly params: Params;
  /** The point's derived values and its input's facts (input_<name>): recorded with the result. */
  readonly derived: Readonly<Record<string, number>>;
  /** Everything the command template, the checks and the evict paths can name. */
  readonly scope: Scope;
  readonly settings: RunSettings;
  /** The runtime key ("node@22", "bun", "gcc", a system tool) and the binary resolved for it. */
  readonly runtime: string;
  /** Hash of the program that runs: source, build, runtime version (plan/definition.ts). */
  readonly definition: string;
  /** Hash of the workload: parameters, derived values, input, checks, placement (plan/definition.ts). */
  readonly workload: string;
  /** Where the generator and the program ran, e.g. "split: generator on cpu 0, program on cpu 1". */
  readonly placement: string;
  /**
   * The generated input's content digest (plan/input-digest.ts): the paired diff compares inputs by
   * their bytes, not by their generator's text. Absent without a generator (or a generated input).
   */
  readonly inputDigest?: string;
  /**
   * The CPUs a timer starts the job's process tree on (the measured ones), with the taskset
   * that pins it; absent when placement is not applied.
   */
  readonly startOn?: { readonly taskset: string; readonly cpus: string };
  readonly runner: 'hyperfine' | 'self';
  readonly command: JobCommand;
  /** The directory commands run in (the experiment's folder). */
  readonly cwd: string;
  /** Scratch space the program may write to, emptied before and removed after the job. */
  readonly scratch: string;
  /**
   * The sandbox every process of the job runs in (its side's tree, caches and scratch at fixed
   * paths, a fixed environment); absent where bubblewrap cannot start (`bench` says so).
   */
  readonly sandbox?: Sandbox;
  readonly build?: JobBuild;
  /**
   * How its instructions are counted (counts/count-instructions.ts): the runtime's deterministic
   * settings (in words), their environment, and the commands at its own size and, for a fit,
   * its smallest and own sizes. Absent where the runtime has no such settings.
   */
  readonly counting?: {
    readonly settings: string;
    readonly env: Readonly<Record<string, string>>;
    readonly command: JobCommand;
    readonly sizes?: NonNullable<Job['sizes']>;
    /** The counted runs' own scratch folder (their {scratch}): counts of several points run at once. */
    readonly scratch: string;
  };
  /** Cold-cache jobs: the command that evicts (and verifies) the input's pages before each run. */
  readonly evict?: string;
  readonly checks: readonly Check[];
  /** Bytes one run processes (for throughput), when the manifest says. */
  readonly throughputBytes?: number;
  /** Further rates per second of wall time: units one run processes (manifest `rates`). */
  readonly rates: readonly {
    readonly name: string;
    readonly per: number;
    readonly unit: string;
    readonly time?: string;
  }[];
  /**
   * Fit experiments: the job at every size, smallest first, its own size last (scale 1); each
   * with the values its checks see and its command (manifest fit).
   */
  readonly sizes?: readonly {
    readonly scale: number;
    readonly scope: Scope;
    readonly command: JobCommand;
    readonly bytes?: number;
    readonly expected?: number;
  }[];
  /** Why the job is not run, decided before anything is measured (a missing runtime, input or tool). */
  readonly blocked?: { readonly status: 'skipped' | 'failed'; readonly reason: string; readonly hint?: string };
}

/** The job's whole shell command line, with `wrap` (a measuring tool) in front of the program. */
export function commandLine(job: Pick<Job, 'command'>, wrap = ''): string {
  const { generator, generatorPin, assignments, pin, program } = job.command;
  const wrapped = `${assignments}${pin}${wrap ? `${wrap} ` : ''}${program}`;
  return generator ? `${generatorPin}${generator} | ${wrapped}` : wrapped;
}

/** Freezes a job and what it holds, so no stage can write into it. */
export function freezeJob(job: Job): Job {
  for (const v of [job.params, job.derived, job.scope, job.settings, job.command, job.rates, job.checks, job.build])
    if (v) Object.freeze(v);
  return Object.freeze(job);
}
