/**
 * noise.json: a machine's calibrated noise thresholds (written by `npm run calibrate`, stored as
 * <store>/<machine>/noise.json, read by pairs, compare and the site). A machine that was never
 * calibrated gets a file with `repeats: 0` and no thresholds, so readers never meet a missing or
 * foreign-shaped file.
 *
 * Schema 2 names how the thresholds were measured: `paired` (A/A paired diffs, the calibration
 * `npm run calibrate` makes) or `rounds` (A/A rounds of whole bench runs, the calibration before
 * it). Schema 1 files are all of the second kind and are read as such (migrateNoise), never
 * relabelled as paired. The site reads `thresholds` only, which both schemas share.
 */
import { z } from 'zod';
import { NoiseKey, Num, SafeRecord, Text } from './parts/fields.js';
import { MachineId } from './results-format.js';

export const NOISE_SCHEMA = 2;

export const NoiseFile = z
  .object({
    schema: z.literal(NOISE_SCHEMA),
    machine: MachineId,
    created: Text('short'),
    /** How the A/A noise was measured: paired diffs, or (older files) alternating bench rounds. */
    method: z.enum(['paired', 'rounds']),
    /** A/A diffs (paired) or rounds measured; 0 = not calibrated yet. */
    repeats: Num.int().nonnegative(),
    /** "<benchmark id> <metric>" -> minimum relative effect to call a change. */
    thresholds: SafeRecord(NoiseKey, Num.nonnegative()),
  })
  .strict();
export type NoiseFile = z.infer<typeof NoiseFile>;

/** Takes a schema-1 file (A/A rounds) to schema 2; anything else is left to the schema check. */
export function migrateNoise(raw: unknown): unknown {
  const r = raw as { schema?: unknown; rounds?: unknown } | null;
  if (r === null || typeof r !== 'object' || r.schema !== 1) return raw;
  const { rounds, ...rest } = r as Record<string, unknown>;
  return { ...rest, schema: NOISE_SCHEMA, method: 'rounds', repeats: rounds };
}

/** The file of a machine that has no calibration yet. */
export function uncalibrated(machine: string, created = new Date(0).toISOString()): NoiseFile {
  return { schema: NOISE_SCHEMA, machine, created, method: 'paired', repeats: 0, thresholds: {} };
}

/** Per-benchmark minimum effects written by `npm run calibrate` (id + " " + metric -> ratio). */
export type NoiseThresholds = Record<string, number>;
