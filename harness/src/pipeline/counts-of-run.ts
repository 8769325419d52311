/**
 * A bench run's counted work (./bench.ts): the stored counts opened, the run's points counted
 * (./bench-counts.ts), then other profiles' (./count-profiles.ts), and the counts kept where the
 * run goes; what counting needs is refused before anything is measured.
 */
import type { CountedRun } from '../counts/count-rule.js';
import { readCountStore } from '../counts/count-store.js';
import {
  countsBefore,
  countsOfThisRun,
  type OpenedCounts,
  openStoredCounts,
  saveStoredCounts,
  writeRunCounts,
} from '../counts/stored-counts.js';
import type { Experiment } from '../formats/manifest-format.js';
import { UserError } from '../lib/errors.js';
import { commitInfo } from '../machine/machine.js';
import type { Job } from '../model/job.js';
import type { BuildResult } from '../run/build.js';
import { type CountStageResult, countStage, DEFAULT_COUNT_BUDGET } from './bench-counts.js';
import { type BenchOptions, checkoutOf } from './bench-options.js';
import { countProfiles } from './count-profiles.js';
import type { ResultsFile } from './results-file.js';
import { type CheckoutPlan, type Host, onInterrupt } from './setup.js';

/** The counting stage (./bench-counts.ts) under its own interrupt: the timed results are kept. */
async function countAll(
  jobs: readonly Job[],
  host: Host,
  file: ResultsFile,
  opts: BenchOptions & { stored: OpenedCounts; commit: string },
  log: (m: string) => void,
): Promise<CountStageResult> {
  const stop = onInterrupt(log, 'stopping the counts; the timed results are kept');
  try {
    return await countStage(
      jobs,
      host,
      file,
      {
        counts: opts.counts ?? 'headline',
        budget: opts.countBudget ?? DEFAULT_COUNT_BUDGET,
        stored: opts.stored,
        recheck: !opts.sweepCounts,
        commit: opts.commit,
      },
      log,
      () => stop.interrupted,
    );
  } finally {
    stop.dispose();
  }
}

/** The run's counts: the store's stored counts opened, then the counting stage (none after an interrupt). */
export async function countsOfRun(
  jobs: readonly Job[],
  host: Host,
  file: ResultsFile,
  o: {
    opts: BenchOptions;
    interrupted: boolean;
    toolchains: Record<string, string>;
    sandbox: string;
    cacheDir: string;
    /** For other profiles' points (`countProfiles`): the run's experiments and builds. */
    experiments: readonly Experiment[];
    builds: ReadonlyMap<string, BuildResult>;
  },
  log: (m: string) => void,
): Promise<{ stored: OpenedCounts; before: ReadonlyMap<string, string>; work: CountStageResult }> {
  const { opts } = o;
  const stored = openStoredCounts(
    {
      // A sweep's counts live in memory: nothing is written there (only a published run saves its store).
      storeDir: opts.storeDir ?? opts.countStoreDir ?? (opts.sweepCounts ? SWEEP_STORE : undefined),
      machine: host.machine.id,
      recount: opts.recount ?? false,
      sandbox: o.sandbox,
      tools: host.tools,
      toolchains: o.toolchains,
      cacheDir: o.cacheDir,
    },
    opts.storeDir || opts.countStoreDir ? undefined : opts.sweepCounts,
  );
  const before = countsBefore(stored);
  if (o.interrupted)
    return {
      stored,
      before,
      work: { interrupted: true, counted: new Map<string, CountedRun[]>(), seconds: 0, newKeys: 0 },
    };
  const commit = commitInfo(opts.root).sha;
  const work = await countAll(jobs, host, file, { ...opts, stored, commit }, log);
  if (work.interrupted || !opts.countProfiles?.length) return { stored, before, work };
  const others = { experiments: o.experiments, builds: o.builds, checkout: checkoutOf(opts, o.cacheDir) };
  return { stored, before, work: await withOtherProfiles(work, host, stored, { ...others, opts, commit }, log) };
}

/** What counting other profiles' points needs of the run (./count-profiles.ts). */
interface OtherProfiles {
  experiments: readonly Experiment[];
  checkout: CheckoutPlan;
  builds: ReadonlyMap<string, BuildResult>;
}

/** The other profiles' points counted after the run's own (`countProfiles`), under the same interrupt rule; said in the run's record. */
async function withOtherProfiles(
  work: CountStageResult,
  host: Host,
  stored: OpenedCounts,
  o: OtherProfiles & { opts: BenchOptions; commit: string },
  log: (m: string) => void,
): Promise<CountStageResult> {
  const { opts } = o;
  const others = (opts.countProfiles ?? []).filter((p) => p !== opts.profile);
  if (!others.length) return work;
  const budget = opts.countBudget ?? DEFAULT_COUNT_BUDGET;
  const stop = onInterrupt(log, 'stopping the counts; the timed results are kept');
  const t = performance.now();
  try {
    const profiles = await countProfiles(
      {
        experiments: o.experiments,
        filters: opts.filters,
        profiles: others,
        counts: opts.counts ?? 'headline',
        budgetLeft: budget - work.newKeys,
        commit: o.commit,
        checkout: o.checkout,
        builds: o.builds,
      },
      host,
      stored,
      log,
      () => stop.interrupted,
    );
    const record = work.record ?? emptyRecord(stored, budget);
    return {
      ...work,
      interrupted: stop.interrupted,
      seconds: work.seconds + (performance.now() - t) / 1000,
      ...(profiles.length ? { record: { ...record, profiles } } : {}),
    };
  } finally {
    stop.dispose();
  }
}

/** The run's counting record when its own points counted nothing. */
const emptyRecord = (stored: OpenedCounts, budget: number): NonNullable<CountStageResult['record']> => ({
  store: stored.ok ? 'reused' : `not reused: ${stored.why}`.slice(0, 200),
  ...{ reused: 0, counted: 0, deferred: 0, budget, rechecked: [], dropped: [] },
});

/**
 * The counts go into the store with the run that made them, never from a run it refused. Apart
 * from the store (`countStoreDir`), a whole run leaves the counts it made or re-checked in
 * <out>/counts.json for `npm run pages` (which refuses a partial run).
 */
export function keepCounts(
  opts: BenchOptions,
  outDir: string,
  run: { published: boolean; interrupted: boolean },
  stored: OpenedCounts,
  before: ReadonlyMap<string, string>,
): void {
  if (!stored.ok) return;
  if (run.published) saveStoredCounts(stored);
  else if (opts.countStoreDir && !opts.storeDir && !run.interrupted)
    writeRunCounts(outDir, countsOfThisRun(stored, before));
}

/** What a run's counting record names as its store when the counts are a sweep's, in memory. */
const SWEEP_STORE = "(the release sweep's counts, in memory)";

/** What counting needs, refused before anything is measured. */
export function checkCounting(opts: BenchOptions, host: Host): void {
  if (opts.require.includes('counts') && !host.tools.valgrind)
    throw new UserError(
      '--require counts: valgrind is not installed, so no work can be counted',
      'apt-get install valgrind',
    );
  // Read again after the timed runs; a file that cannot be used stops the run now, naming the field.
  if (opts.countStoreDir)
    readCountStore(opts.countStoreDir, host.machine.id, 'refusing the stored counts (--count-store): ');
}
