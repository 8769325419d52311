/**
 * hyperfine --export-json output. 1.15 has times and exit codes per run; 1.16+ adds
 * per-run memory_usage_byte (and 1.20 keeps that). Both shapes are accepted.
 */
import { z } from 'zod';
import { parseJson } from '../lib/json-file.js';

const HyperfineResult = z
  .object({
    command: z.string(),
    mean: z.number(),
    stddev: z.number().nullable(),
    median: z.number(),
    user: z.number(),
    system: z.number(),
    min: z.number(),
    max: z.number(),
    times: z.array(z.number()).min(1),
    exit_codes: z.array(z.number().nullable()),
    memory_usage_byte: z.array(z.number()).optional(),
    parameters: z.record(z.string(), z.string()).optional(),
  })
  .passthrough();

const HyperfineExport = z.object({ results: z.array(HyperfineResult) }).passthrough();

export interface HyperfineRun {
  command: string;
  /** Wall seconds, one per timed run. */
  times: number[];
  exitCodes: (number | null)[];
  /** Max RSS in bytes per run, when hyperfine measured it (>= 1.16). */
  memoryBytes?: number[];
  userSeconds: number;
  systemSeconds: number;
}

export function parseHyperfineJson(file: string, text: string): HyperfineRun[] {
  const parsed = parseJson(file, text, HyperfineExport);
  return parsed.results.map((r) => ({
    command: r.command,
    times: r.times,
    exitCodes: r.exit_codes,
    ...(r.memory_usage_byte ? { memoryBytes: r.memory_usage_byte } : {}),
    userSeconds: r.user,
    systemSeconds: r.system,
  }));
}

/** "hyperfine 1.15.0" -> [1, 15, 0] */
export function parseHyperfineVersion(text: string): [number, number, number] | undefined {
  const m = /hyperfine (\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}
