/**
 * The paired runner's process timer: one harness/tools/pair-timer invocation runs a batch of
 * processes (base and head, in the order the schedule says) and times each in C, so the harness's
 * own event loop adds no jitter between the two processes of a pair.
 */
import { join } from 'node:path';
import { UserError } from '../../lib/errors.js';
import { describeExit, runProcess } from '../../lib/exec.js';
import { cacheRoot, runtimesCache } from '../../machine/cache-root.js';
import { readPins, resolveRuntime } from '../../machine/toolchains.js';
import { buildTool } from '../../machine/tools.js';
import { programEnv } from '../../run/program-env.js';

export type ScheduleResult =
  | { ok: true; seconds: number[]; elapsed: number }
  | {
      ok: false;
      /** What was measured before the failure (one value per schedule entry that finished). */
      seconds: number[];
      /** The command index that failed, when a process (not the tool) failed. */
      failed?: number;
      reason: string;
      elapsed: number;
    };

/** Parses the timer's "index ns status" lines. */
export function parseTimerOutput(text: string): { index: number; ns: number; status: string }[] | { problem: string } {
  const out: { index: number; ns: number; status: string }[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const m = /^(\d+) (-?\d+) (.+)$/.exec(line.trim());
    if (!m) return { problem: `unexpected pair-timer line: ${JSON.stringify(line.slice(0, 100))}` };
    out.push({ index: Number(m[1]), ns: Number(m[2]), status: m[3]! });
  }
  return out;
}

/**
 * Runs `schedule` (indices into `commands`) with `prepare` before each process (untimed), in
 * `cwd`, each process bounded by `timeoutMs`, the timer pinned to `startOn` when given. Stops at
 * the first failing process.
 */
export async function runSchedule(
  timer: string,
  commands: readonly string[],
  schedule: readonly number[],
  opts: {
    cwd: string;
    timeoutMs: number;
    prepare?: string;
    startOn?: { taskset: string; cpus: string };
    /** Every command starts a sandbox whose program is the timer's gate: the clock starts inside it. */
    gated?: boolean;
  },
): Promise<ScheduleResult> {
  const argv = [
    // The timer, and so every shell it forks, on the measured CPUs (it sleeps while they run).
    ...(opts.startOn ? [opts.startOn.taskset, '-c', opts.startOn.cpus] : []),
    timer,
    ...(opts.gated ? ['--gated'] : []),
    String(Math.max(1, Math.round(opts.timeoutMs))),
    opts.prepare ?? '',
    String(commands.length),
    ...commands,
    ...schedule.map(String),
  ];
  const bound = opts.timeoutMs * 2 * schedule.length + 30_000;
  const r = await runProcess(argv, { cwd: opts.cwd, timeoutMs: bound, env: programEnv() });
  const parsed = parseTimerOutput(r.stdout);
  if ('problem' in parsed) return { ok: false, seconds: [], reason: parsed.problem, elapsed: r.seconds };
  const done = parsed.filter((x) => x.status === '0');
  const seconds = done.map((x) => x.ns / 1e9);
  if (r.code === 0 && done.length === schedule.length) return { ok: true, seconds, elapsed: r.seconds };
  const bad = parsed.find((x) => x.status !== '0');
  const stderr = r.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 300);
  if (bad) {
    const what = bad.status.startsWith('prepare')
      ? `its prepare command (emptying the scratch, evicting the cache) failed (${bad.status})`
      : bad.status.startsWith('sandbox')
        ? `could not start in its sandbox (${bad.status.replace('sandbox ', 'exit status ')})`
        : bad.status === 'timeout'
          ? `timed out after ${opts.timeoutMs / 1000} s`
          : `exited with ${bad.status}`;
    return {
      ok: false,
      seconds,
      failed: bad.index,
      reason: `${what}${stderr ? `: ${stderr}` : ''}`,
      elapsed: r.seconds,
    };
  }
  return {
    ok: false,
    seconds,
    reason: `pair-timer ${describeExit(r, bound)}${stderr ? `: ${stderr}` : ''}`,
    elapsed: r.seconds,
  };
}

/** The pair timer, built with gcc from the harness/tools of the checkout whose harness runs the diff. */
export async function pairTimer(root: string, log: (m: string) => void): Promise<string> {
  const pins = readPins(join(root, 'harness', 'toolchains.json'));
  const gcc = await resolveRuntime('gcc', pins, runtimesCache(), log);
  const timer = gcc?.ok ? await buildTool('pair-timer', gcc.path, root, cacheRoot(), log) : undefined;
  if (!timer) throw new UserError('the paired runner needs gcc to build its process timer', 'apt-get install gcc');
  return timer;
}
