// The slope analysis recovers a known line from synthetic benchmarks, one fit per variant and
// combination of the other parameters, and reports a poorer R² for scattered points.
import { describe, expect, it } from 'vitest';
import { fitLine, slopes } from '../../src/analysis/slope.js';
import type { Benchmark } from '../../src/formats/results-format.js';

function bench(variant: string, n: number, mode: string, seconds: number): Benchmark {
  return {
    id: `streams/${variant}/mode=${mode},n=${n}`,
    experiment: 'streams',
    variant,
    params: { n, mode },
    status: 'ok',
    derived: { input_lines: 1000 },
    metrics: {
      wall_time: { unit: 's', direction: 'smaller', value: seconds, deterministic: false, source: 'hyperfine' },
    },
  };
}

describe('slope analysis', () => {
  it('fits time = 2 ms per transform + 50 ms exactly', () => {
    const ns = [0, 1, 10, 20, 40, 100];
    const bs = [
      ...ns.map((n) => bench('a', n, 'sync', 0.05 + 0.002 * n)),
      ...ns.map((n) => bench('a', n, 'async', 0.06 + 0.005 * n)),
    ];
    const fits = slopes('streams', { x: 'n', metric: 'wall_time', per: { value: 'input_lines' } }, bs);
    expect(fits).toHaveLength(2);
    const sync = fits.find((f) => f.params.mode === 'sync');
    expect(sync?.slope).toBeCloseTo(0.002, 12);
    expect(sync?.intercept).toBeCloseTo(0.05, 12);
    expect(sync?.r2).toBeCloseTo(1, 12);
    expect(sync?.points).toBe(6);
    expect(sync?.per).toBe(1000);
    expect(fits.find((f) => f.params.mode === 'async')?.slope).toBeCloseTo(0.005, 12);
  });

  it('ignores failed points, other experiments, and groups with a single x', () => {
    const bs = [
      bench('a', 0, 'sync', 1),
      { ...bench('a', 10, 'sync', 2), status: 'failed' as const },
      { ...bench('a', 20, 'sync', 3), experiment: 'other' },
    ];
    expect(slopes('streams', { x: 'n', metric: 'wall_time' }, bs)).toEqual([]);
  });

  it('gives R² below 1 for scattered points', () => {
    const fit = fitLine([
      [0, 1],
      [1, 3],
      [2, 2],
      [3, 5],
    ]);
    expect(fit.slope).toBeCloseTo(1.1, 12);
    expect(fit.r2).toBeGreaterThan(0);
    expect(fit.r2).toBeLessThan(1);
  });
});
