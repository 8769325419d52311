// The false-call rate of a whole diff (pairs/decide/multiplicity.ts): the diff's alpha is shared out
// over its points, so a simulated A/A diff of 300 points calls far fewer than one point, while a
// planted 5% slowdown of a changed point is still found. Seeded simulations: no timing, no flake.
import { describe, expect, it } from 'vitest';
import {
  FALSE_POSITIVE_LEVEL,
  falsePositiveNote,
  planAtLevel,
  pointAlphas,
} from '../../../src/pairs/decide/multiplicity.js';
import { DEFAULT_PLAN, runSequential, type SequentialPlan } from '../../../src/pairs/decide/sequential.js';

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const gaussian = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());

/** One point's verdict: per-pair log-ratios with `sd` noise around ln(factor), under `plan`. */
function verdict(plan: SequentialPlan, seed: number, factor = 1, sd = 0.04) {
  const r = prng(seed);
  return runSequential((k) => Array.from({ length: k }, () => Math.log(factor) + sd * gaussian(r)), {
    affordablePairs: 60,
    plan,
  }).verdict;
}

/** Calls of a change in `diffs` simulated A/A diffs of `points` points each. */
function aaChanged(points: number, diffs: number, plan: (i: number) => SequentialPlan): number {
  let changed = 0;
  for (let d = 0; d < diffs; d++)
    for (let i = 0; i < points; i++) {
      const v = verdict(plan(i), 1_000_003 * d + i);
      if (v === 'slower' || v === 'faster') changed++;
    }
  return changed;
}

describe('a diff-wide false-call level', () => {
  it('shares the level equally among the measured points, affected and control alike', () => {
    const pts = [
      ...Array.from({ length: 20 }, () => ({ impact: 'affected' as const })),
      ...Array.from({ length: 6 }, () => ({ impact: 'control' as const })),
    ];
    const a = pointAlphas(pts);
    expect(a[0]).toBeCloseTo(FALSE_POSITIVE_LEVEL / 26, 12);
    expect(a[25]).toBe(a[0]);
    expect(a.reduce((x, y) => x + y, 0)).toBeCloseTo(FALSE_POSITIVE_LEVEL, 12);
    expect(pointAlphas([{}, {}])).toEqual([0.025, 0.025]);
    const p = planAtLevel(DEFAULT_PLAN, 0.001);
    expect(p.alphas.reduce((x, y) => x + y, 0)).toBeCloseTo(0.001, 12);
    expect(p.alphas[3]! / p.alphas[0]!).toBeCloseTo(4, 12);
    expect(p.betas).toEqual(DEFAULT_PLAN.betas);
    expect(falsePositiveNote(pts)).toMatch(
      /5% \(Bonferroni: shared equally by the 26 measured points \(20 affected, 6 control\)/,
    );
  });

  it('a 300-point A/A diff: several calls per diff at 5% per point, far fewer than one with the shared level', () => {
    const points = 300;
    const diffs = 3;
    const before = aaChanged(points, diffs, () => DEFAULT_PLAN);
    const shared = planAtLevel(DEFAULT_PLAN, FALSE_POSITIVE_LEVEL / points);
    const after = aaChanged(points, diffs, () => shared);
    // Per point the rule calls ~1-3% of A/A points: a few calls in every 300-point diff.
    expect(before / diffs).toBeGreaterThan(2);
    // At most FALSE_POSITIVE_LEVEL calls per diff in expectation (union bound): none in these diffs.
    expect(after).toBe(0);
  });

  it('a planted 5% slowdown of one of 26 measured points (20 affected, 6 control) is still called slower', () => {
    const pts = Array.from({ length: 26 }, () => ({}));
    const plan = planAtLevel(DEFAULT_PLAN, pointAlphas(pts)[0]!);
    const trials = 200;
    let before = 0;
    let after = 0;
    for (let t = 0; t < trials; t++) {
      if (verdict(DEFAULT_PLAN, 77 + t, 1.05) === 'slower') before++;
      if (verdict(plan, 77 + t, 1.05) === 'slower') after++;
    }
    expect(before / trials).toBeGreaterThanOrEqual(0.95);
    expect(after / trials).toBeGreaterThanOrEqual(0.9);
  });
});
