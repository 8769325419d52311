/**
 * The value a harness-shift point is judged on in one results file: its experiment's lead metric,
 * chosen as the paired diff chooses it (pr-diff/run/lead-metric.ts): a fit's cost per operation,
 * else the manifest's first headline metric the point has, else its wall time. Pure.
 */
import type { Manifest } from '../../../model/manifest.js';
import type { Benchmark } from '../../../model/results.js';

const WALL_TIME = 'wall_time';

export type LeadValue = { metric: string; value: number } | { reason: string };

export function leadValue(b: Benchmark | undefined, manifest: Pick<Manifest, 'fit' | 'headline'>): LeadValue {
  if (!b) return { reason: 'not in the results file' };
  if (b.status !== 'ok') return { reason: `${b.status}: ${b.reason ?? 'no reason given'}` };
  const names = [...(manifest.fit ? [manifest.fit.cost] : []), ...manifest.headline.metrics, WALL_TIME];
  for (const metric of names) {
    const m = b.metrics[metric];
    if (m && Number.isFinite(m.value) && m.value > 0) return { metric, value: m.value };
  }
  return { reason: `none of ${names.join(', ')} has a positive value` };
}
