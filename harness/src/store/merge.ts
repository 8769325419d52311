/**
 * Publishing a run into a commit and profile that already has one merges the two: a filtered
 * dispatch (one experiment, one variant, one parameter value) measures a few benchmarks again and
 * must never replace or null the others. Pure.
 */

import type { Results, SlopeFit } from '../formats/results-format.js';
import { paramKey } from '../model/benchmark-id.js';

const fitKey = (f: SlopeFit) => [f.experiment, f.kind, f.x, f.metric, f.variant, paramKey(f.params)].join('|');

/**
 * `next` merged over `prev`: benchmarks are replaced by id (in place, so the file's order stays
 * stable) and new ones appended; experiments' descriptions and slope fits are replaced where
 * `next` has them and kept otherwise (a fit `next` could not make, for lack of points, stays as
 * the run that made it left it). The run's own facts (id, times, toolchains, conditions) are the
 * newest publish's; the store's index lists every publish merged.
 */
export function mergeResults(prev: Results | undefined, next: Results): Results {
  if (!prev) return next;
  const incoming = new Map(next.benchmarks.map((b) => [b.id, b]));
  const kept = prev.benchmarks.map((b) => incoming.get(b.id) ?? b);
  const known = new Set(prev.benchmarks.map((b) => b.id));
  const benchmarks = [...kept, ...next.benchmarks.filter((b) => !known.has(b.id))];
  const fits = new Map<string, SlopeFit>();
  for (const f of [...(prev.analyses ?? []), ...(next.analyses ?? [])]) fits.set(fitKey(f), f);
  return {
    ...next,
    experiments: { ...prev.experiments, ...next.experiments },
    benchmarks,
    ...(fits.size ? { analyses: [...fits.values()] } : {}),
  };
}
