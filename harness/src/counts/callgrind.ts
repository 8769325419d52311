/**
 * Where a job's instructions go: one run under Valgrind's callgrind, made exactly as a count is
 * (./under-valgrind.ts: the same command, deterministic settings, fixed layout, children
 * followed, answer checked), one output file per process, each read into its functions' self
 * instructions (./parse-callgrind.ts). It is the evidence beside a count that changed, never the
 * count: callgrind's totals are not cachegrind's to the instruction (docs/counts-breakdown.md),
 * and a breakdown is megabytes per process to write and read, so it is made only where a count
 * changed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tools } from '../machine/tools.js';
import type { Job } from '../model/job.js';
import type { ProcessProfile } from '../model/process-profile.js';
import { COUNT_TIMEOUT_FACTOR } from './count-instructions.js';
import { type ProfileContext, parseCallgrind } from './parse-callgrind.js';
import { type CountedSize, runUnderValgrind } from './under-valgrind.js';

/**
 * A callgrind run gets a count's time: without cache simulation it runs no slower than
 * cachegrind's counting (docs/counts-breakdown.md has the measurements).
 */
const BREAKDOWN_TIMEOUT_FACTOR = COUNT_TIMEOUT_FACTOR;

export type InstructionBreakdown =
  | {
      ok: true;
      /** One per process Valgrind followed, by pid. */
      processes: ProcessProfile[];
      /** The run's report, as a count's. */
      fields: Record<string, number>;
      seconds: number;
    }
  | { ok: false; reason: string; seconds: number };

const UNAVAILABLE = 'instruction breakdown unavailable';
const OUT_FILE = /^cg\.\d+\.out$/;

/**
 * What the files cannot say of a job's processes: a native program, a system tool and a static
 * just(js) app are their own executable, a script's executable is its runtime; only native code
 * and system tools run without a JIT compiler.
 */
export function profileContext(job: Pick<Job, 'variant'>): ProfileContext {
  const native = job.variant.runtime === 'native' || job.variant.runtime === 'system';
  return {
    executable: native || job.variant.build?.kind === 'just-static' ? 'program' : 'runtime',
    jit: !native,
  };
}

/** Reads every process's file in the run's folder, or says which one could not be read. */
function readProfiles(dir: string, context: ProfileContext): ProcessProfile[] | string {
  const files = readdirSync(dir).filter((f) => OUT_FILE.test(f));
  if (!files.length) return 'no process under callgrind left its output';
  const profiles: ProcessProfile[] = [];
  for (const f of files) {
    const parsed = parseCallgrind(readFileSync(join(dir, f), 'utf8'), context);
    if (!parsed.ok) return `${f}: ${parsed.reason}`;
    profiles.push(parsed.profile);
  }
  return profiles.sort((a, b) => (a.pid ?? 0) - (b.pid ?? 0));
}

/** One run of `size` (a fit's size, or the job's own command) under callgrind, read per process. */
export function breakdownInstructions(
  job: Job,
  tools: Tools,
  size?: CountedSize,
  pin?: string,
): Promise<InstructionBreakdown> {
  const opts = {
    toolArgs: (dir: string) => ['--tool=callgrind', `--callgrind-out-file=${join(dir, 'cg.%p.out')}`],
    timeoutFactor: BREAKDOWN_TIMEOUT_FACTOR,
    unavailable: UNAVAILABLE,
    ...(size ? { size } : {}),
    ...(pin !== undefined ? { pin } : {}),
  };
  return runUnderValgrind(job, tools, opts, (dir, fields, seconds): InstructionBreakdown => {
    const processes = readProfiles(dir, profileContext(job));
    return typeof processes === 'string'
      ? { ok: false, reason: `${UNAVAILABLE}: ${processes}`, seconds }
      : { ok: true, processes, fields, seconds };
  });
}
