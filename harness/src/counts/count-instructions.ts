/**
 * Counts the user-space instructions a job's program retires, in an untimed run under Valgrind's
 * cachegrind (no cache simulation: it only counts), beside the strace pass. The run is made the
 * way every count is (./under-valgrind.ts: the runtime's deterministic settings, a fixed layout,
 * children followed, the answer checked). A count does not depend on how busy the machine is, so
 * counts may run on every core at once. Kernel work is not in it: the syscall counts stand for that.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tools } from '../machine/tools.js';
import type { Job } from '../model/job.js';
import { type ProcessCount, parseCachegrindLog, totalInstructions } from './parse-valgrind.js';
import { type CountedSize, runUnderValgrind } from './under-valgrind.js';

/** How much longer than a timed run a counted one may take: Valgrind runs JIT code tens of times slower. */
export const COUNT_TIMEOUT_FACTOR = 40;

export type InstructionCount =
  | {
      ok: true;
      instructions: number;
      processes: ProcessCount[];
      /** The counted run's report (a fit's x: the reads it made). */
      fields: Record<string, number>;
      seconds: number;
    }
  | { ok: false; reason: string; seconds: number };

const CACHEGRIND = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null'];

/** Counts one run of `size` (a fit's size, or the job's own command) under the job's counting settings. */
export function countInstructions(job: Job, tools: Tools, size?: CountedSize, pin?: string): Promise<InstructionCount> {
  const opts = {
    toolArgs: () => CACHEGRIND,
    timeoutFactor: COUNT_TIMEOUT_FACTOR,
    unavailable: 'counts unavailable',
    ...(size ? { size } : {}),
    ...(pin !== undefined ? { pin } : {}),
  };
  return runUnderValgrind(job, tools, opts, (dir, fields, seconds): InstructionCount => {
    const processes = readdirSync(dir)
      .filter((f) => f.startsWith('vg.'))
      .map((f) => parseCachegrindLog(readFileSync(join(dir, f), 'utf8')));
    if (!processes.length || processes.some((p) => p === undefined))
      return { ok: false, reason: 'counts unavailable: a process under valgrind left no summary', seconds };
    const counted = processes as ProcessCount[];
    return { ok: true, instructions: totalInstructions(counted), processes: counted, fields, seconds };
  });
}
