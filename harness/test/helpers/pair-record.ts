/** A pair record (pairs.json) of whole-process points with made-up pairs, and a comparison whose rows it judges. */
import type { PairRecordDocument, RecordedPoint } from '../../src/formats/pair-record-format.js';
import type { PairsComparison } from '../../src/formats/pairs-format.js';
import { recomputeVerdicts } from '../../src/pairs/decide/recompute.js';
import { DEFAULT_PLAN } from '../../src/pairs/decide/sequential.js';
import { pairsComparison, pairsPoint } from './pairs.js';

/** `n` pairs of wall times whose head is `ratio` times the base, with a small deterministic spread. */
export function recordedPoint(
  benchmark: string,
  ratio: number,
  n = 20,
  over: Partial<RecordedPoint> = {},
): RecordedPoint {
  const [experiment = 'wc', variant = 'c'] = benchmark.split('/');
  return {
    benchmark,
    experiment,
    variant,
    params: { bs: 4096 },
    impact: 'affected',
    kind: 'process',
    lead: { metric: 'wall_time', unit: 's', direction: 'smaller' },
    minEffect: 0.02,
    others: [],
    metrics: { wall_time: { unit: 's', direction: 'smaller' } },
    pairs: Array.from({ length: n }, (_, i) => {
      const base = 0.1 * (1 + 0.004 * Math.sin(i * 1.7));
      return {
        order: i % 2 ? 'BA' : 'AB',
        base: { wall_time: base },
        head: { wall_time: base * ratio * (1 + 0.003 * Math.cos(i * 2.3)) },
      };
    }),
    ...over,
  };
}

export function pairRecord(points: RecordedPoint[], counts: PairRecordDocument['counts'] = []): PairRecordDocument {
  return {
    schema: 3,
    kind: 'pair-record',
    seed: 7,
    plan: { looks: [...DEFAULT_PLAN.looks], alphas: [...DEFAULT_PLAN.alphas], betas: [...DEFAULT_PLAN.betas] },
    level: 0.05,
    points,
    counts,
  };
}

/** The comparison an honest harness writes for this record: its rows are the record judged. */
export function honestComparison(record: PairRecordDocument): PairsComparison {
  const rows = record.points.map((p) =>
    pairsPoint({
      benchmark: p.benchmark,
      experiment: p.experiment,
      variant: p.variant,
      params: p.params,
      kind: p.kind,
      pairs: p.pairs.length,
      impact: p.impact,
      folded: [],
      counters: [],
    }),
  );
  return recomputeVerdicts(pairsComparison(rows), record).comparison;
}
