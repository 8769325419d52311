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
import type { Tools } from '../machine/tools.js';
import { commandLine, type Job } from '../model/job.js';
import { INSIDE } from '../model/sandbox.js';
import { runInJob, tail, timeoutMs } from './common.js';
import { FILE_TRACE_CALLS, parseFileTrace, pathsInTree } from './parse-file-trace.js';

/** Where the side's tree is inside the sandbox: the checkout, and programs from another folder (`--programs`). */
const TREE = [
  { inside: INSIDE.side, relative: '' },
  { inside: INSIDE.programs, relative: 'programs' },
];

/** What one traced run saw, as a side's tree names it. */
interface PointTrace {
  /** Paths in the side's tree the processes touched ("programs/wc/x.json", "node_modules/a/index.js"). */
  paths: string[];
  /** The folders among them whose names a process listed. */
  listed: string[];
  /** Why the trace is not complete (reads through io_uring), when so. */
  notFullyTraced?: string;
  /**
   * Paths outside the scratch folder a process tried to write (the sandbox refused them): in the
   * side's tree as it names them ("programs/wc/out.txt"), elsewhere as the sandbox shows them.
   */
  refusedWrites: string[];
  seconds: number;
}

export type TraceOutcome = { ok: true; trace: PointTrace } | { ok: false; reason: string; seconds: number };

/** The strace command line of a file trace, writing to `file`. */
function fileTraceCommand(strace: string, file: string): string[] {
  return [strace, '-f', '--seccomp-bpf', '-qq', '-y', '-s', '65535', '-e', `trace=${FILE_TRACE_CALLS}`, '-o', file];
}

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
  const parsed = parseFileTrace(readFileSync(file, 'utf8'), cwd);
  const scratch = `${INSIDE.scratch}/`;
  const listedOnly = new Map([...parsed.paths].filter(([, kinds]) => kinds.has('list')));
  return {
    ok: true,
    trace: {
      paths: pathsInTree(parsed, TREE),
      listed: pathsInTree({ paths: listedOnly }, TREE),
      ...(parsed.blind ? { notFullyTraced: parsed.blind } : {}),
      refusedWrites: parsed.refusedWrites
        .filter((p) => !p.startsWith(scratch) && !p.startsWith('/dev/'))
        .map((p) => pathsInTree({ paths: new Map([[p, new Set()]]) }, TREE, [])[0] ?? p),
      seconds: r.seconds,
    },
  };
}
