/**
 * `bench --count-profiles`: after the run's own counting stage, the points of other profiles
 * counted too, untimed, once per key (docs/counts.md). Main's runners count the pull requests'
 * profile this way, as they trace it (./bench-traces.ts): a pull request's base is a commit of
 * main, and the paired diff takes a base's count from the store only where main's run keyed the
 * very same counted command lines, which follow the profile's sizes. A point whose key the store
 * holds (or the run's own stage just counted) costs nothing; the others share what the run's own
 * new points left of the counting budget, and the rest wait for a later run, which says so. No
 * live re-check here: the run's own stage re-checks each deciding family, and a family it dropped
 * has no stored count left, so its points here are new keys.
 */

import { type CountsMode, countingFamily, countJobs, jobsToCount } from '../counts/count-jobs.js';
import { keyer, type OpenedCounts } from '../counts/stored-counts.js';
import type { Experiment } from '../formats/manifest-format.js';
import type { Results } from '../formats/results-format.js';
import { shellQuote } from '../lib/exec.js';
import type { Job } from '../model/job.js';
import type { Profile } from '../model/profiles.js';
import { expand, type Filters } from '../plan/plan.js';
import { type BuildResult, buildAll } from '../run/build.js';
import { type CheckoutPlan, type Host, planCheckout } from './setup.js';

/** What the run's record says of each other profile counted (results `run.counting.profiles`). */
export type ProfileCounting = NonNullable<NonNullable<Results['run']['counting']>['profiles']>[number];

export interface CountProfilesOptions {
  experiments: readonly Experiment[];
  filters: Filters;
  /** The other profiles; the run's own is left out (its stage counted it). */
  profiles: readonly Profile[];
  counts: CountsMode;
  /** New keys this stage may still count: the run's budget less the run's own new points. */
  budgetLeft: number;
  commit: string;
  /** How the run planned its own checkout: the points here are planned alike, so their keys are the keys a run of that profile computes. */
  checkout: CheckoutPlan;
  /** The run's builds, by key: taken, not made again. */
  builds: ReadonlyMap<string, BuildResult>;
}

/** A job to count with its key. */
interface Keyed {
  job: Job;
  key: string;
}

/** The profile's chosen jobs keyed, those the store holds apart; a key twice is counted once. */
function splitByStore(jobs: readonly Job[], stored: Extract<OpenedCounts, { ok: true }>) {
  const keyOf = keyer(stored.facts);
  const fresh: Keyed[] = [];
  const seen = new Set<string>();
  let reused = 0;
  for (const job of jobs) {
    if (!job.counting) continue;
    const key = keyOf(job);
    if (Object.hasOwn(stored.file.counts, key)) reused++;
    else if (!seen.has(key)) {
      seen.add(key);
      fresh.push({ job, key });
    }
  }
  return { fresh, reused };
}

/** Counts the jobs on every core; each count that succeeded goes into the store's copy under its key. */
async function countInto(
  list: readonly Keyed[],
  host: Host,
  stored: Extract<OpenedCounts, { ok: true }>,
  commit: string,
  stopped: () => boolean,
): Promise<{ counted: number; failed: string[] }> {
  const keys = new Map(list.map((k) => [k.job, k.key]));
  const pin = host.cpus ? `${shellQuote(host.cpus.taskset)} -c ${host.cpus.all} ` : undefined;
  let counted = 0;
  const failed: string[] = [];
  await countJobs(
    list.map((k) => k.job),
    host.tools,
    { count: host.machine.cores, ...(pin ? { pin } : {}) },
    (job, w) => {
      if (w.counts.status !== 'ok' || !w.runs.length) {
        failed.push(`${job.id}: ${w.counts.status === 'ok' ? 'no counted runs' : w.counts.reason}`);
        return;
      }
      counted++;
      stored.file.counts[keys.get(job)!] = {
        id: job.id,
        family: countingFamily(job),
        runs: w.runs,
        commit,
        counted: new Date().toISOString(),
        checks: 0,
      };
    },
    stopped,
  );
  return { counted, failed };
}

/**
 * Each other profile's points counted where their key is new, within what is left of the budget;
 * their counts go into the store's copy (written with the run's, as the run's own are). Returns
 * what each profile gave, and how much of the budget is left.
 */
export async function countProfiles(
  o: CountProfilesOptions,
  host: Host,
  stored: OpenedCounts,
  log: (m: string) => void,
  stopped: () => boolean,
): Promise<ProfileCounting[]> {
  if (!o.profiles.length) return [];
  if (!stored.ok) {
    log(`counts of the ${o.profiles.join(', ')} profile(s): none (${stored.why}: there is nowhere to keep them)`);
    return [];
  }
  let left = o.budgetLeft;
  const out: ProfileCounting[] = [];
  for (const profile of o.profiles) {
    if (stopped()) break;
    const t = performance.now();
    const points = expand(o.experiments, profile, o.filters);
    const { jobs } = await planCheckout(points, host, o.checkout, (m) => log(`${profile}: ${m}`));
    const { fresh, reused } = splitByStore(jobsToCount(jobs, o.counts), stored);
    const now = fresh.slice(0, Math.max(0, left));
    const deferred = fresh.length - now.length;
    // Only the builds the counted points need, and not those the run made.
    const made = await buildAll(
      now.map((k) => k.job).filter((j) => j.build && !o.builds.has(j.build.key)),
      (m) => log(`${profile}: ${m}`),
    );
    const builds = new Map([...o.builds, ...made]);
    const buildable = now.filter((k) => !k.job.build || builds.get(k.job.build.key)?.ok);
    const { counted, failed } = await countInto(buildable, host, stored, o.commit, stopped);
    left -= now.length;
    const seconds = (performance.now() - t) / 1000;
    for (const f of failed.slice(0, 5)) log(`counts of the ${profile} profile: not counted: ${f}`);
    log(
      `counts of the ${profile} profile: ${reused} of its points' keys stored, ${counted} counted in ${seconds.toFixed(0)} s` +
        (deferred
          ? `; ${deferred} new key(s) left for a later run: the counting budget of new points per run was spent`
          : ''),
    );
    out.push({ profile, reused, counted, deferred, failed: failed.length + (now.length - buildable.length) });
  }
  return out;
}
