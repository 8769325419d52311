/**
 * Confirming a change between two runtime releases with the paired engine (pairs/engine/every-point.ts): the
 * same checkout on both sides, the base under release A and the head under release B, on the one
 * suite point where the change was found. Jobs are matched by their id with the runtime parameter
 * set aside (node@24.3.0 and node@24.4.0 run the same program on the same workload). A change is
 * confirmed when the paired verdict is significant in the direction the timeline showed.
 */

import type { PairsPoint } from '../../formats/pairs-format.js';
import { formatConfidence } from '../../lib/format.js';
import { benchmarkId } from '../../model/benchmark-id.js';
import type { Job } from '../../model/job.js';
import { harnessMetric } from '../../model/metrics.js';
import type { Profile } from '../../model/profiles.js';
import { RUNTIME_PARAM } from '../../model/select.js';
import { Budget } from '../../pairs/engine/budget.js';
import { pairEveryPoint } from '../../pairs/engine/every-point.js';
import type { Filters } from '../../plan/plan.js';
import type { Candidate } from '../judge/changes.js';
import type { Confirmation, Confirmer, Unconfirmable } from './find-changes.js';

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
  askedSeconds: number;
  seed?: number;
  log?: (m: string) => void;
}): Confirmer {
  return async (c) => {
    // One checkout under two releases: the point is the question, not something a PR changed.
    const out = await pairEveryPoint(
      {
        base: { root: opts.root, filters: pairFilters(c, c.from) },
        head: { root: opts.root, filters: pairFilters(c, c.to) },
        profile: opts.profile,
        setup: { require: [] },
      },
      {
        harnessRoot: opts.root,
        budget: new Budget(opts.askedSeconds),
        seed: opts.seed ?? 1,
        log: opts.log ?? ((m: string) => process.stderr.write(`${m}\n`)),
      },
      releasePairKey,
    );
    const point = out.comparison.points[0];
    return point ? judgeInPairs(c, point) : undefined;
  };
}

/**
 * What a release pair's paired point says of a change: judged on the change's own metric, where
 * the pairs measured it with an interval (a point's other metrics are folded under its lead);
 * never on another metric in its place, for the lead (wc's cost per read) says nothing of a
 * start-up change, nor wall time of a fitted cost. Pure.
 */
export function judgeInPairs(
  c: Candidate,
  point: Pick<PairsPoint, 'pairs' | 'lead' | 'folded'>,
): Confirmation | Unconfirmable {
  const own = [point.lead, ...point.folded].find((m) => m.metric === c.series.metric && m.ci);
  if (!own?.ci)
    return {
      unconfirmable:
        harnessMetric(c.series.metric)?.kind === 'counter'
          ? 'a counter is not a sampled metric of the pairs'
          : `the pairs measured this metric without an interval${point.lead.metric === c.series.metric ? '' : ' (they judge another one)'}`,
    };
  const worse = c.series.direction === 'smaller' ? c.ratio > 1 : c.ratio < 1;
  // The paired ratio is oriented "> 1 = head worse" (base/head for bigger-is-better metrics);
  // the change is reported as the metric's own after/before, like the timeline's.
  const asMetric = (r: number) => (c.series.direction === 'smaller' ? r : 1 / r);
  const [lo, hi] = [asMetric(own.ci[0]), asMetric(own.ci[1])].sort((a, b) => a - b) as [number, number];
  return {
    pairs: point.pairs,
    change: asMetric(own.ratio) - 1,
    ci: [lo - 1, hi - 1],
    level: formatConfidence(own.confidence),
    verdict: `${own.verdict} on ${own.metric} at ${formatConfidence(own.confidence)}% confidence`,
    confirmed: own.verdict === (worse ? 'slower' : 'faster'),
  };
}
