/**
 * Percentiles of per-item samples (e.g. per-file latencies). simple-statistics' quantileSorted
 * interpolates linearly between the closest ranks (position (n-1)p, the default of R and NumPy),
 * so p50 of 1..100 is 50.5 and p99 is 99.01.
 */
import { quantileSorted } from 'simple-statistics';

const PERCENTILES = [50, 70, 80, 90, 99] as const;
export type PercentileName = `p${(typeof PERCENTILES)[number]}` | 'max';
export const PERCENTILE_NAMES: readonly PercentileName[] = [...PERCENTILES.map((p) => `p${p}` as const), 'max'];

export function percentiles(samples: readonly number[]): Record<PercentileName, number> {
  if (samples.length === 0) throw new Error('percentiles of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const out = {} as Record<PercentileName, number>;
  for (const p of PERCENTILES) out[`p${p}`] = quantileSorted(sorted, p / 100);
  out.max = sorted[sorted.length - 1] as number;
  return out;
}
