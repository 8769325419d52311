/**
 * What a sweep still has to measure of each release: the suites its stored entry lacks. A release
 * the store has with every suite asked for is done. One the store has without some of them
 * (bisection measures one experiment of a build at a time, for the change it narrows) gets the
 * missing suites: added to its entry when the entry was measured by the same commit, else the
 * release is measured again whole, so an entry is always one commit's measurement. Pure.
 */

import type { ReleaseEntry } from '../formats/release-store-format.js';
import type { Release } from '../model/release-catalog.js';
import { type SuiteExperiment, sweepOrder, takesPart } from './suite-plan.js';

export interface ReleasePlan {
  release: Release;
  /** The suites to measure under it now. */
  suites: SuiteExperiment[];
  /** The stored entry the new suites are added to (absent: the release's entry is new, or replaced). */
  keep?: ReleaseEntry;
}

/**
 * Each release that still needs a suite, newest first. `asked` are the suites this sweep measures,
 * `all` every suite there is (a release measured again whole keeps the experiments it had).
 */
export function sweepPlans(
  releases: readonly Release[],
  asked: readonly SuiteExperiment[],
  all: readonly SuiteExperiment[],
  entries: readonly ReleaseEntry[],
  profile: string,
  commit: string,
): ReleasePlan[] {
  const out: ReleasePlan[] = [];
  for (const release of sweepOrder(releases, new Set())) {
    const wanted = asked.filter((s) => takesPart(s, release.family));
    const stored = entries.find(
      (e) => e.family === release.family && e.version === release.version && e.profile === profile,
    );
    if (!stored) {
      if (wanted.length) out.push({ release, suites: wanted });
      continue;
    }
    const missing = wanted.filter((s) => !stored.experiments.includes(s.id));
    if (!missing.length) continue;
    if (stored.commit === commit) out.push({ release, suites: missing, keep: stored });
    else
      out.push({
        release,
        suites: all.filter(
          (s) => takesPart(s, release.family) && (wanted.includes(s) || stored.experiments.includes(s.id)),
        ),
      });
  }
  return out;
}

const both = <T>(a: readonly T[] | undefined, b: readonly T[] | undefined): T[] | undefined =>
  a || b ? [...(a ?? []), ...(b ?? [])] : undefined;

const sum = (a: number | undefined, b: number | undefined) =>
  a === undefined && b === undefined ? undefined : Math.round(((a ?? 0) + (b ?? 0)) * 10) / 10;

/** A stored entry with the suites measured now added: their experiments, values, counts and seconds. */
export function withSuites(keep: ReleaseEntry, fresh: ReleaseEntry): ReleaseEntry {
  const counters = both(keep.counters, fresh.counters);
  const work = both(keep.work, fresh.work);
  const seconds = sum(keep.seconds, fresh.seconds);
  const countSeconds = sum(keep.countSeconds, fresh.countSeconds);
  const released = fresh.released ?? keep.released;
  return {
    ...fresh,
    ...(released ? { released } : {}),
    experiments: [...keep.experiments, ...fresh.experiments],
    problems: [...keep.problems, ...fresh.problems],
    values: [...keep.values, ...fresh.values],
    ...(counters ? { counters } : {}),
    ...(work ? { work } : {}),
    ...(seconds !== undefined ? { seconds } : {}),
    ...(countSeconds !== undefined ? { countSeconds } : {}),
  };
}
