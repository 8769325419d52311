/** Which metric a paired point is judged on. */

import type { Job } from '../../model/job.js';
import { FIT_METRICS } from '../../model/metrics.js';
import type { Lead, Values } from '../analysis/point.js';
import { WALL_TIME } from '../analysis/point.js';

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
