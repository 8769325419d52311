/**
 * Confirming a change between two runtime releases with the paired diff (pr-diff/pipeline/pr-diff.ts): the
 * same checkout on both sides, the base under release A and the head under release B, on the one
 * suite point where the change was found. Jobs are matched by their id with the runtime parameter
 * set aside (node@24.3.0 and node@24.4.0 run the same program on the same workload). A change is
 * confirmed when the paired verdict is significant in the direction the timeline showed.
 */

import { formatConfidence } from '../../lib/format.js';
import { benchmarkId } from '../../model/benchmark-id.js';
import type { Job } from '../../model/job.js';
import { harnessMetric } from '../../model/metrics.js';
import type { Profile } from '../../model/profiles.js';
import { RUNTIME_PARAM } from '../../model/select.js';
import type { Filters } from '../../plan/plan.js';
import { runPairs } from '../../pr-diff/pipeline/pr-diff.js';
import type { Candidate } from '../analysis/changes.js';
import type { Confirmation, Confirmer } from './find-changes.js';

/** A job's id with its runtime parameter left out: what a release pair matches on. */
export function releasePairKey(job: Pick<Job, 'experiment' | 'variant' | 'params'>): string {
  const { [RUNTIME_PARAM]: _r, ...params } = job.params;
  return benchmarkId(job.experiment.id, job.variant.id, params);
}

export function pairFilters(c: Candidate, version: string): Filters {
  const params: Filters['params'] = { [RUNTIME_PARAM]: [`${c.series.family}@${version}`] };
  for (const [k, v] of Object.entries(c.series.params)) params[k] = [v];
  return { experiments: [c.series.experiment], variants: [c.series.variant], params };
}

export function releaseConfirmer(opts: {
  root: string;
  profile: Profile;
  budgetSeconds: number;
  seed?: number;
  log?: (m: string) => void;
}): Confirmer {
  return async (c: Candidate): Promise<Confirmation | undefined> => {
    const out = await runPairs({
      base: opts.root,
      head: opts.root,
      profile: opts.profile,
      filters: pairFilters(c, c.from),
      headFilters: pairFilters(c, c.to),
      pairKey: releasePairKey,
      // One checkout under two releases: the point is the question, not something a PR changed.
      measure: 'all',
      budgetSeconds: opts.budgetSeconds,
      seed: opts.seed ?? 1,
      require: [],
      ...(opts.log ? { log: opts.log } : {}),
    });
    const point = out.comparison.points[0];
    // The change's own metric where the pairs measured it with an interval (a point's other
    // metrics are folded under its lead), else the lead: the paired diff's fallback when the
    // metric is unmeasurable.
    // A counter (max RSS) is no sampled metric of the pairs: judging it by the lead would confirm
    // something else, so it stays a candidate.
    const own = point && [point.lead, ...point.folded].find((m) => m.metric === c.series.metric && m.ci);
    const lead = own ?? (harnessMetric(c.series.metric)?.kind === 'counter' ? undefined : point?.lead);
    if (!point || !lead?.ci) return undefined;
    const worse = c.series.direction === 'smaller' ? c.ratio > 1 : c.ratio < 1;
    // The paired ratio is oriented "> 1 = head worse" (base/head for bigger-is-better metrics);
    // the change is reported as the metric's own after/before, like the timeline's.
    const asMetric = (r: number) => (c.series.direction === 'smaller' ? r : 1 / r);
    const [lo, hi] = [asMetric(lead.ci![0]), asMetric(lead.ci![1])].sort((a, b) => a - b) as [number, number];
    return {
      pairs: point.pairs,
      change: asMetric(lead.ratio) - 1,
      ci: [lo - 1, hi - 1],
      level: formatConfidence(lead.confidence),
      verdict: `${lead.verdict} on ${lead.metric} at ${formatConfidence(lead.confidence)}% confidence`,
      confirmed: lead.verdict === (worse ? 'slower' : 'faster'),
    };
  };
}
