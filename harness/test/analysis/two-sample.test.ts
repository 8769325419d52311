// The verdict logic on synthetic samples of known distributions (seeded, so deterministic).
import { describe, expect, it } from 'vitest';
import { compareSamples, mannWhitneyP, median, prng } from '../../src/analysis/two-sample.js';

/** n log-normal-ish timings around `center` with ~3% spread, from a seeded generator. */
function timings(n: number, center: number, seed: number): number[] {
  const rand = prng(seed);
  return Array.from({ length: n }, () => {
    const z = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    return center * Math.exp(0.03 * z);
  });
}

describe('compareSamples', () => {
  it('finds no significant change between identical distributions (false positives ≤ alpha-ish)', () => {
    let significant = 0;
    for (let seed = 1; seed <= 200; seed += 2) {
      const { verdict } = compareSamples(timings(15, 0.1, seed), timings(15, 0.1, seed + 1), 'smaller');
      if (verdict === 'slower' || verdict === 'faster') significant++;
    }
    expect(significant).toBeLessThanOrEqual(5); // of 100 A/A comparisons
  });

  it('detects a 20% slowdown with the right direction and a CI around it', () => {
    const c = compareSamples(timings(15, 0.1, 7), timings(15, 0.12, 8), 'smaller');
    expect(c.verdict).toBe('slower');
    expect(c.ratio).toBeGreaterThan(1.15);
    expect(c.ci[0]).toBeGreaterThan(1.1);
    expect(c.ci[1]).toBeLessThan(1.3);
  });

  it('honours bigger-is-better metrics: less throughput is slower, and the ratio is inverted', () => {
    const c = compareSamples(timings(15, 1000, 3), timings(15, 800, 4), 'bigger');
    expect(c.verdict).toBe('slower');
    expect(c.ratio).toBeCloseTo(1.25, 1);
    expect(compareSamples(timings(15, 800, 3), timings(15, 1000, 4), 'bigger').verdict).toBe('faster');
  });

  it('calls a significant but tiny change unchanged, saying why', () => {
    const base = Array.from({ length: 30 }, (_, i) => 1 + i * 1e-6);
    const head = base.map((x) => x * 1.01);
    const c = compareSamples(base, head, 'smaller');
    expect(c.p).toBeLessThan(0.05);
    expect(c.verdict).toBe('unchanged');
    expect(c.note).toMatch(/inside the ±2\.0% margin/);
  });

  it('calls too few samples to test untestable, never unchanged, whatever the difference', () => {
    // 3 against 3: completely separated samples give p = 0.1 at best.
    const c = compareSamples([0.03, 0.031, 0.029], [0.071, 0.07, 0.072], 'smaller');
    expect(c.verdict).toBe('untestable');
    expect(c.ratio).toBeGreaterThan(2);
    expect(c.note).toMatch(/3 against 3 samples cannot reach p < 0\.05/);
    expect(compareSamples([1, 1, 1], [1, 1, 1], 'smaller').verdict).toBe('untestable');
  });

  it('calls a non-significant difference whose interval reaches beyond the margin inconclusive', () => {
    const c = compareSamples(
      timings(8, 0.1, 21),
      timings(8, 0.1, 21)
        .map((x) => x * 1.01)
        .reverse(),
      'smaller',
      0.005,
    );
    expect(c.p).toBeGreaterThanOrEqual(0.05);
    expect(c.verdict).toBe('inconclusive');
    expect(c.note).toMatch(/beyond the ±0\.5% margin/);
  });

  it('lets a calibrated noise threshold raise the minimum effect', () => {
    const base = timings(15, 0.1, 11);
    const head = timings(15, 0.11, 12);
    expect(compareSamples(base, head, 'smaller').verdict).toBe('slower');
    expect(compareSamples(base, head, 'smaller', 0.2).verdict).toBe('unchanged');
  });

  it('is reproducible', () => {
    const a = timings(9, 1, 1);
    const b = timings(9, 1.05, 2);
    expect(compareSamples(a, b, 'smaller')).toEqual(compareSamples(a, b, 'smaller'));
  });
});

describe('helpers', () => {
  it('median', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });

  it('Mann-Whitney: separated samples are significant, identical ones are not', () => {
    expect(mannWhitneyP([1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12])).toBeLessThan(0.01);
    expect(mannWhitneyP([1, 1, 1], [1, 1, 1])).toBe(1);
  });
});
