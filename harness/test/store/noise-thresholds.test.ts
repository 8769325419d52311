// Calibration is the paired A/A calibration: its noise.json (schema 2) is what pairs, compare and
// the site read; older files (schema 1, A/A rounds) are read as what they are, never relabelled.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NoiseFile, uncalibrated } from '../../src/formats/noise-format.js';
import { NO_CALIBRATION, noiseFor, readNoiseFile } from '../../src/store/noise-thresholds.js';
import { runCli } from '../helpers/cli.js';

const write = (value: unknown) => {
  const file = join(mkdtempSync(join(tmpdir(), 'jsio-noise-')), 'noise.json');
  writeFileSync(file, JSON.stringify(value));
  return file;
};

describe('noise.json', () => {
  it('reads a schema-1 file (A/A rounds) as a rounds calibration, thresholds kept', () => {
    const file = write({
      schema: 1,
      machine: 'm',
      created: '2026-11-20T00:00:00Z',
      rounds: 6,
      thresholds: { 'wc/c/bs=65536 wall_time': 0.04 },
    });
    const n = readNoiseFile(file);
    expect(n).toEqual({
      schema: 2,
      machine: 'm',
      created: '2026-11-20T00:00:00Z',
      method: 'rounds',
      repeats: 6,
      thresholds: { 'wc/c/bs=65536 wall_time': 0.04 },
    });
    expect(noiseFor(n, 'm').note).toBe('noise thresholds calibrated on this machine 2026-11-20 (6 rounds)');
  });

  it('names a paired calibration by its diffs, and an uncalibrated machine as such', () => {
    const paired: NoiseFile = { ...uncalibrated('m', '2026-11-24T00:00:00Z'), repeats: 3, thresholds: { x: 0.03 } };
    expect(noiseFor(paired, 'm').note).toBe(
      'noise thresholds calibrated on this machine 2026-11-24 (3 A/A paired diffs)',
    );
    expect(noiseFor(uncalibrated('m'), 'm')).toEqual({ thresholds: {}, note: NO_CALIBRATION });
    expect(noiseFor(paired, 'other').thresholds).toEqual({});
  });

  it('refuses a newer schema and a malformed file, naming the file and the field', () => {
    expect(() => readNoiseFile(write({ ...uncalibrated('m'), schema: 3 }))).toThrow(/schema 3, newer than/);
    expect(() => readNoiseFile(write({ ...uncalibrated('m'), method: 'guess' }))).toThrow(
      /noise\.json is invalid:[\s\S]*method/,
    );
  });
});

describe('npm run calibrate', () => {
  it('runs A/A paired diffs of worktrees and writes calibration.md, noise.json and the store copy pairs --noise-store reads', {
    timeout: 300_000,
  }, () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-cal-'));
    const store = join(out, 'store');
    const r = runCli([
      'calibrate',
      '--repeats',
      '1',
      '--budget',
      '0.3',
      '--plant-ns',
      '0',
      '--out',
      out,
      '--store',
      store,
      '--',
      '--profile',
      'smoke',
      '--experiments',
      'wc',
      '--variants',
      'c',
      '--param',
      'bs=65536',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const noise = NoiseFile.parse(JSON.parse(readFileSync(join(out, 'noise.json'), 'utf8')));
    expect([noise.method, noise.repeats]).toEqual(['paired', 1]);
    // A point gets a threshold once its A/A pairs can be replayed (10 or more of them).
    for (const [key, t] of Object.entries(noise.thresholds)) {
      expect(key).toBe('wc/c/bs=65536 read_cost');
      expect(t).toBeGreaterThanOrEqual(0.02);
    }
    expect(readNoiseFile(join(store, noise.machine, 'noise.json'))).toEqual(noise);
    expect(readFileSync(join(out, 'calibration.md'), 'utf8')).toMatch(/^## Paired-diff calibration on `[\w.-]+`/);
  });
});
