/**
 * The harness's own load, bounded: the two recordings' harness CPU times (harness-cpu.ts) may
 * differ by this much before a change counts as doing more work of its own while programs are
 * measured (a busy loop between jobs), which sends the diff to the timed shift. Pure.
 */
import type { TranscriptVerdict } from '../../model/transcript-document.js';

/**
 * The bound: a share of the base's CPU time, and a floor for short recordings. Measured A/A (the
 * same harness recorded on both sides at once; docs/paired-design.md "The harness's own load"):
 * at smoke, wc C, the two sides' CPU times differed by up to HARNESS_LOAD_FLOOR / 3.
 */
const HARNESS_LOAD_SHARE = 0.2;
export const HARNESS_LOAD_FLOOR = 1.5;

export function harnessLoad(base: number | undefined, head: number | undefined): TranscriptVerdict['harnessLoad'] {
  const bound = Math.round(Math.max(HARNESS_LOAD_FLOOR, HARNESS_LOAD_SHARE * (base ?? 0)) * 100) / 100;
  const within = base !== undefined && head !== undefined && Math.abs(head - base) <= bound;
  return { base: base ?? null, head: head ?? null, bound, within };
}
