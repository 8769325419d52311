/**
 * The release sweep (`npm run releases -- measure`), as stages:
 *
 *   load the experiments' release suites -> what the store lacks, newest first (a release, or the
 *   suites its entry lacks: ../plan/sweep-plan.ts) -> per release:
 *   bench each suite under it (the bench pipeline: plan, build, run, validate, normalize; every
 *   point traced COUNTER_TRACES times, and its work counted under Valgrind — the C reference once
 *   per sweep, its count kept under its key in memory) -> its suite values,
 *   counters and counted work, its upstream date from the changelog its package ships -> publish
 *   it into the store's releases part
 *
 * Each release is published as soon as it is measured, so an interrupted sweep resumes where it
 * stopped. A release none of whose JavaScript points measured (it would not install, every answer
 * was wrong) is not published: it is reported, and tried again next time.
 */
import { join } from 'node:path';
import type { CountsMode } from '../../counts/count-jobs.js';
import { COUNT_STORE_SCHEMA, type CountStoreFile } from '../../formats/count-store-format.js';
import type { Experiment } from '../../formats/manifest-format.js';
import type { CounterPoint, ReleaseEntry, SuiteValue, WorkPoint } from '../../formats/release-store-format.js';
import type { Results } from '../../formats/results-format.js';
import { UserError } from '../../lib/errors.js';
import { formatDuration } from '../../lib/format.js';
import { cacheRoot } from '../../machine/cache-root.js';
import { commitInfo, machineInfo } from '../../machine/machine.js';
import type { Profile } from '../../model/profiles.js';
import type { Release } from '../../model/release-catalog.js';
import { bench } from '../../pipeline/bench.js';
import { loadAllExperiments } from '../../plan/experiments.js';
import { publishRelease, readReleaseIndex } from '../release-files.js';
import {
  hasSuite,
  type SuiteExperiment,
  suiteCounters,
  suiteFilters,
  suiteRuns,
  suiteValues,
  suiteWork,
} from '../suite-plan.js';
import { sweepPlans, withSuites } from '../sweep-plan.js';
import { upstreamDate } from './release-context.js';

export interface SweepOptions {
  root: string;
  storeDir: string;
  profile: Profile;
  releases: readonly Release[];
  /** Only these experiments' suites (default: every experiment with one). */
  experiments?: readonly string[];
  /** At most this many releases in this sweep (the rest stay for the next). */
  limit?: number;
  /** Where each release's bench runs write (results.json, summary.md per experiment). */
  workDir: string;
  /**
   * Which suite points' work is counted under Valgrind (default SWEEP_COUNTS). bench's filters
   * select only the suite, so "all" counts exactly its points, the reference beside them included.
   */
  counts?: Extract<CountsMode, 'all' | 'none'>;
  programsDir?: string;
  cacheDir?: string;
  log?: (m: string) => void;
}

export interface SweepResult {
  machine: string;
  measured: ReleaseEntry[];
  /** Releases that measured nothing, with why. */
  failed: { key: string; why: string }[];
  remaining: number;
  interrupted: boolean;
  /** Wall seconds per measured release, and of them the counting stages'. */
  seconds: number[];
  countSeconds: number[];
}

const tenths = (s: number) => Math.round(s * 10) / 10;

/**
 * Untimed strace runs per suite point and release. Counters are compared exactly between
 * releases, and two traces that agree are what lets a count be called exact at all: a count the
 * two runs disagree on (futex of a threaded runtime) is never a change.
 */
const COUNTER_TRACES = 2;

/**
 * A sweep counts the work of every suite point: the counts of consecutive releases are compared
 * exactly (releases/judge/work-changes.ts), and a count does not depend on how busy the
 * machine is, so every core counts at once after the timed runs.
 */
export const SWEEP_COUNTS = 'all' as const;

/** New points one release's bench may count: more than any suite has, so none waits for a later run. */
const SWEEP_COUNT_BUDGET = 10_000;

/** The experiments whose suites a sweep measures; a name without a suite is an error. */
export function suiteExperiments(all: readonly Experiment[], only?: readonly string[]): SuiteExperiment[] {
  const suites = all.filter(hasSuite);
  for (const id of only ?? [])
    if (!suites.some((e) => e.id === id))
      throw new UserError(
        `--experiments ${id}: no release suite; experiments with one: ${suites.map((e) => e.id).join(', ')}`,
      );
  return suites.filter((e) => !only?.length || only.includes(e.id));
}

/** What benching every suite under one release gave. */
interface Measured {
  results: Map<string, Results>;
  values: SuiteValue[];
  counters: CounterPoint[];
  work: WorkPoint[];
  problems: string[];
  /** Wall seconds its counting stages took. */
  countSeconds: number;
}

/** Benches every suite under one release; undefined when interrupted. */
async function measureOne(
  r: Release,
  suites: readonly SuiteExperiment[],
  opts: SweepOptions,
  sweepCounts: CountStoreFile,
): Promise<Measured | undefined> {
  const key = `${r.family}@${r.version}`;
  const results = new Map<string, Results>();
  const values: SuiteValue[] = [];
  const counters: CounterPoint[] = [];
  const work: WorkPoint[] = [];
  const problems: string[] = [];
  let countSeconds = 0;
  for (const e of suites) {
    const out = await bench({
      root: opts.root,
      profile: opts.profile,
      filters: suiteFilters(e, key),
      outDir: join(opts.workDir, r.line, r.version, e.id),
      require: [],
      traces: COUNTER_TRACES,
      counts: opts.counts ?? SWEEP_COUNTS,
      // The C reference is the same build under every release: counted once per sweep, then taken
      // from these counts by its key; every suite point is counted (no budget defers one).
      sweepCounts,
      countBudget: SWEEP_COUNT_BUDGET,
      ...suiteRuns(e),
      ...(opts.programsDir ? { programsDir: opts.programsDir } : {}),
      ...(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}),
      ...(opts.log ? { log: opts.log } : {}),
    });
    if (out.interrupted) return undefined;
    results.set(e.id, out.results);
    const got = suiteValues(e, out.results);
    values.push(...got.values);
    problems.push(...got.problems);
    counters.push(...suiteCounters(e, out.results, out.traces));
    const counted = suiteWork(e, out.results, out.counted);
    work.push(...counted.work);
    values.push(...counted.values);
    countSeconds += out.countSeconds;
  }
  return { results, values, counters, work, problems, countSeconds };
}

export async function measureReleases(opts: SweepOptions): Promise<SweepResult> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const experiments = loadAllExperiments(opts.programsDir ?? join(opts.root, 'programs'));
  const machine = machineInfo().id;
  const todo = sweepPlans(
    opts.releases,
    suiteExperiments(experiments, opts.experiments),
    suiteExperiments(experiments),
    readReleaseIndex(opts.storeDir, machine).releases,
    opts.profile,
    commitInfo(opts.root).sha,
  );
  const now = todo.slice(0, opts.limit ?? todo.length);
  const result: SweepResult = {
    machine,
    measured: [],
    failed: [],
    remaining: todo.length - now.length,
    interrupted: false,
    seconds: [],
    countSeconds: [],
  };
  log(
    `${now.length} release(s) to measure on ${machine} at profile ${opts.profile} (${todo.length - now.length} left for later)`,
  );
  const sweepCounts: CountStoreFile = { schema: COUNT_STORE_SCHEMA, counts: {} };
  for (const [i, { release: r, suites, keep }] of now.entries()) {
    const spent = result.seconds.reduce((a, b) => a + b, 0);
    const eta = i ? ` · ETA ${formatDuration((spent / i) * (now.length - i))}` : '';
    const adding = keep ? ` — adding ${suites.map((e) => e.id).join(', ')} to its entry` : '';
    log(`== release ${i + 1}/${now.length}: ${r.line} ${r.version} (${r.date.slice(0, 10)})${eta}${adding}`);
    const t0 = performance.now();
    const got = await measureOne(r, suites, opts, sweepCounts);
    if (!got) {
      result.interrupted = true;
      break;
    }
    result.seconds.push((performance.now() - t0) / 1000);
    result.countSeconds.push(got.countSeconds);
    const key = `${r.family}@${r.version}`;
    if (!got.values.some((v) => !v.reference)) {
      result.failed.push({ key, why: got.problems[0] ?? 'no suite point measured' });
      log(`   ${key}: nothing measured (${got.problems[0] ?? 'no suite point'}); not published, tried again next time`);
      continue;
    }
    const first = [...got.results.values()][0]!;
    const released = upstreamDate(join(opts.cacheDir ?? cacheRoot(), 'runtimes'), r.family, r.version);
    const fresh: ReleaseEntry = {
      family: r.family,
      line: r.line,
      version: r.version,
      date: r.date,
      ...(released ? { released } : {}),
      profile: opts.profile,
      measured: new Date().toISOString(),
      commit: first.run.commit.sha,
      experiments: [...got.results.keys()],
      problems: got.problems,
      values: got.values,
      ...(got.counters.length ? { counters: got.counters } : {}),
      ...(got.work.length ? { work: got.work } : {}),
      seconds: tenths(result.seconds.at(-1)!),
      ...(got.work.length ? { countSeconds: tenths(got.countSeconds) } : {}),
    };
    const entry = keep ? withSuites(keep, fresh) : fresh;
    await publishRelease(opts.storeDir, machine, entry, got.results);
    result.measured.push(entry);
    const counting = got.work.length ? `, ${formatDuration(got.countSeconds)} of it counting` : '';
    log(
      `   ${key}: published (${got.values.length} values${got.problems.length ? `, ${got.problems.length} problem(s)` : ''}) in ${formatDuration(result.seconds.at(-1)!)}${counting}`,
    );
  }
  return result;
}
