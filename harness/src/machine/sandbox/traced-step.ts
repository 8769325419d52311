/**
 * A file trace of sandboxed processes as the side's tree names it, and one sandboxed step (a
 * build, an input generator) run under it: `strace -f` on the file and process calls, directory
 * listings included, writing its log into the step's own work folder (/jsio/work). The program's
 * own run is traced the same way (run/trace-files.ts), so the three traces of a point read alike.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ProcessResult, runProcess } from '../../lib/exec.js';
import { INSIDE, type Sandbox, type SandboxRoot } from '../../model/sandbox.js';
import { FILE_TRACE_CALLS, parseFileTrace, pathsInTree } from '../../run/parse-file-trace.js';
import { sandboxCommand, translate } from './argv.js';

/** Where the side's tree is inside the sandbox: the checkout, and programs from another folder (`--programs`). */
const TREE = [
  { inside: INSIDE.side, relative: '' },
  { inside: INSIDE.programs, relative: 'programs' },
];

/** What traced processes saw, as a side's tree names it. */
export interface PointTrace {
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

/** The strace command line of a file trace, writing to `file`. */
export function fileTraceCommand(strace: string, file: string): string[] {
  return [strace, '-f', '--seccomp-bpf', '-qq', '-y', '-s', '65535', '-e', `trace=${FILE_TRACE_CALLS}`, '-o', file];
}

/**
 * A trace log made in a sandbox (`cwd`: where its first process started, as the sandbox shows it)
 * as the side's tree names it; refused writes in the scratch folder or /dev are left out.
 */
export function treeTrace(text: string, cwd: string, seconds: number): PointTrace {
  const parsed = parseFileTrace(text, cwd);
  const scratch = `${INSIDE.scratch}/`;
  const listedOnly = new Map([...parsed.paths].filter(([, kinds]) => kinds.has('list')));
  return {
    paths: pathsInTree(parsed, TREE),
    listed: pathsInTree({ paths: listedOnly }, TREE),
    ...(parsed.blind ? { notFullyTraced: parsed.blind } : {}),
    refusedWrites: parsed.refusedWrites
      .filter((p) => !p.startsWith(scratch) && !p.startsWith('/dev/'))
      .map((p) => pathsInTree({ paths: new Map([[p, new Set()]]) }, TREE, [])[0] ?? p),
    seconds,
  };
}

/**
 * Several traces of one point's processes (its generator, its build, its run) as one: every path
 * any of them touched, every refused write; not fully traced where one is not. Pure.
 */
export function unionTraces(traces: readonly PointTrace[]): PointTrace {
  const all = (pick: (t: PointTrace) => readonly string[]) => [...new Set(traces.flatMap(pick))].sort();
  const blind = traces.find((t) => t.notFullyTraced)?.notFullyTraced;
  return {
    paths: all((t) => t.paths),
    listed: all((t) => t.listed),
    ...(blind ? { notFullyTraced: blind } : {}),
    refusedWrites: all((t) => t.refusedWrites),
    seconds: traces.reduce((a, t) => a + t.seconds, 0),
  };
}

export interface SandboxStep {
  sandbox: Sandbox;
  /** Where it starts (a host path: translated). */
  cwd: string;
  argv: readonly string[];
  /** Roots of its own (its writable output folder). */
  also: readonly SandboxRoot[];
  timeoutMs: number;
  /**
   * strace, to run the step under a file trace; absent, it runs as it is. Files the harness read
   * on the step's behalf (a source it copied into the build folder) are host paths in `handed`.
   */
  strace?: string;
  handed?: readonly string[];
}

/**
 * Runs one step in its sandbox, under a file trace when `strace` is given; the trace comes back
 * when the step exited 0 (a failed step is failed whatever it read).
 */
export async function runSandboxStep(step: SandboxStep): Promise<{ result: ProcessResult; trace?: PointTrace }> {
  const { sandbox, cwd, also, strace } = step;
  const run = (argv: readonly string[], work?: string) =>
    runProcess(sandboxCommand(sandbox, cwd, argv, work, also), { timeoutMs: step.timeoutMs, env: {} });
  if (!strace) return { result: await run(step.argv) };
  const work = mkdtempSync(join(tmpdir(), 'jsio-step-trace-'));
  try {
    const log = join(work, 'trace.txt');
    const result = await run([...fileTraceCommand(strace, log), ...step.argv], work);
    if (result.code !== 0) return { result };
    const roots = [...sandbox.roots, ...also];
    const trace = treeTrace(readFileSync(log, 'utf8'), translate(cwd, roots), result.seconds);
    const handed = pathsInTree(
      { paths: new Map((step.handed ?? []).map((h) => [translate(h, roots), new Set()])) },
      TREE,
    );
    return { result, trace: handed.length ? unionTraces([trace, { ...trace, paths: handed, listed: [] }]) : trace };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
