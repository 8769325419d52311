// The start-up-free cost per operation: a least-squares line through runs at several sizes.
import { describe, expect, it } from 'vitest';
import { fitSizes, leastSquares, t95 } from '../src/analysis/fit.js';
import { prng } from '../src/analysis/two-sample.js';

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
