// The seeded sample of a harness shift and the bench command line that measures one point.
import { describe, expect, it } from 'vitest';
import {
  benchArgs,
  drawSample,
  type SamplePoint,
  seedOf,
  shuffledByExperiment,
} from '../../../src/pairs/harness-shift/sample.js';

const point = (experiment: string, variant: string, bs: number): SamplePoint => ({
  id: `${experiment}/${variant}/bs=${bs}`,
  experiment: { id: experiment },
  variant: { id: variant },
  params: { bs },
});
const points = ['wc', 'scan', 'tally'].flatMap((e) =>
  ['c', 'node'].flatMap((v) => [256, 4096, 65536].map((bs) => point(e, v, bs))),
);

describe('seedOf', () => {
  it("takes a commit's first 32 bits, and hashes anything else", () => {
    expect(seedOf('deadbeef00112233')).toBe(0xdeadbeef);
    expect(seedOf('unknown')).toBe(seedOf('unknown'));
    expect(seedOf('unknown')).not.toBe(seedOf('unknowm'));
  });
});

describe('drawSample', () => {
  it('draws the same points for the same seed, at least one per experiment', async () => {
    const a = await drawSample(points, 42, 1);
    const b = await drawSample(points, 42, 1);
    expect(a.map((p) => p.id)).toEqual(b.map((p) => p.id));
    expect(a.map((p) => p.experiment.id)).toEqual(['scan', 'tally', 'wc']);
  });

  it('draws differently for another seed', async () => {
    const ids = async (seed: number) => (await drawSample(points, seed, 2)).map((p) => p.id).join(' ');
    const draws = new Set(await Promise.all([1, 2, 3, 4, 5].map(ids)));
    expect(draws.size).toBeGreaterThan(1);
  });

  it('skips points that are not usable, and shuffles without losing any', async () => {
    const s = await drawSample(points, 7, 3, (p) => p.variant.id === 'c');
    expect(s).toHaveLength(9);
    expect(s.every((p) => p.variant.id === 'c')).toBe(true);
    const all = [...shuffledByExperiment(points, 7).values()].flat().map((p) => p.id);
    expect([...all].sort()).toEqual(points.map((p) => p.id).sort());
  });
});

describe('benchArgs', () => {
  it('selects exactly one point, every parameter named, and stores nothing', () => {
    const p: SamplePoint = {
      id: 'wc/readsync/bs=4096,runtime=node22',
      experiment: { id: 'wc' },
      variant: { id: 'readsync' },
      params: { runtime: 'node22', bs: 4096 },
    };
    expect(benchArgs(p, 'quick', '/tmp/out')).toEqual([
      'bench',
      '--profile',
      'quick',
      '--experiments',
      'wc',
      '--variants',
      'readsync',
      '--param',
      'bs=4096',
      '--param',
      'runtime=node22',
      '--out',
      '/tmp/out',
      '--no-store',
    ]);
    expect(benchArgs(p, 'quick', '/tmp/out', 12).slice(-5)).toEqual([
      '--runs',
      '12',
      '--out',
      '/tmp/out',
      '--no-store',
    ]);
  });
});

describe("drawSample with the machine's noise", () => {
  it("takes each experiment's quietest points first, the seeded order among the rest", async () => {
    const noise: Record<string, number> = { 'wc/node/bs=256': 0.02, 'wc/c/bs=65536': 0.05, 'scan/c/bs=4096': 0.03 };
    const sample = await drawSample(points, 7, 2, undefined, { noiseOf: (p) => noise[p.id] });
    const wc = sample.filter((p) => p.experiment.id === 'wc').map((p) => p.id);
    expect(wc).toEqual(['wc/node/bs=256', 'wc/c/bs=65536']);
    const scan = sample.filter((p) => p.experiment.id === 'scan').map((p) => p.id);
    expect(scan[0]).toBe('scan/c/bs=4096');
    // Without a known noise, the second scan point and both tally points are the seeded draw's.
    const seeded = await drawSample(points, 7, 2);
    const seededScan = seeded.filter((p) => p.experiment.id === 'scan' && p.id !== 'scan/c/bs=4096');
    expect(scan[1]).toBe(seededScan[0]!.id);
    expect(sample.filter((p) => p.experiment.id === 'tally')).toEqual(
      seeded.filter((p) => p.experiment.id === 'tally'),
    );
  });
});

describe('drawSample with points taken last', () => {
  it('takes the points `last` names only when an experiment has too few others, before any noise', async () => {
    const cold = (p: SamplePoint) => p.variant.id === 'c';
    const noise: Record<string, number> = { 'wc/c/bs=65536': 0.001 };
    const sample = await drawSample(points, 7, 1, undefined, { noiseOf: (p) => noise[p.id], last: cold });
    for (const id of ['wc', 'scan']) {
      const mine = sample.filter((p) => p.experiment.id === id);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.variant.id).not.toBe('c');
    }
    // Every point of an experiment named: it is still drawn (an experiment is never left out).
    const all = await drawSample(points, 7, 1, undefined, { last: () => true });
    expect(new Set(all.map((p) => p.experiment.id))).toEqual(new Set(points.map((p) => p.experiment.id)));
  });
});
