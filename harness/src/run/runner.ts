/**
 * What every runner returns: the raw samples of one job, before any unit is converted or any
 * statistic taken (normalize does that). A runner measures a job and never writes into it.
 */

import type { Validation } from '../formats/results-format.js';
import type { Tools } from '../machine/tools.js';
import type { Job } from '../model/job.js';
import type { SyscallCounts } from './parse-strace.js';

/** One timed run of the program. */
export interface RawRun {
  /** Wall seconds of the run. */
  wall: number;
  /** Max RSS of the whole pipeline, when the timer measured it (hyperfine >= 1.16). */
  memoryBytes?: number;
  /** The run's own report line (runner "self" reads every run's line). */
  report?: Record<string, number>;
  /** Per-item values the run reported (runner "self": fields declared with `samples`). */
  items?: Record<string, number[]>;
  /**
   * What `report` and `items` were read from, as the program printed it (runner "self"): a run
   * reduced by another harness (`bench --reduce`) is read again by that harness's own parser.
   */
  output?: string;
  /** GNU time's report of the run, as written (the reduction reads its peak RSS again). */
  time?: string;
}

export interface RawSamples {
  status: 'ok' | 'failed' | 'skipped';
  reason?: string;
  /** The command that was timed, as the shell ran it. */
  command: string;
  /** Who timed the runs: hyperfine, or the harness itself. */
  timer: 'hyperfine' | 'harness';
  validation?: Validation;
  /** The fields of the checked report (the untimed check run, or the last timed run). */
  report: Record<string, number>;
  runs: RawRun[];
  /** Fit experiments: the runs at every size (smallest first, the job's own size last), with the operations one run makes there. */
  sizes?: { scale: number; x: number; bytes?: number; runs: RawRun[] }[];
  /** Max RSS of the program alone (GNU time), the largest over the runs it watched. */
  maxRssBytes?: number;
  syscalls?: SyscallCounts;
  notes: string[];
  /** Seconds spent in processes that ran the measured command (untimed runs included). */
  measuredSeconds: number;
}

/** A way to measure a job: hyperfine for whole-process timing, or the harness for self-reporting programs. */
export interface Runner {
  measure(job: Job, tools: Tools): Promise<RawSamples>;
}
