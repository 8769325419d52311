/**
 * The trace pass: one untimed run of a job's whole command line (its input generator, the pipe and
 * the program) under `strace -f` inside the job's sandbox, for every file its processes open,
 * execute, stat, list or look for and do not find. The paths come out as the sandbox shows them,
 * so the side's own files are the ones under `/jsio/side` whichever checkout it is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeExit } from '../lib/exec.js';
import { translate } from '../machine/sandbox/argv.js';
import { fileTraceCommand, type PointTrace, treeTrace } from '../machine/sandbox/traced-step.js';
import type { Tools } from '../machine/tools.js';
import { commandLine, type Job } from '../model/job.js';
import { runInJob, tail, timeoutMs } from './common.js';

export type TraceOutcome = { ok: true; trace: PointTrace } | { ok: false; reason: string; seconds: number };

/**
 * Traces one run of `job` (which must have a sandbox: the paths must be the side's fixed ones).
 * `work` is the run's own folder (the trace's file goes there).
 */
export async function traceJob(job: Job, tools: Tools, work: string): Promise<TraceOutcome> {
  if (!tools.strace) return { ok: false, reason: 'not traced: strace missing (apt-get install strace)', seconds: 0 };
  if (!job.sandbox) return { ok: false, reason: 'not traced: the point runs without a sandbox', seconds: 0 };
  const file = join(work, 'trace.txt');
  const argv = [...fileTraceCommand(tools.strace, file), 'bash', '-c', `set -o pipefail; ${commandLine(job)}`];
  const r = await runInJob(job, argv, timeoutMs(job, 4), work);
  if (r.code !== 0)
    return {
      ok: false,
      reason: `not traced: the traced run ${describeExit(r, timeoutMs(job, 4))}: ${tail(r.stderr)}`,
      seconds: r.seconds,
    };
  const cwd = translate(job.cwd, job.sandbox.roots);
  return { ok: true, trace: treeTrace(readFileSync(file, 'utf8'), cwd, r.seconds) };
}
