/**
 * Calibration from an A/A experiment (the same build measured as "base" and "head" in
 * alternating rounds). Per benchmark metric: the coefficient of variation, the false-positive
 * rate of compare's verdict over every way of splitting the rounds into two sides (round-level
 * splits keep the drift between rounds, which is what fools naive tests), the minimal detectable
 * effect at 95% confidence / 80% power, and the noise threshold compare and the site then use.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compareSamples, MIN_EFFECT } from '../analysis/two-sample.js';
import { UserError } from '../lib/errors.js';
import { readJsonFile } from '../lib/json-file.js';
import { NoiseFile } from '../model/noise.js';

/** z quantiles: two-sided 95% confidence, 80% power. */
const Z_ALPHA = 1.959964;
const Z_POWER = 0.841621;
/** At most this many round splits are evaluated (C(2R, R) / 2 grows fast). */
const MAX_SPLITS = 200;

export interface NoiseRow {
  key: string;
  cv: number;
  roundCv: number;
  falsePositiveRate: number;
  splits: number;
  mde: number;
  threshold: number;
  n: number;
}

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
function cvOf(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
  return m ? sd / m : 0;
}
function medianOf(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** Every way to choose half of the rounds as "base" (without mirror duplicates), capped. */
export function roundSplits(rounds: number): number[][] {
  const half = rounds >> 1;
  const out: number[][] = [];
  const pick = (start: number, chosen: number[]) => {
    if (out.length >= MAX_SPLITS) return;
    if (chosen.length === half) {
      if (chosen[0] === 0) out.push(chosen); // fixing round 0 on one side drops mirror images
      return;
    }
    for (let i = start; i < rounds; i++) pick(i + 1, [...chosen, i]);
  };
  pick(0, []);
  return out;
}

/**
 * rounds[i] = the samples of round i (both sides of the A/A run, in run order).
 * Relative MDE for a two-sample comparison with n samples per side; the noise that matters is
 * the larger of the within-round CV (per sample) and the between-round CV (per round).
 */
export function calibrateMetric(key: string, rounds: readonly number[][], direction: 'smaller' | 'bigger'): NoiseRow {
  const all = rounds.flat();
  const perSide = all.length / 2;
  const cv = cvOf(all);
  const roundCv = cvOf(rounds.map(medianOf));
  const mde =
    (Z_ALPHA + Z_POWER) * Math.SQRT2 * Math.max(cv / Math.sqrt(perSide), roundCv / Math.sqrt(rounds.length / 2));
  const splits = roundSplits(rounds.length);
  let positives = 0;
  const effects: number[] = [];
  for (const baseRounds of splits) {
    const base = rounds.filter((_, i) => baseRounds.includes(i)).flat();
    const head = rounds.filter((_, i) => !baseRounds.includes(i)).flat();
    const c = compareSamples(base, head, direction);
    if (c.verdict !== 'unchanged') positives++;
    effects.push(Math.abs(c.ratio - 1));
  }
  effects.sort((a, b) => a - b);
  const p95 = effects.length ? effects[Math.min(effects.length - 1, Math.floor(effects.length * 0.95))]! : 0;
  return {
    key,
    cv,
    roundCv,
    falsePositiveRate: splits.length ? positives / splits.length : 0,
    splits: splits.length,
    mde,
    threshold: Math.max(MIN_EFFECT, mde, p95),
    n: perSide,
  };
}

/** The thresholds to use, and what the comparison should say about them. */
export interface NoiseChoice {
  thresholds: Record<string, number>;
  note: string;
  warning?: string;
}

export const NO_CALIBRATION =
  'no calibration for this machine yet, so the 2% minimum effect applies (npm run calibrate measures one)';

/**
 * Thresholds apply only to the machine they were calibrated on: another machine's noise says
 * nothing about this one. Returns the thresholds to use and a note for the comparison.
 */
export function noiseFor(noise: NoiseFile, machine: string): NoiseChoice {
  if (noise.machine !== machine) {
    return {
      thresholds: {},
      note: '',
      warning: `the noise thresholds given were calibrated on ${noise.machine}, not on ${machine}, so they were not used (the 2% minimum effect applies)`,
    };
  }
  if (noise.rounds === 0) return { thresholds: {}, note: NO_CALIBRATION };
  return {
    thresholds: noise.thresholds,
    note: `noise thresholds calibrated on this machine ${noise.created.slice(0, 10)} (${noise.rounds} rounds)`,
  };
}

export { NoiseFile };

/** Reads a noise.json, naming the file and the field when it is not one. */
export function readNoiseFile(file: string): NoiseFile {
  return readJsonFile(file, NoiseFile, { hint: 'write it again with npm run calibrate' });
}

export interface NoiseSource {
  noise?: string;
  noiseStore?: string;
}

/** The noise source the commands' --noise and --noise-store flags name. */
export function noiseSourceOf(flags: { noise?: string; 'noise-store'?: string }): NoiseSource {
  return {
    ...(flags.noise ? { noise: flags.noise } : {}),
    ...(flags['noise-store'] ? { noiseStore: flags['noise-store'] } : {}),
  };
}

/**
 * The noise to compare with: a file (--noise), or this machine's file in a store (--noise-store;
 * a machine with no calibration yet is normal, not an error), or none. Read and validated as
 * soon as the machine is known: before any measuring, never after.
 */
export function loadNoise(source: NoiseSource, machine: string): NoiseChoice {
  if (source.noise && source.noiseStore) throw new UserError('give --noise FILE or --noise-store DIR, not both');
  if (source.noise) return noiseFor(readNoiseFile(source.noise), machine);
  if (source.noiseStore) {
    const file = join(source.noiseStore, machine, 'noise.json');
    return existsSync(file) ? noiseFor(readNoiseFile(file), machine) : { thresholds: {}, note: NO_CALIBRATION };
  }
  return { thresholds: {}, note: '' };
}
