// The start-up-free cost per operation: a least-squares line through runs at several sizes.
import { describe, expect, it } from 'vitest';
import { fitSizes, leastSquares, t95, twoSizeFit } from '../../src/analysis/fit.js';
import { prng } from '../../src/analysis/two-sample.js';

describe('t95', () => {
  it('matches the table of Student’s t', () => {
    expect(t95(1)).toBeCloseTo(12.706, 3);
    expect(t95(5)).toBeCloseTo(2.571, 2);
    expect(t95(10)).toBeCloseTo(2.228, 2);
    expect(t95(18)).toBeCloseTo(2.101, 2);
    expect(t95(1000)).toBeCloseTo(1.962, 2);
  });
});

describe('leastSquares', () => {
  it('recovers an exact line, with a zero-width interval', () => {
    const f = leastSquares([
      [0, 2],
      [1, 5],
      [2, 8],
      [3, 11],
    ]);
    expect(f.slope).toBeCloseTo(3, 12);
    expect(f.intercept).toBeCloseTo(2, 12);
    expect(f.r2).toBeCloseTo(1, 12);
    expect(f.ci![1] - f.ci![0]).toBeCloseTo(0, 9);
  });

  it('gives no interval without spread in x', () => {
    expect(
      leastSquares([
        [1, 2],
        [1, 3],
        [1, 4],
      ]).ci,
    ).toBeUndefined();
  });
});

describe('fitSizes', () => {
  // 40 ms of start-up plus 15 µs per read, with 2% noise per run: 128 and 1,024 reads.
  const rand = prng(7);
  const noisy = (x: number) => Array.from({ length: 10 }, () => (0.04 + x * 15e-6) * (1 + (rand() - 0.5) * 0.04));

  it('separates start-up from the cost per operation, and its interval covers the truth', () => {
    const { fit, slopes, intercepts } = fitSizes([
      { x: 128, times: noisy(128) },
      { x: 1024, times: noisy(1024) },
    ]);
    expect(fit.slope).toBeGreaterThan(fit.ci![0]);
    expect(fit.ci![0]).toBeLessThan(15e-6);
    expect(fit.ci![1]).toBeGreaterThan(15e-6);
    expect(fit.intercept).toBeCloseTo(0.04, 2);
    expect(fit.r2).toBeGreaterThan(0.9);
    expect(slopes).toHaveLength(10);
    expect(intercepts).toHaveLength(10);
  });

  it('pairs run j of every size for the per-run slopes', () => {
    const { slopes } = fitSizes([
      { x: 10, times: [1, 2] },
      { x: 20, times: [2, 2] },
    ]);
    expect(slopes).toEqual([0.1, 0]);
  });
});

describe('twoSizeFit', () => {
  it('keeps a positive cost when one run of the larger size was delayed down to the smaller ones (least squares does not)', () => {
    // 5 ms start-up, 4 ms of reads at the larger size; one small run delayed by 20 ms.
    const small = { x: 32, times: [0.0055, 0.0051, 0.0253, 0.0052, 0.0054] };
    const large = { x: 256, times: [0.0091, 0.0093, 0.009, 0.0094, 0.0092] };
    expect(leastSquares([small, large].flatMap((s) => s.times.map((t) => [s.x, t] as const))).slope).toBeLessThan(0);
    const f = twoSizeFit(small, large);
    expect(f.slope * 224).toBeCloseTo(0.0038, 3);
    expect(f.slope).toBeGreaterThan(0);
    expect(f.intercept).toBeGreaterThan(0.004);
    expect(f.intercept).toBeLessThan(0.006);
  });

  it('takes its interval from the order statistics of the differences: the 3rd and 23rd of 25 for 5 runs each', () => {
    const small = { x: 0, times: [0, 1, 2, 3, 4] };
    const large = { x: 1, times: [10, 20, 30, 40, 50] };
    const diffs = large.times.flatMap((l) => small.times.map((t) => l - t)).sort((a, b) => a - b);
    const f = twoSizeFit(small, large);
    expect(f.slope).toBe(28); // median of the 25 differences
    expect(f.ci).toEqual([diffs[2], diffs[22]]);
  });

  it('gives no interval with 3 runs per size (too few for 95%)', () => {
    expect(twoSizeFit({ x: 1, times: [1, 2, 3] }, { x: 2, times: [4, 5, 6] }).ci).toBeUndefined();
  });
});
