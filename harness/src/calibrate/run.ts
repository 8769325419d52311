import type { Results } from '../model/results.js';
import { calibrateMetric, type NoiseRow } from './noise.js';

/** Groups each comparable metric's samples by round (a round = one results file). */
export function calibrateRuns(runs: readonly Results[]): NoiseRow[] {
  const byKey = new Map<string, { direction: 'smaller' | 'bigger'; rounds: number[][] }>();
  runs.forEach((r, round) => {
    for (const b of r.benchmarks) {
      if (b.status !== 'ok') continue;
      for (const [name, m] of Object.entries(b.metrics)) {
        if (!m.samples?.length || m.source === 'derived' || name === 'pipeline_max_rss') continue;
        const key = `${b.id} ${name}`;
        const e = byKey.get(key) ?? { direction: m.direction, rounds: [] };
        e.rounds[round] = m.samples;
        byKey.set(key, e);
      }
    }
  });
  return [...byKey.entries()]
    .filter(([, e]) => e.rounds.filter(Boolean).length === runs.length)
    .map(([key, e]) => calibrateMetric(key, e.rounds, e.direction));
}
