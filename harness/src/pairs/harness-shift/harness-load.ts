/**
 * The harness's own load, bounded: the two recordings' harness CPU times (harness-cpu.ts) may
 * differ by this much before a change counts as doing more work of its own while programs are
 * measured (a busy loop between jobs), which sends the diff to the timed shift. Pure.
 */
import type { TranscriptVerdict } from '../../formats/transcript-format.js';

/**
 * The bound: a share of the base's CPU time, and a floor for short recordings. Measured A/A (the
 * same harness recorded on both sides at once, the smoke profile of every experiment, three
 * times): over the whole run (load 3–10) 10.62/10.74, 10.07/9.81 and 9.42/9.66 s, at most 0.26 s
 * apart; in the window in which the points' processes ran (load 2.9–4.8, a counting run beside
 * it) 4.34/4.64, 4.67/4.79 and 4.79/5.08 s, at most 0.30 s apart. The bound leaves room
 * for a busier machine, and a busy loop of 2.5 s per job is well beyond it.
 */
const HARNESS_LOAD_SHARE = 0.2;
export const HARNESS_LOAD_FLOOR = 1.5;

export function harnessLoad(base: number | undefined, head: number | undefined): TranscriptVerdict['harnessLoad'] {
  const bound = Math.round(Math.max(HARNESS_LOAD_FLOOR, HARNESS_LOAD_SHARE * (base ?? 0)) * 100) / 100;
  const within = base !== undefined && head !== undefined && Math.abs(head - base) <= bound;
  return { base: base ?? null, head: head ?? null, bound, within };
}
