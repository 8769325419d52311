/**
 * noise.json: a machine's calibrated noise thresholds (written by `npm run calibrate`, stored as
 * <store>/<machine>/noise.json, read by compare, rounds and the site). A machine that was never
 * calibrated gets a file with `rounds: 0` and no thresholds, so readers never meet a missing or
 * foreign-shaped file.
 */
import { z } from 'zod';
import { MachineId } from './results.js';

export const NOISE_SCHEMA = 1;

export const NoiseFile = z
  .object({
    schema: z.literal(NOISE_SCHEMA),
    machine: MachineId,
    created: z.string(),
    /** A/A rounds measured; 0 = not calibrated yet. */
    rounds: z.number().int().nonnegative(),
    /** "<benchmark id> <metric>" -> minimum relative effect to call a change. */
    thresholds: z.record(z.string(), z.number().nonnegative()),
  })
  .strict();
export type NoiseFile = z.infer<typeof NoiseFile>;

/** The file of a machine that has no calibration yet. */
export function uncalibrated(machine: string, created = new Date(0).toISOString()): NoiseFile {
  return { schema: NOISE_SCHEMA, machine, created, rounds: 0, thresholds: {} };
}
