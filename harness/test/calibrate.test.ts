// Calibration statistics: round splits, false positives on identical rounds, MDE and thresholds.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prng } from '../src/analysis/two-sample.js';
import { calibrateMetric, NoiseFile, roundSplits } from '../src/calibrate/noise.js';
import { FIXTURES, runCli } from './helpers/cli.js';

const round = (center: number, seed: number, spread = 0.02) => {
  const r = prng(seed);
  return Array.from({ length: 5 }, () => center * (1 + spread * (r() - 0.5)));
};

describe('calibration', () => {
  it('enumerates each split of the rounds into two halves once', () => {
    expect(roundSplits(4)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
    ]);
    expect(roundSplits(6)).toHaveLength(10); // C(6,3) / 2
  });

  it('finds no false positives on quiet, identical rounds, and a small threshold', () => {
    const row = calibrateMetric(
      'x wall_time',
      [1, 2, 3, 4, 5, 6].map((s) => round(0.1, s)),
      'smaller',
    );
    expect(row.falsePositiveRate).toBe(0);
    expect(row.cv).toBeLessThan(0.02);
    expect(row.threshold).toBeGreaterThanOrEqual(0.02);
    expect(row.threshold).toBeLessThan(0.05);
  });

  it('raises the threshold when rounds drift apart', () => {
    const drifting = [1, 2, 3, 4, 5, 6].map((s) => round(0.1 * (1 + 0.15 * (s % 2)), s));
    const row = calibrateMetric('x wall_time', drifting, 'smaller');
    expect(row.roundCv).toBeGreaterThan(0.05);
    expect(row.threshold).toBeGreaterThan(0.1);
  });

  it('computes the MDE from the noise and the sample count', () => {
    const quiet = calibrateMetric(
      'a',
      [1, 2, 3, 4].map((s) => round(1, s, 0.02)),
      'smaller',
    );
    const noisy = calibrateMetric(
      'b',
      [1, 2, 3, 4].map((s) => round(1, s, 0.2)),
      'smaller',
    );
    expect(noisy.mde).toBeGreaterThan(quiet.mde * 5);
  });
});

describe('npm run calibrate', () => {
  it('runs A/A rounds and writes calibration.md, noise.json and the store copy that compare --noise-store reads', () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-cal-'));
    const store = join(out, 'store');
    const r = runCli([
      'calibrate',
      '--rounds',
      '2',
      '--out',
      out,
      '--store',
      store,
      '--',
      '--profile',
      'smoke',
      '--programs',
      join(FIXTURES, 'faults'),
      '--variants',
      'ok',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const noise = NoiseFile.parse(JSON.parse(readFileSync(join(out, 'noise.json'), 'utf8')));
    expect(noise.rounds).toBe(2);
    expect(Object.keys(noise.thresholds)).toEqual(['faults/ok/bs=65536 wall_time']);
    expect(noise.thresholds['faults/ok/bs=65536 wall_time']).toBeGreaterThanOrEqual(0.02);
    expect(NoiseFile.parse(JSON.parse(readFileSync(join(store, noise.machine, 'noise.json'), 'utf8')))).toEqual(noise);
    expect(readFileSync(join(out, 'calibration.md'), 'utf8')).toMatch(/^# A\/A calibration on `[\w.-]+`/);
  });
});
