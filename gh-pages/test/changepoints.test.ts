// Change-point detection on synthetic histories with known steps: precision and recall.
import { describe, expect, it } from 'vitest';
import { prng } from '../../harness/src/analysis/two-sample.js';
import { detectChangePoints } from '../src/change-detection.js';

function series(n: number, steps: Record<number, number>, noise: number, seed: number): number[] {
  const rand = prng(seed);
  let level = 100;
  return Array.from({ length: n }, (_, i) => {
    if (steps[i]) level *= steps[i]!;
    return level * (1 + noise * (rand() - 0.5) * 2);
  });
}

describe('detectChangePoints', () => {
  it('finds a single 20% step at the right commit', () => {
    const cps = detectChangePoints(series(60, { 30: 1.2 }, 0.01, 1));
    expect(cps.map((c) => c.index)).toEqual([30]);
    expect(cps[0]!.ratio).toBeCloseTo(1.2, 1);
  });

  it('reports nothing on noise alone', () => {
    for (let seed = 1; seed <= 20; seed++) expect(detectChangePoints(series(100, {}, 0.02, seed))).toEqual([]);
  });

  it('skips missing values and reports indexes in the original series', () => {
    const s: (number | null)[] = series(40, { 20: 0.7 }, 0.01, 3);
    s[5] = null;
    s[25] = null;
    expect(detectChangePoints(s).map((c) => c.index)).toEqual([20]);
  });

  it('has high precision and recall over many synthetic histories', () => {
    let truePos = 0;
    let falsePos = 0;
    let planted = 0;
    for (let seed = 1; seed <= 50; seed++) {
      const rand = prng(seed * 7);
      const a = 15 + Math.floor(rand() * 20);
      const b = a + 15 + Math.floor(rand() * 20);
      const steps = { [a]: 1.1 + rand() * 0.3, [b]: 0.75 + rand() * 0.1 };
      planted += 2;
      const found = detectChangePoints(series(90, steps, 0.015, seed)).map((c) => c.index);
      for (const f of found) {
        if (Math.abs(f - a) <= 1 || Math.abs(f - b) <= 1) truePos++;
        else falsePos++;
      }
    }
    const precision = truePos / (truePos + falsePos);
    const recall = truePos / planted;
    // eslint-disable-next-line no-console
    console.log(
      `change points: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} over ${planted} planted steps`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.95);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });

  it('lets a calibrated threshold ignore smaller steps', () => {
    const s = series(60, { 30: 1.08 }, 0.005, 5);
    expect(detectChangePoints(s)).toHaveLength(1);
    expect(detectChangePoints(s, 0.1)).toEqual([]);
  });
});
