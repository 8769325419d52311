/**
 * The paired runner's seam, as `run/runner.ts` is bench's: what the scheduler asks of whoever runs
 * the processes. The real executor (./real-executor.ts) runs programs with one strategy per point
 * kind; tests give the scheduler a fake one and check its schedule in milliseconds.
 */

import type { PairsCounter } from '../../formats/pairs-format.js';
import type { Job } from '../../model/job.js';
import type { FitSizes } from '../decide/fit-pairs.js';
import type { Impact } from '../decide/impact.js';
import type { MeasuredPair, PointKind } from '../decide/point.js';

/** A point matched between base and head, ready to be measured. */
export interface PointPlan {
  id: string;
  base: Job;
  head: Job;
  kind: PointKind;
  /** The measured-input identity (plan/identify-inputs.ts) differs between base and head. */
  changed: boolean;
  /** Why it is measured: the PR may have changed it, or it is one of the diff's A/A controls. */
  impact: Impact;
  /** What differs in its workload (pairs/decide/workload.ts), when the PR changed what it is asked to do. */
  workloadChange?: string;
  /**
   * Its two jobs time the commands each harness was recorded timing (pairs/diff/recorded-pairs.ts):
   * their answers were checked in those recordings, and their work is counted by both harnesses.
   */
  recordedCommands?: true;
}

export type SideName = 'base' | 'head';

/** Why a point could not be measured, and on which side. */
export interface Failure {
  side: SideName;
  reason: string;
  /** The head's failure too, when the base failed first (the head is still checked: both sides vs broken). */
  headToo?: string;
}

/** What happens once per point before its pairs: checks, counters and warm-ups. */
interface Prepared {
  /** Counters that differ between the sides (compared exactly over untimed traces of each side). */
  counters: PairsCounter[];
  /** Operations per process at the small and the large size (fit points). */
  sizes?: FitSizes;
  /** Seconds one pair took in the warm-ups (the budget's first estimate). */
  secondsPerPair: number;
}

export type Prepare = { ok: true; prepared: Prepared } | { ok: false; failed: Failure };
export type Batch = { ok: true; pairs: MeasuredPair[] } | { ok: false; failed: Failure };

export interface PairExecutor {
  prepare(point: PointPlan): Promise<Prepare>;
  /** Measures `count` pairs, the first of them pair number `from` of the point (its order comes from the seed). */
  measure(point: PointPlan, from: number, count: number): Promise<Batch>;
}
