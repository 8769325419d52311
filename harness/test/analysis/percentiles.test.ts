// Percentiles of per-item samples on data whose answers are known by hand (linear
// interpolation at position (n-1)p between sorted values).
import { describe, expect, it } from 'vitest';
import { percentiles } from '../../src/analysis/percentiles.js';

const close = (got: Record<string, number>, want: Record<string, number>) => {
  for (const [k, v] of Object.entries(want)) expect(got[k], k).toBeCloseTo(v, 9);
};

describe('percentiles', () => {
  it('gives the known values for 1..100, whatever the input order', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    close(percentiles(xs), { p50: 50.5, p70: 70.3, p80: 80.2, p90: 90.1, p99: 99.01, max: 100 });
  });

  it('interpolates between neighbours in a small sample', () => {
    // n = 5, positions 0..4: p70 at 2.8 -> 30 + 0.8*10; p99 at 3.96 -> 40 + 0.96*10.
    close(percentiles([50, 10, 40, 20, 30]), { p50: 30, p70: 38, p80: 42, p90: 46, p99: 49.6, max: 50 });
  });

  it('puts the tail into p99 and max: one slow item among many fast ones', () => {
    const xs = [...Array.from({ length: 99 }, () => 1), 100];
    const p = percentiles(xs);
    expect(p.p90).toBe(1);
    expect(p.max).toBe(100);
    expect(p.p99).toBeCloseTo(1.99, 9);
  });

  it('refuses an empty sample', () => {
    expect(() => percentiles([])).toThrow(/no samples/);
  });
});
