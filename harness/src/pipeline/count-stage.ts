/**
 * `bench`'s counting stage: after the timed runs, the chosen points' work (./count-work.ts), taking
 * each count stored under its key where the store has it (./stored-counts.ts, ./count-reuse.ts),
 * counting the new keys within the budget on every core, re-counting one reused point per deciding
 * family live, and dropping a family's stored counts where its re-check disagrees (its points are
 * then counted again). New counts go into the store's copy here; bench writes it when it
 * publishes the run.
 */
import type { CountedRun } from '../analysis/work.js';
import { shellQuote } from '../lib/exec.js';
import type { StoredCount } from '../model/count-store-schema.js';
import type { Job } from '../model/job.js';
import type { Results } from '../model/results.js';
import { evidenceOf, VALGRIND_MISSING } from '../run/under-valgrind.js';
import { type Keyed, planReuse, recountAgrees } from './count-reuse.js';
import {
  type CountsMode,
  countingFamily,
  countWork,
  jobsToCount,
  type WorkResult,
  withWork,
  workResult,
} from './count-work.js';
import { Progress } from './progress.js';
import type { ResultsFile } from './results-file.js';
import type { Host } from './setup.js';
import { keyer, type OpenedCounts } from './stored-counts.js';

/** Points counted per run at most, beyond those whose key is stored: a re-keying spreads over runs. */
export const DEFAULT_COUNT_BUDGET = 60;

export interface CountStageResult {
  interrupted: boolean;
  counted: Map<string, CountedRun[]>;
  seconds: number;
  record?: NonNullable<Results['run']['counting']>;
}

export async function countStage(
  jobs: readonly Job[],
  host: Host,
  file: ResultsFile,
  opts: { counts: CountsMode; budget: number; stored: OpenedCounts; commit: string },
  log: (m: string) => void,
  stopped: () => boolean,
): Promise<CountStageResult> {
  const ok = new Set(file.benchmarks.filter((b) => b.status === 'ok').map((b) => b.id));
  const chosen = jobsToCount(
    jobs.filter((j) => ok.has(j.id)),
    opts.counts,
  );
  const counted = new Map<string, CountedRun[]>();
  if (!chosen.length) return { interrupted: false, counted, seconds: 0 };
  if (!host.tools.valgrind) log(VALGRIND_MISSING);
  const t = performance.now();
  const stored = opts.stored;
  const keyOf = stored.ok ? keyer(stored.facts) : undefined;
  const points: Keyed<Job>[] = chosen.map((job) => ({
    job,
    id: job.id,
    key: keyOf && job.counting ? keyOf(job) : '',
    family: countingFamily(job),
    decides: !evidenceOf(job),
  }));
  // Without a usable store every chosen point is new; only points that can be counted are keyed.
  const storedCounts = stored.ok ? stored.file.counts : {};
  const plan = planReuse(
    points.filter((p) => p.key),
    storedCounts,
    opts.budget,
  );
  const unkeyed = points.filter((p) => !p.key);
  const rechecks = new Map(plan.recheck.map((r) => [r.point.id, r]));
  for (const r of plan.reuse) {
    if (rechecks.has(r.point.id)) continue;
    const w = workResult(r.point.job, r.stored.runs, 0);
    file.update(r.point.id, (b) => withStored(b, w));
    counted.set(r.point.id, r.stored.runs);
  }
  for (const p of plan.deferred)
    file.update(p.id, (b) => ({
      ...b,
      counts: {
        status: 'unavailable',
        reason: `not counted this run: the counting budget (${opts.budget} new points per run) was spent first; a later run counts it`,
      },
    }));
  const rechecked: NonNullable<CountStageResult['record']>['rechecked'] = [];
  const dropped = new Set<string>();
  // A re-check that disagreed is itself a live count: kept once its family's stored counts are dropped.
  const disagreed: [Job, WorkResult][] = [];
  const keys = new Map(points.map((p) => [p.id, p]));
  const remember = (job: Job, w: WorkResult) => {
    const p = keys.get(job.id);
    if (!stored.ok || !p?.key || w.counts.status !== 'ok' || !w.runs.length) return;
    stored.file.counts[p.key] = entry(p, w.runs, opts.commit);
  };
  const run = async (list: readonly Job[], done: (job: Job, w: WorkResult) => void) => {
    const progress = new Progress(list.length);
    // Every core: the harness pinned itself to one, and its children inherit that.
    const pin = host.cpus ? `${shellQuote(host.cpus.taskset)} -c ${host.cpus.all} ` : undefined;
    await countWork(
      list,
      host.tools,
      { count: host.machine.cores, ...(pin ? { pin } : {}) },
      (job, w) => {
        done(job, w);
        file.update(job.id, (b) => withWork(b, w));
        if (w.runs.length) counted.set(job.id, w.runs);
        progress.start(
          `counted ${job.experiment.id} › ${job.variant.id} › ${Object.entries(job.params)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`,
        );
        progress.finish(w.seconds / host.machine.cores, w.counts.status === 'ok' ? 'ok' : w.counts.reason);
      },
      stopped,
    );
    progress.end();
  };
  await run(
    [...unkeyed, ...plan.count, ...plan.recheck.map((r) => r.point)].map((p) => p.job),
    (job, w) => {
      const r = rechecks.get(job.id);
      if (!r) return remember(job, w);
      const agreed = w.counts.status === 'ok' && recountAgrees(r.point.family, r.stored.runs, w.runs);
      rechecked.push({ id: job.id, family: r.point.family, agreed });
      if (agreed && stored.ok) stored.file.counts[r.point.key] = { ...r.stored, checks: r.stored.checks + 1 };
      else {
        dropped.add(r.point.family);
        disagreed.push([job, w]);
      }
    },
  );
  let again: typeof plan.reuse = [];
  if (dropped.size && stored.ok) {
    for (const [key, s] of Object.entries(stored.file.counts))
      if (dropped.has(s.family)) delete stored.file.counts[key];
    for (const [job, w] of disagreed) remember(job, w);
    again = plan.reuse.filter((r) => dropped.has(r.point.family) && !rechecks.has(r.point.id));
    log(
      `counts re-checked live disagreed with the stored ones for ${[...dropped].join(', ')}: their stored counts on this machine are dropped and ${again.length} point(s) counted again`,
    );
    if (!stopped())
      await run(
        again.map((r) => r.point.job),
        remember,
      );
  }
  if (plan.deferred.length)
    log(
      `${plan.deferred.length} point(s) with new keys left for a later run: the counting budget of ${opts.budget} new points per run was spent`,
    );
  const countedNow = unkeyed.length + plan.count.length + plan.recheck.length + again.length;
  const reused = plan.reuse.length - plan.recheck.length - again.length;
  log(
    `counts: ${reused} reused from the store, ${countedNow} counted in ${((performance.now() - t) / 1000).toFixed(0)} s${stored.ok ? '' : ` (stored counts not used: ${stored.why})`}`,
  );
  return {
    interrupted: stopped(),
    counted,
    seconds: (performance.now() - t) / 1000,
    record: {
      store: stored.ok ? 'reused' : `not reused: ${stored.why}`.slice(0, 200),
      reused,
      counted: countedNow,
      deferred: plan.deferred.length,
      budget: opts.budget,
      rechecked,
      dropped: [...dropped],
    },
  };
}

function withStored(b: Parameters<typeof withWork>[0], w: WorkResult) {
  const out = withWork(b, w);
  return out.counts?.status === 'ok' ? { ...out, counts: { ...out.counts, stored: true as const } } : out;
}

function entry(p: Keyed<Job>, runs: readonly CountedRun[], commit: string): StoredCount {
  return { id: p.id, family: p.family, runs: [...runs], commit, counted: new Date().toISOString(), checks: 0 };
}
