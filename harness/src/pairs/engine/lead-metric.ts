/** Which metric a paired point is judged on, and which others it reports beside it. */

import type { Job } from '../../model/job.js';
import { FIT_METRICS } from '../../model/metrics.js';
import type { Lead, Values } from '../decide/point.js';
import { WALL_TIME } from '../decide/point.js';

/** The manifest's first headline metric the point measures per process (a fit: its cost per operation). */
export function leadMetric(job: Job, sample: Values): Lead {
  const fit = job.experiment.manifest.fit;
  if (fit && job.sizes && job.sizes.length >= 2)
    return { metric: fit.cost, unit: FIT_METRICS.cost.unit, direction: FIT_METRICS.cost.direction };
  for (const name of job.experiment.manifest.headline.metrics) {
    const v = sample[name];
    if (v) return { metric: name, unit: v.unit, direction: v.direction };
  }
  const w = sample[WALL_TIME.metric];
  return { ...WALL_TIME, unit: w?.unit ?? WALL_TIME.unit };
}

/** A metric a point's processes report beside its lead; `of`: the metric whose evidence it repeats. */
export interface OtherMetric {
  metric: string;
  of?: string;
}

/**
 * Every metric a pair's processes report other than the lead, in the order reported. A rate the
 * manifest derives from a time (`rates`: lines per second of the pipeline's own time; without a
 * time, of wall time) is that time's evidence again: it is reported with `of` naming the time, so
 * it is judged with it and never counted as a test of its own. When the lead is such a rate, its
 * time is the lead's evidence.
 */
export function otherMetrics(job: Job, lead: string, names: readonly string[]): OtherMetric[] {
  const timeOf = new Map(job.rates.map((r) => [r.name, r.time ?? 'wall_time']));
  const source = (m: string) => timeOf.get(m) ?? m;
  const present = new Set(names);
  const leadSource = source(lead);
  return names
    .filter((m) => m !== lead)
    .map((metric) => {
      const s = source(metric);
      // The lead's own evidence is named by the lead; another rate's by its time, when reported.
      const of = s === leadSource ? lead : s !== metric && present.has(s) ? s : undefined;
      return of ? { metric, of } : { metric };
    });
}
