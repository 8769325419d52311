/**
 * A release's value and its interval from a benchmark's metric: a fit keeps its slope and the
 * slope's interval; a sampled metric (a percentile too) is the median of its per-run samples with
 * the median's interval; a counter has no interval.
 */
import { describe, expect, it } from 'vitest';
import { steadyValue } from '../../src/releases/suite-plan.js';

describe('steadyValue', () => {
  it("takes a percentile's per-run values, not the pooled one a single odd run moves", () => {
    // Pooled over the runs, p50 sat in the slow runs' mode; most runs were fast.
    const samples = [1.1, 1.0, 5.6, 1.2, 5.7, 1.1, 1.0, 1.3, 5.5, 1.2, 1.1, 1.0];
    const got = steadyValue({ value: 5.2, samples });
    expect(got.value).toBeCloseTo(1.15, 10);
    // Three slow runs in twelve: the interval reaches into them, as it should.
    expect(got.interval).toEqual([1.0, 5.5]);
  });

  it("keeps a fit's slope and the slope's interval", () => {
    const fit = { x: 'reads', xs: [1, 2], scales: [1, 2], r2: 0.99, n: 10, ci: [2.7, 2.9] as [number, number] };
    expect(steadyValue({ value: 2.8, samples: [1, 9], fit })).toEqual({ value: 2.8, interval: [2.7, 2.9] });
  });

  it("takes a fit's intercept (no interval of its own) as the median of its per-run intercepts", () => {
    const fit = { x: 'reads', xs: [1, 2], scales: [1, 2], r2: 0.99, n: 10 };
    const samples = [6.1, 6.0, 5.9, 6.2, 6.0, 30.0, 6.1];
    expect(steadyValue({ value: 9.5, samples, fit })).toEqual({ value: 6.1, interval: [5.9, 30.0] });
  });

  it('gives a counter (no samples) its count and no interval', () => {
    expect(steadyValue({ value: 44 })).toEqual({ value: 44 });
  });

  it('takes the whole range below six runs (no order statistics reach 95% there)', () => {
    expect(steadyValue({ value: 3, samples: [4, 2, 3] })).toEqual({ value: 3, interval: [2, 4] });
  });
});
