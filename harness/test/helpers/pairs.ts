/** A paired comparison (comparison.json schema 2) as `npm run pairs` writes it, for renderer and artifact tests. */
import type { PairsComparison, PairsPoint } from '../../src/formats/pairs-format.js';

export function pairsPoint(over: Partial<PairsPoint> = {}): PairsPoint {
  return {
    benchmark: 'wc/node-stream/bs=65536/runtime=node22',
    experiment: 'wc',
    variant: 'node-stream',
    params: { bs: 65536, runtime: 'node22' },
    placement: 'split',
    kind: 'fit',
    pairs: 60,
    baseFirst: 30,
    stop: 'budget',
    minEffect: 0.02,
    secondsPerPair: 0.4,
    lead: {
      metric: 'read_cost',
      unit: 'ns',
      direction: 'smaller',
      baseMedian: 5000,
      headMedian: 5100,
      ratio: 1.02,
      ci: [0.97, 1.08],
      confidence: 0.98,
      p: 0.3,
      verdict: 'inconclusive',
    },
    folded: [
      {
        metric: 'wall_time',
        unit: 's',
        direction: 'smaller',
        baseMedian: 0.05,
        headMedian: 0.051,
        ratio: 1.01,
        confidence: 0.95,
        p: 0.5,
        verdict: 'unchanged',
      },
    ],
    counters: [{ metric: 'syscalls.read', unit: 'calls', base: 1024, head: 1025 }],
    ...over,
  };
}

export function pairsComparison(points: PairsPoint[] = [pairsPoint()]): PairsComparison {
  return {
    schema: 2,
    method: 'paired',
    seed: 5,
    budget: { seconds: 600, spentSeconds: 590 },
    base: { commits: ['a'.repeat(40)], runs: 1, machine: 'm', cpu: 'c', toolchains: {} },
    head: { commits: ['b'.repeat(40)], runs: 1, machine: 'm', cpu: 'c', toolchains: {} },
    points,
    added: [],
    removed: [],
    notMeasured: [],
  };
}
