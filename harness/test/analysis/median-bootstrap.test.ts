// The bootstrap without sorting (ranks counted, order statistics selected) gives the interval that
// resampling, sorting each resample and sorting the ratios gives, value for value.
import { describe, expect, it } from 'vitest';
import { bootstrapMedianRatio } from '../../src/analysis/median-bootstrap.js';
import { prng } from '../../src/analysis/prng.js';
import { bootstrapRatioCI, median } from '../../src/analysis/two-sample.js';

/** The plain percentile bootstrap: every resample copied and sorted, the ratios sorted. */
function plain(base: number[], head: number[], seed: number, iterations: number, confidence: number): number[] {
  const rand = prng(seed);
  const resample = (xs: number[]) => median(xs.map(() => xs[Math.floor(rand() * xs.length)]!));
  const ratios = Array.from({ length: iterations }, () => resample(head) / resample(base)).sort((a, b) => a - b);
  const q = (p: number) => {
    const pos = (ratios.length - 1) * p;
    const lo = Math.floor(pos);
    return ratios[lo]! + (ratios[Math.ceil(pos)]! - ratios[lo]!) * (pos - lo);
  };
  const tail = (1 - confidence) / 2;
  return [q(tail), q(1 - tail)];
}

/** n samples from a seeded generator, rounded to `digits` so that some repeat (ties). */
function samples(n: number, seed: number, digits: number): number[] {
  const rand = prng(seed);
  return Array.from({ length: n }, () => Number((0.5 + rand()).toFixed(digits)));
}

describe('bootstrapMedianRatio', () => {
  it('equals the plain bootstrap for odd and even sizes, with and without ties', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const base = samples(1 + (seed % 17), seed, seed % 3 === 0 ? 1 : 6);
      const head = samples(1 + ((seed * 7) % 23), seed + 1000, seed % 4 === 0 ? 1 : 6);
      expect(bootstrapMedianRatio(base, head, seed, 500, 0.95), `seed ${seed}`).toEqual(
        plain(base, head, seed, 500, 0.95),
      );
    }
  });

  it('equals it where resampled medians are zero (ratios of 0, infinite or NaN)', () => {
    const base = [0, 0, 1, 2];
    const head = [0, 3, 0];
    for (const seed of [1, 2, 3])
      expect(bootstrapMedianRatio(base, head, seed, 400, 0.9)).toEqual(plain(base, head, seed, 400, 0.9));
  });

  it('equals it at the default iterations and confidence, through bootstrapRatioCI', () => {
    const base = samples(30, 5, 4);
    const head = samples(30, 6, 4).map((x) => x * 1.1);
    expect(bootstrapRatioCI(base, head, 3)).toEqual(plain(base, head, 3, 2000, 0.95));
  });

  it('takes an interval of identical samples to exactly 1', () => {
    expect(bootstrapMedianRatio([2, 2, 2], [2, 2, 2], 1, 100, 0.95)).toEqual([1, 1]);
  });
});
