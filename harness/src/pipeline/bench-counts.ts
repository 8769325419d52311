/**
 * `bench`'s counting stage: after the timed runs, the chosen points' work (counts/count-jobs.ts), taking
 * each count stored under its key where the store has it (counts/stored-counts.ts, counts/count-reuse.ts),
 * counting the new keys within the budget on every core, re-counting one reused point per deciding
 * family live, and dropping a family's stored counts where its re-check disagrees (its points are
 * then counted again). New counts go into the store's copy here; bench writes it when it
 * publishes the run.
 */

import {
  type CountResult,
  type CountsMode,
  countingFamily,
  countJobs,
  countResult,
  jobsToCount,
  withCountResult,
} from '../counts/count-jobs.js';
import {
  type Keyed,
  type ReusePlan as PlanOf,
  planReuse,
  recountAgrees,
  sameOperations,
} from '../counts/count-reuse.js';
import type { CountedRun } from '../counts/count-rule.js';
import { keyer, type OpenedCounts } from '../counts/stored-counts.js';
import { countsVaryOf, evidenceOf, VALGRIND_MISSING } from '../counts/under-valgrind.js';
import type { StoredCount } from '../formats/count-store-format.js';
import type { Results } from '../formats/results-format.js';
import { shellQuote } from '../lib/exec.js';
import type { Job } from '../model/job.js';
import { Progress } from './progress.js';
import type { ResultsFile } from './results-file.js';
import type { Host } from './setup.js';

/** Points counted per run at most, beyond those whose key is stored: a re-keying spreads over runs. */
export const DEFAULT_COUNT_BUDGET = 60;

export interface CountStageResult {
  interrupted: boolean;
  counted: Map<string, CountedRun[]>;
  seconds: number;
  /** Points counted because their key was new: what the run's own points spent of the budget. */
  newKeys: number;
  record?: NonNullable<Results['run']['counting']>;
}

type CountingRecord = NonNullable<CountStageResult['record']>;
type ReusePlan = PlanOf<Job>;
type Stored = OpenedCounts;

/** What the stage knows while it runs: the results file, the counts so far, the store's copy. */
interface Stage {
  host: Host;
  file: ResultsFile;
  counted: Map<string, CountedRun[]>;
  stored: Stored;
  commit: string;
  stopped: () => boolean;
  keys: Map<string, Keyed<Job>>;
}

/** The chosen jobs keyed (a point that cannot be counted has no key: it is counted every run). */
function keyedPoints(chosen: readonly Job[], stored: Stored): Keyed<Job>[] {
  const keyOf = stored.ok ? keyer(stored.facts) : undefined;
  return chosen.map((job) => ({
    job,
    id: job.id,
    key: keyOf && job.counting ? keyOf(job) : '',
    family: countingFamily(job),
    decides: !evidenceOf(job),
    ...(countsVaryOf(job) === undefined ? {} : { vary: countsVaryOf(job)! }),
  }));
}

/** Stored counts taken as they are (not the ones re-checked), and the points left for a later run said so. */
function takeStored(s: Stage, plan: ReusePlan, rechecks: ReadonlyMap<string, unknown>, budget: number): void {
  for (const r of plan.reuse) {
    if (rechecks.has(r.point.id)) continue;
    const w = countResult(r.point.job, r.stored.runs, 0);
    s.file.update(r.point.id, (b) => withStored(b, w));
    s.counted.set(r.point.id, r.stored.runs);
  }
  for (const p of plan.deferred)
    s.file.update(p.id, (b) => ({
      ...b,
      counts: {
        status: 'unavailable',
        reason: `not counted this run: the counting budget (${budget} new points per run) was spent first; a later run counts it`,
      },
    }));
}

/** A live count kept in the store's copy under its key. */
function remember(s: Stage, job: Job, w: CountResult): void {
  const p = s.keys.get(job.id);
  if (!s.stored.ok || !p?.key || w.counts.status !== 'ok' || !w.runs.length) return;
  s.stored.file.counts[p.key] = entry(p, w.runs, s.commit);
}

/** Counts the jobs on every core, with progress; each result goes into the results file, then to `done`. */
/** Counts `list` live, calling `done` for each; returns how many were counted (fewer when stopped). */
async function countLive(s: Stage, list: readonly Job[], done: (job: Job, w: CountResult) => void): Promise<number> {
  const { host } = s;
  const progress = new Progress(list.length);
  let finished = 0;
  // Every core: the harness pinned itself to one, and its children inherit that.
  const pin = host.cpus ? `${shellQuote(host.cpus.taskset)} -c ${host.cpus.all} ` : undefined;
  await countJobs(
    list,
    host.tools,
    { count: host.machine.cores, ...(pin ? { pin } : {}) },
    (job, w) => {
      finished++;
      done(job, w);
      s.file.update(job.id, (b) => withCountResult(b, w));
      if (w.runs.length) s.counted.set(job.id, w.runs);
      const params = Object.entries(job.params)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      progress.start(`counted ${job.experiment.id} › ${job.variant.id} › ${params}`);
      progress.finish(w.seconds / host.machine.cores, w.counts.status === 'ok' ? 'ok' : w.counts.reason);
    },
    s.stopped,
  );
  progress.end();
  return finished;
}

/**
 * A family whose re-check disagreed: its stored counts on this machine are dropped, the live
 * re-counts kept, and its other reused points counted again. Returns those points.
 */
async function dropAndRecount(
  s: Stage,
  plan: ReusePlan,
  rechecks: ReadonlyMap<string, unknown>,
  dropped: ReadonlySet<string>,
  disagreed: readonly [Job, CountResult][],
  log: (m: string) => void,
): Promise<{ planned: number; counted: number }> {
  if (!dropped.size || !s.stored.ok) return { planned: 0, counted: 0 };
  const counts = s.stored.file.counts;
  for (const [key, c] of Object.entries(counts)) if (dropped.has(c.family)) delete counts[key];
  for (const [job, w] of disagreed) remember(s, job, w);
  const again = plan.reuse.filter((r) => dropped.has(r.point.family) && !rechecks.has(r.point.id));
  log(
    `counts re-checked live disagreed with the stored ones for ${[...dropped].join(', ')}: their stored counts on this machine are dropped and ${again.length} point(s) counted again`,
  );
  const counted = s.stopped()
    ? 0
    : await countLive(
        s,
        again.map((r) => r.point.job),
        (job, w) => remember(s, job, w),
      );
  if (counted < again.length)
    log(`counts: stopped after ${counted} of the ${again.length} dropped point(s) were counted again`);
  return { planned: again.length, counted };
}

export async function countStage(
  jobs: readonly Job[],
  host: Host,
  file: ResultsFile,
  opts: { counts: CountsMode; budget: number; stored: OpenedCounts; commit: string; recheck?: boolean },
  log: (m: string) => void,
  stopped: () => boolean,
): Promise<CountStageResult> {
  const ok = new Set(file.benchmarks.filter((b) => b.status === 'ok').map((b) => b.id));
  const chosen = jobsToCount(
    jobs.filter((j) => ok.has(j.id)),
    opts.counts,
  );
  const counted = new Map<string, CountedRun[]>();
  if (!chosen.length) return { interrupted: false, counted, seconds: 0, newKeys: 0 };
  if (!host.tools.valgrind) log(VALGRIND_MISSING);
  const t = performance.now();
  const { stored } = opts;
  const points = keyedPoints(chosen, stored);
  const s: Stage = {
    host,
    file,
    counted,
    stored,
    commit: opts.commit,
    stopped,
    keys: new Map(points.map((p) => [p.id, p])),
  };
  // Without a usable store every chosen point is new; only points that can be counted are keyed.
  const plan = planReuse(
    points.filter((p) => p.key),
    stored.ok ? stored.file.counts : {},
    opts.budget,
    opts.recheck ?? true,
  );
  const unkeyed = points.filter((p) => !p.key);
  const rechecks = new Map(plan.recheck.map((r) => [r.point.id, r]));
  takeStored(s, plan, rechecks, opts.budget);
  const rechecked: CountingRecord['rechecked'] = [];
  const dropped = new Set<string>();
  // A re-check that disagreed is itself a live count: kept once its family's stored counts are dropped.
  const disagreed: [Job, CountResult][] = [];
  const live = await countLive(
    s,
    [...unkeyed, ...plan.count, ...plan.recheck.map((r) => r.point)].map((p) => p.job),
    (job, w) => {
      const r = rechecks.get(job.id);
      if (!r) return remember(s, job, w);
      // Another number of operations live: no comparison. The family keeps its counts, and the
      // checks of every stored point of that variant go up (its work follows the scheduler, at
      // any size), so that the next run re-checks another variant's point.
      if (w.counts.status === 'ok' && !sameOperations(r.stored.runs, w.runs)) {
        rechecked.push({ id: job.id, family: r.point.family, agreed: false, otherWork: true });
        if (stored.ok) passOver(stored.file.counts, job.id);
        return;
      }
      const agreed = w.counts.status === 'ok' && recountAgrees(r.point.family, r.stored.runs, w.runs, r.point.vary);
      rechecked.push({ id: job.id, family: r.point.family, agreed });
      if (agreed && stored.ok) stored.file.counts[r.point.key] = { ...r.stored, checks: r.stored.checks + 1 };
      else {
        dropped.add(r.point.family);
        disagreed.push([job, w]);
      }
    },
  );
  const again = await dropAndRecount(s, plan, rechecks, dropped, disagreed, log);
  sayWhatWaits(plan, opts.budget, log);
  // What was counted, not what was planned: an interrupted stage counted fewer, in either pass.
  const countedNow = live + again.counted;
  // A dropped family's points are no longer reused, whether or not they were counted again.
  const reused = plan.reuse.length - plan.recheck.length - again.planned;
  const seconds = (performance.now() - t) / 1000;
  log(
    `counts: ${reused} reused from the store, ${countedNow} counted in ${seconds.toFixed(0)} s${stored.ok ? '' : ` (stored counts not used: ${stored.why})`}`,
  );
  const record: CountingRecord = {
    store: stored.ok ? 'reused' : `not reused: ${stored.why}`.slice(0, 200),
    reused,
    counted: countedNow,
    deferred: plan.deferred.length,
    budget: opts.budget,
    rechecked,
    dropped: [...dropped],
    ...(plan.unchecked.length ? { unchecked: plan.unchecked } : {}),
  };
  return { interrupted: stopped(), counted, seconds, newKeys: plan.count.length, record };
}

/** What the plan left for a later run (the budget), and the families it reused without a re-check. */
function sayWhatWaits(plan: ReusePlan, budget: number, log: (m: string) => void): void {
  if (plan.deferred.length)
    log(
      `${plan.deferred.length} point(s) with new keys left for a later run: the counting budget of ${budget} new points per run was spent`,
    );
  if (plan.unchecked.length)
    log(
      `counts: ${plan.unchecked.join(', ')} reused without a live re-check: none of their stored points repeated steadily enough to stand for the family`,
    );
}

/** One more check on every stored count of the variant of point `id` (`experiment/variant/…`). */
function passOver(counts: Record<string, StoredCount>, id: string): void {
  const variant = id.split('/').slice(0, 2).join('/');
  for (const [key, c] of Object.entries(counts))
    if (c.id.split('/').slice(0, 2).join('/') === variant) counts[key] = { ...c, checks: c.checks + 1 };
}

function withStored(b: Parameters<typeof withCountResult>[0], w: CountResult) {
  const out = withCountResult(b, w);
  return out.counts?.status === 'ok' ? { ...out, counts: { ...out.counts, stored: true as const } } : out;
}

function entry(p: Keyed<Job>, runs: readonly CountedRun[], commit: string): StoredCount {
  return { id: p.id, family: p.family, runs: [...runs], commit, counted: new Date().toISOString(), checks: 0 };
}
