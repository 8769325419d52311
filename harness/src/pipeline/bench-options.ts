/**
 * What a bench run (./bench.ts) is asked and what it answers, and the checkout its options plan
 * (./setup.ts planCheckout): shared by the main job and its counting (./counts-of-run.ts).
 */
import type { CountsMode } from '../counts/count-jobs.js';
import type { CountedRun } from '../counts/count-rule.js';
import type { CountStoreFile } from '../formats/count-store-format.js';
import type { Results } from '../formats/results-format.js';
import { checkoutCache } from '../machine/cache-root.js';
import type { Profile } from '../model/profiles.js';
import type { Filters } from '../plan/plan.js';
import type { ProfileResult } from '../run/cpu-profile.js';
import type { SyscallCounts } from '../run/parse-strace.js';
import type { RawSamples } from '../run/runner.js';
import type { CheckoutPlan } from './setup.js';

export interface BenchOptions {
  root: string;
  profile: Profile;
  filters: Filters;
  outDir: string;
  /** Local history (the embedded default store); undefined to skip publishing. */
  storeDir?: string;
  /** Called after publishing to rebuild the local site; returns where it is. */
  buildSite?: (storeDir: string) => Promise<string>;
  require: string[];
  /** Refuse to run on a busy machine instead of warning. */
  strict?: boolean;
  /** Timed runs per benchmark, replacing the profile's. */
  runs?: number;
  /** Timed runs of some variants (by id), replacing `runs` for them (the release sweep's reference). */
  variantRuns?: Readonly<Record<string, number>>;
  programsDir?: string;
  /** The cache for runtimes, inputs, tools and builds; by default the harness's (machine/cache-root.ts). */
  cacheDir?: string;
  /**
   * Measure nothing: every benchmark is made by this harness's analysis from these raw samples (by
   * id; another run's raw-samples.json), so two harnesses can be handed the same raw output. No
   * build, count, trace or store: a reduced run is not a measurement.
   */
  reduce?: { commit: string; benchmarks: Readonly<Record<string, RawSamples>> };
  /** Which points' work is counted under Valgrind after the timed runs (counts/count-jobs.ts; default headline). */
  counts?: CountsMode;
  /** Count every chosen point again, taking nothing from the stored counts (`--recount`). */
  recount?: boolean;
  /** New points counted per run at most (./bench-counts.ts DEFAULT_COUNT_BUDGET). */
  countBudget?: number;
  /**
   * A trend store whose counts of this machine are read, never written, by a run added to no store
   * (main's runners: gh-pages' `data`, checked out read-only): the counts the run made or
   * re-checked go into <out>/counts.json, which `npm run pages` merges into the store.
   */
  countStoreDir?: string;
  /**
   * Counts kept in memory across the bench runs of one release sweep, never written: a point whose
   * key they hold (the C reference, the same build under every release) takes its count without
   * a re-check (minutes apart, on one machine, in one process); the run's new counts are added.
   */
  sweepCounts?: CountStoreFile;
  /** Also profile each measured JavaScript job once, untimed, under <out>/cpuprofiles (run/cpu-profile.ts). */
  profileCpu?: boolean;
  /**
   * Untimed strace runs per measured benchmark, the runner's own included (default 1): with two
   * or more, a count the runs disagree on can be told from one that changed (the release axis).
   */
  traces?: number;
  /**
   * Profiles whose points are traced once for the files they touch (./bench-traces.ts), kept in
   * <out>/traces.json and, with the run, in the store: the trusted plan of a pull request based on
   * this commit takes them (main's runners: their profile and the pull requests').
   */
  traceProfiles?: readonly Profile[];
  /**
   * Other profiles whose points are counted too, untimed, once per key (./count-profiles.ts): main's
   * runners count the pull requests' profile, whose bases the paired diff then takes from the store.
   * Their new keys share the counting budget with the run's own, which come first.
   */
  countProfiles?: readonly Profile[];
  log?: (msg: string) => void;
}

export interface BenchResult {
  results: Results;
  outDir: string;
  summary: string;
  /** The summary for a terminal (no markdown escapes). */
  summaryText: string;
  sitePath?: string;
  interrupted: boolean;
  /** Benchmarks planned (results hold fewer when interrupted). */
  planned: number;
  /** Whether the run was added to the store. */
  stored: boolean;
  /** With profileCpu: each profiled job's profile files, or why it has none. */
  profiles: { job: string; result: ProfileResult }[];
  /** Every traced run's syscall counts per benchmark id, when `traces` asked for more than one. */
  traces: Map<string, SyscallCounts[]>;
  /** Each counted benchmark's runs under Valgrind, by id: the counts behind its `instructions` metrics. */
  counted: Map<string, CountedRun[]>;
  /** Wall seconds the counting stage took (0 when nothing was counted). */
  countSeconds: number;
  /** Wall seconds the trace pass took (0 without --trace-profiles). */
  traceSeconds: number;
}

/** What planCheckout needs of a bench run. */
export function checkoutOf(opts: BenchOptions, cacheDir: string): CheckoutPlan {
  return {
    root: opts.root,
    cacheDir,
    // The checkout's builds and scratch in its own folder of the cache; under a cache given
    // (`cacheDir`: the tests), there.
    ...(opts.cacheDir ? {} : { jobCacheDir: checkoutCache(opts.root) }),
    evictorRoot: opts.root,
    require: opts.require,
    ...(opts.programsDir ? { programsDir: opts.programsDir } : {}),
    // `--require sandbox` (main's trend runs): no run measured without one reaches a trend.
    sandbox: opts.require.includes('sandbox') ? 'required' : 'preferred',
    ...(opts.runs ? { runs: opts.runs } : {}),
    ...(opts.variantRuns ? { variantRuns: opts.variantRuns } : {}),
    // The trace pass takes the inputs made here: made under a trace, it need not make them again.
    ...(opts.traceProfiles?.length ? { traceInputs: true } : {}),
  };
}
