// The pooled shift of an experiment from rounds of base/head values: fixtures with known answers.
import { describe, expect, it } from 'vitest';
import {
  insideMargin,
  leavesMargin,
  type Observation,
  pooledShift,
  pooledShifts,
  roundShifts,
  settled,
} from '../../../src/pairs/harness-shift/pooled-shift.js';

const obs = (experiment: string, benchmark: string, round: number, base: number, head: number): Observation => ({
  experiment,
  benchmark,
  metric: 'wall_time',
  round,
  base,
  head,
});

describe('roundShifts', () => {
  it("averages a round's points' log-ratios", () => {
    const r = roundShifts([obs('wc', 'a', 0, 100, 110), obs('wc', 'b', 0, 10, 10), obs('wc', 'a', 1, 100, 100)]);
    expect([...r.keys()]).toEqual([0, 1]);
    expect(r.get(0)).toBeCloseTo(Math.log(1.1) / 2, 12);
    expect(r.get(1)).toBe(0);
  });

  it('leaves out pairs without a ratio (zero, negative, NaN)', () => {
    const r = roundShifts([obs('wc', 'a', 0, 0, 1), obs('wc', 'a', 1, Number.NaN, 1), obs('wc', 'a', 2, 1, -1)]);
    expect(r.size).toBe(0);
  });
});

describe('pooledShift', () => {
  it('gives the Hodges-Lehmann ratio of the rounds with the exact signed-rank interval', () => {
    // Six rounds: the fewest with a 95% signed-rank interval, which is then the smallest and the
    // largest Walsh average (the round shifts themselves), coverage 1 - 2/64.
    const ratios = [1.01, 1.03, 1.02, 1.025, 1.015, 1.02];
    const data = ratios.map((r, k) => obs('wc', 'a', k, 1, r));
    const s = pooledShift('wc', data)!;
    expect(s.ratio).toBeCloseTo(1.02, 3);
    expect(s.ci![0]).toBeCloseTo(1.01, 12);
    expect(s.ci![1]).toBeCloseTo(1.03, 12);
    expect(s.rounds).toBe(6);
    expect(s.points).toEqual(['a']);
    expect(s.metrics).toEqual(['wall_time']);
    expect(s.roundRatios).toEqual(ratios);
    // 1.02, at least 1.01: the interval reaches past +1.5 %.
    expect(s.flagged).toBe(true);
  });

  it('is not flagged when the whole interval lies inside ±1.5 %', () => {
    const data = [0, 1, 2, 3, 4, 5, 6, 7].flatMap((r) => [
      obs('wc', 'a', r, 100, 100 + (r % 2 ? 0.3 : -0.3)),
      obs('wc', 'b', r, 5, 5),
    ]);
    const s = pooledShift('wc', data)!;
    expect(s.ratio).toBeCloseTo(1, 4);
    expect(s.ci![0]).toBeGreaterThan(0.985);
    expect(s.ci![1]).toBeLessThan(1.015);
    expect(s.flagged).toBe(false);
    expect(s.points).toEqual(['a', 'b']);
  });

  it('is not thrown by one disturbed round, which a mean and its t interval were', () => {
    // Fourteen quiet rounds within ±0.8 % and one where a stall cost the head's harness 30 %.
    const quiet = [0.4, -0.6, 0.2, -0.8, 0.7, 0.1, -0.3, 0.5, -0.2, 0.3, -0.5, 0.6, -0.1, 0.0];
    const data = [...quiet, -30].map((pct, k) => obs('records', 'a', k, 1, 1 + pct / 100));
    const s = pooledShift('records', data)!;
    expect(Math.abs(s.ratio - 1)).toBeLessThan(0.005);
    expect(s.ci![0]).toBeGreaterThan(0.985);
    expect(s.ci![1]).toBeLessThan(1.015);
    expect(s.flagged).toBe(false);
  });

  it('has no interval, and no flag, with fewer than six rounds', () => {
    const s = pooledShift(
      'wc',
      [0, 1, 2, 3, 4].map((k) => obs('wc', 'a', k, 1, 1.5)),
    )!;
    expect(s.ratio).toBeCloseTo(1.5, 12);
    expect(s.ci).toBeUndefined();
    expect(s.flagged).toBe(false);
  });

  it('is undefined for an experiment without a usable pair', () => {
    expect(pooledShift('wc', [obs('scan', 'a', 0, 1, 1)])).toBeUndefined();
    expect(pooledShift('wc', [obs('wc', 'a', 0, 0, 1)])).toBeUndefined();
  });

  it('pools each experiment apart, in name order', () => {
    const s = pooledShifts([obs('wc', 'a', 0, 1, 1.5), obs('scan', 'b', 0, 1, 0.5)]);
    expect(s.map((x) => [x.experiment, x.ratio])).toEqual([
      ['scan', 0.5],
      ['wc', 1.5],
    ]);
  });
});

describe('leavesMargin', () => {
  it('says whether an interval reaches outside ±margin', () => {
    expect(leavesMargin([0.99, 1.01])).toBe(false);
    expect(leavesMargin([0.984, 1.0])).toBe(true);
    expect(leavesMargin([1.0, 1.016])).toBe(true);
    expect(leavesMargin([0.96, 1.04], 0.05)).toBe(false);
  });
});

describe('insideMargin: the only early stop', () => {
  it('retires an experiment whose interval lies inside the margin, never one that left it', () => {
    expect(insideMargin({ ci: [0.99, 1.01] })).toBe(true);
    expect(insideMargin({ ci: [0.985, 1.015] })).toBe(true);
    // noop14's scan after 8 rounds: "beyond" by the interval, but measured on to the end.
    expect(insideMargin({ ci: [0.8887, 0.9836] })).toBe(false);
    expect(settled({ ci: [0.8887, 0.9836] })).toBe(true);
    expect(insideMargin({ ci: [0.99, 1.02] })).toBe(false);
    expect(insideMargin({})).toBe(false);
  });
});

describe('settled', () => {
  it('is settled inside the margin or wholly beyond it, and open while the interval straddles it', () => {
    expect(settled({ ci: [0.99, 1.01] })).toBe(true);
    expect(settled({ ci: [1.02, 1.05] })).toBe(true);
    expect(settled({ ci: [0.9, 0.98] })).toBe(true);
    expect(settled({ ci: [0.99, 1.02] })).toBe(false);
    expect(settled({ ci: [0.98, 1.01] })).toBe(false);
    expect(settled({})).toBe(false);
  });
});
