/**
 * Which calibrated noise thresholds a comparison uses: a machine's noise.json (written by
 * `npm run calibrate`, the paired A/A calibration), read from a file or a store, applied only on
 * the machine it was measured on.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { migrateNoise, NOISE_SCHEMA, NoiseFile } from '../formats/noise-format.js';
import { UserError } from '../lib/errors.js';
import { readUntrustedJson } from '../lib/untrusted.js';

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
  if (noise.repeats === 0) return { thresholds: {}, note: NO_CALIBRATION };
  const how = noise.method === 'paired' ? `${noise.repeats} A/A paired diffs` : `${noise.repeats} rounds`;
  return {
    thresholds: noise.thresholds,
    note: `noise thresholds calibrated on this machine ${noise.created.slice(0, 10)} (${how})`,
  };
}

export { NoiseFile };

/**
 * Reads a noise.json, naming the file and the field when it is not one. Calibrations come as
 * workflow artifacts (calibrate.yml's publish job), so this is the untrusted reader.
 */
export function readNoiseFile(file: string): NoiseFile {
  return readUntrustedJson(file, NoiseFile, {
    maxBytes: 16 * 2 ** 20,
    what: 'noise file',
    version: NOISE_SCHEMA,
    migrate: migrateNoise,
    hint: 'write it again with npm run calibrate',
  });
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
