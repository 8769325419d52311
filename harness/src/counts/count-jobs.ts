/**
 * Counting a set of points (bench's counting stage pipeline/bench-counts.ts, the paired diff's
 * stored base and the release sweep call it): their work is counted under Valgrind
 * (./count-instructions.ts) on every core at once (a count does not depend on load), and the
 * benchmarks get the `instructions` metrics and a `counts` record.
 *
 * Which points: "headline" (the default) takes, in each experiment, one headline point
 * (manifest `headline.at`) per runtime family — C, each JavaScript runtime, a just(js) script and
 * its static app, a system tool — so every family is counted on every run at a small cost; "all"
 * counts every point that ran; "none" counts nothing. A fit point is counted at its smallest and its
 * own size (instructions per operation, start-up cancelled) and once more at its own size; any other
 * point twice at its own size (per run, start-up included): the repeat says whether its counts are
 * deterministic here.
 */

import type { Benchmark, Counts, Metric } from '../formats/results-format.js';
import type { Tools } from '../machine/tools.js';
import type { Job } from '../model/job.js';
import { HARNESS_METRICS } from '../model/metrics.js';
import { familyOf } from '../model/runtime-families.js';
import { matchesAt } from '../model/select.js';
import { countInstructions } from './count-instructions.js';
import { COUNT_TOLERANCE, type CountedRun, pointCounts } from './count-rule.js';
import { evidenceOf, VALGRIND_MISSING } from './under-valgrind.js';

export const COUNTS_MODES = ['headline', 'all', 'none'] as const;
export type CountsMode = (typeof COUNTS_MODES)[number];

/** The family a point's work is counted for: a static just(js) app apart from just(js) scripts. */
export function countingFamily(job: Pick<Job, 'variant' | 'runtime'>): string {
  if (job.variant.build?.kind === 'just-static') return 'just-static';
  if (job.variant.runtime === 'native') return 'native';
  if (job.variant.runtime === 'system') return 'system';
  return familyOf(job.runtime)?.key ?? job.runtime;
}

/** The jobs to count, in plan order. */
export function jobsToCount(jobs: readonly Job[], mode: CountsMode): Job[] {
  const runnable = jobs.filter((j) => !j.blocked);
  if (mode === 'none') return [];
  if (mode === 'all') return runnable;
  const seen = new Set<string>();
  return runnable.filter((j) => {
    const at = j.experiment.manifest.headline?.at;
    if (at && !matchesAt(j, at)) return false;
    const key = `${j.experiment.id}\0${countingFamily(j)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The counted runs a job needs: a fit's smallest and largest counted size (instructions per
 * operation), the largest twice; any other point twice at its own size. The repeat says whether
 * its counts are deterministic here.
 */
function plannedRuns(job: Job) {
  const sizes = job.counting?.sizes;
  if (!sizes) return [{ size: 'own' as const }, { size: 'own' as const }];
  const [small, large] = [sizes[0]!, sizes.at(-1)!];
  return [
    { size: 'small' as const, at: small },
    { size: 'large' as const, at: large },
    { size: 'large' as const, at: large },
  ];
}

/** A job's counted work: its metrics, how it was counted, and the counted runs behind them (none when unavailable). */
export type CountResult = { metrics: Record<string, Metric>; counts: Counts; runs: CountedRun[]; seconds: number };

/** Counts one job's runs and makes its metrics, or says why it could not. */
async function countJob(job: Job, tools: Tools, pin?: string): Promise<CountResult> {
  const runs: CountedRun[] = [];
  let seconds = 0;
  const fitX = job.experiment.manifest.fit?.x;
  for (const planned of plannedRuns(job)) {
    const c = await countInstructions(job, tools, 'at' in planned ? planned.at : undefined, pin);
    seconds += c.seconds;
    if (!c.ok)
      return { metrics: {}, counts: { status: 'unavailable', reason: c.reason.slice(0, 2000) }, runs: [], seconds };
    const x = fitX ? (c.fields[fitX] ?? ('at' in planned ? planned.at.expected : undefined)) : undefined;
    runs.push({ size: planned.size, instructions: c.instructions, ...(x !== undefined ? { x } : {}) });
  }
  return countResult(job, runs, seconds);
}

/** A job's metrics and counts record from its counted runs (made now, or stored under its key). */
export function countResult(job: Job, runs: CountedRun[], seconds: number): CountResult {
  const work = pointCounts(runs);
  if (!work)
    return {
      metrics: {},
      counts: {
        status: 'unavailable',
        reason: 'counts unavailable: the counted sizes made the same number of operations',
      },
      runs,
      seconds,
    };
  const metric = (name: 'instructions' | 'instructions_per_op', value: number): Metric => ({
    unit: HARNESS_METRICS[name].unit,
    direction: HARNESS_METRICS[name].direction,
    value,
    deterministic: false,
    source: 'valgrind',
  });
  const evidence = evidenceOf(job);
  const because = evidence?.because;
  return {
    metrics: {
      ...(work.perRun !== undefined ? { instructions: metric('instructions', work.perRun) } : {}),
      ...(work.perOp !== undefined ? { instructions_per_op: metric('instructions_per_op', work.perOp) } : {}),
    },
    counts: {
      status: 'ok',
      settings: job.counting!.settings.slice(0, 300),
      role: because ? 'evidence' : 'decides',
      ...(because ? { because: because.slice(0, 300) } : {}),
      ...(evidence?.codeChangesOnly ? { evidenceFor: 'code-changes' as const } : {}),
      spread: work.spread,
      tolerance: COUNT_TOLERANCE,
      repeats: work.repeats,
      deterministic: work.spread <= COUNT_TOLERANCE,
      ...(work.unmeasurable ? { unmeasurable: work.unmeasurable } : {}),
    },
    runs,
    seconds,
  };
}

/**
 * Counts `jobs` with `parallel` at a time; `done` is told each result as it comes. Without
 * Valgrind every job's counts are unavailable with the install hint, and nothing runs.
 */
export async function countJobs(
  jobs: readonly Job[],
  tools: Tools,
  parallel: { count: number; pin?: string },
  done: (job: Job, result: CountResult) => void,
  stopped: () => boolean = () => false,
): Promise<void> {
  if (!tools.valgrind) {
    for (const j of jobs)
      done(j, { metrics: {}, counts: { status: 'unavailable', reason: VALGRIND_MISSING }, runs: [], seconds: 0 });
    return;
  }
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job && !stopped(); job = queue.shift())
      done(job, await countJob(job, tools, parallel.pin));
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel.count, jobs.length)) }, worker));
}

/** A benchmark with its counted work added. */
export function withCountResult(b: Benchmark, w: CountResult): Benchmark {
  return { ...b, metrics: { ...b.metrics, ...w.metrics }, counts: w.counts };
}
