/**
 * github-action-benchmark custom inputs: one array per direction, names stable across commits:
 * "<experiment>/<variant>/<k=v,...> <metric>". Only the manifest's headline series go here so
 * the action's single data.js stays small; the full data goes to the store.
 */
import { z } from 'zod';
import type { Experiment } from '../formats/manifest-format.js';
import type { Benchmark } from '../formats/results-format.js';
import { formatValue } from '../lib/format.js';
import { benchmarkId } from '../model/benchmark-id.js';
import type { Direction } from '../model/metrics.js';
import { matchesAt } from '../model/select.js';

export const GabEntry = z
  .object({
    name: z.string().min(1),
    unit: z.string().min(1),
    value: z.number().finite(),
    range: z.string().optional(),
    extra: z.string().optional(),
  })
  .strict();
export type GabEntry = z.infer<typeof GabEntry>;

export const GAB_FILES = { smaller: 'customSmallerIsBetter.json', bigger: 'customBiggerIsBetter.json' } as const;

export function gabName(b: Pick<Benchmark, 'experiment' | 'variant' | 'params'>, metric: string): string {
  return `${benchmarkId(b.experiment, b.variant, b.params)} ${metric}`;
}

export function toGab(
  benchmarks: readonly Benchmark[],
  experiments: readonly Pick<Experiment, 'id' | 'manifest'>[],
): Record<Direction, GabEntry[]> {
  const out: Record<Direction, GabEntry[]> = { smaller: [], bigger: [] };
  for (const exp of experiments) {
    const { at, metrics } = exp.manifest.headline;
    for (const b of benchmarks) {
      if (b.experiment !== exp.id || b.status !== 'ok' || !matchesAt(b, at, 'matches')) continue;
      for (const name of metrics) {
        const m = b.metrics[name];
        if (!m || !Number.isFinite(m.value)) continue;
        const entry: GabEntry = { name: gabName(b, name), unit: m.unit, value: m.value };
        if (m.stats && m.stats.n > 1) entry.range = `± ${formatValue(m.stats.stddev, m.unit)}`;
        if (m.stats)
          entry.extra = `median of ${m.stats.n} runs; min ${formatValue(m.stats.min, m.unit)}, max ${formatValue(m.stats.max, m.unit)}`;
        out[m.direction].push(GabEntry.parse(entry));
      }
    }
  }
  return out;
}
