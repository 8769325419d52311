import type { Benchmark } from '../formats/results-format.js';

/** What differs between two points' workloads, or undefined when they are the same workload. */
export function workloadChange(
  base: Pick<Benchmark, 'workload' | 'derived' | 'placement'>,
  head: Pick<Benchmark, 'workload' | 'derived' | 'placement'>,
): string | undefined {
  if (base.workload && head.workload && base.workload === head.workload) return undefined;
  const diffs: string[] = [];
  for (const k of [...new Set([...Object.keys(base.derived), ...Object.keys(head.derived)])].sort()) {
    if (base.derived[k] !== head.derived[k])
      diffs.push(`${k} ${base.derived[k] ?? 'absent'} → ${head.derived[k] ?? 'absent'}`);
  }
  if ((base.placement ?? '') !== (head.placement ?? '') && base.placement && head.placement)
    diffs.push(`placement ${base.placement} → ${head.placement}`);
  if (diffs.length) return diffs.join('; ');
  // Files written before workloads had hashes: the derived values and placement are all there is.
  if (!base.workload || !head.workload) return undefined;
  return 'its input, checks or runner changed';
}
