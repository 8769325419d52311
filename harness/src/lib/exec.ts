/**
 * The one way the harness runs other programs. Children run in their own process group so a
 * timeout or an interrupt stops a whole pipeline (shell, generator, program) at once; shell
 * command lines are built with shellQuote and run by runShell; quick informational commands
 * (versions) go through probe, which never waits on stdin and is bounded to a few seconds.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { quote } from 'shell-quote';

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  seconds: number;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Called with each chunk of stderr (for live progress of long tools). */
  onStderr?: (chunk: string) => void;
}

const live = new Set<number>();

/** Stops every running child group (used on SIGINT/SIGTERM). */
export function killAllChildren(signal: NodeJS.Signals = 'SIGTERM'): void {
  for (const pid of live) {
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  }
}

export function runProcess(argv: readonly string[], opts: RunOptions = {}): Promise<ProcessResult> {
  const [cmd, ...args] = argv;
  if (!cmd) throw new Error('runProcess: empty command');
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    if (pid !== undefined) live.add(pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      // Keep memory bounded if a program floods stdout: the tail is what matters.
      stdout = (stdout + c).slice(-1_000_000);
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr = (stderr + c).slice(-100_000);
      opts.onStderr?.(c);
    });
    const timer =
      opts.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            if (pid !== undefined) {
              try {
                process.kill(-pid, 'SIGKILL');
              } catch {
                // exited meanwhile
              }
            }
          }, opts.timeoutMs)
        : undefined;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (timer) clearTimeout(timer);
      if (pid !== undefined) live.delete(pid);
      resolve({ code, signal, stdout, stderr, timedOut, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    };
    child.on('error', (err) => {
      stderr += String(err.message);
      finish(127, null);
    });
    child.on('close', finish);
  });
}

/** One word for a POSIX shell: spaces, quotes and metacharacters stay literal. */
export function shellQuote(word: string): string {
  return quote([word]);
}

/** Runs a shell command line with bash; a pipeline fails when any of its commands fails. */
export function runShell(command: string, opts: RunOptions = {}): Promise<ProcessResult> {
  return runProcess(['bash', '-c', `set -o pipefail; ${command}`], opts);
}

/** How long a probe may take: no version query is worth more. */
const PROBE_TIMEOUT_MS = 3_000;

/** A short command run to completion (git plumbing): stdin closed, bounded. */
export function runSync(
  argv: readonly string[],
  opts: { cwd?: string; timeoutMs?: number } = {},
): { code: number | null; stdout: string; stderr: string } {
  const [cmd, ...args] = argv;
  if (!cmd) throw new Error('runSync: empty command');
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? PROBE_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
    killSignal: 'SIGKILL',
  });
  return {
    code: r.error ? null : r.status,
    stdout: r.stdout ?? '',
    stderr: `${r.stderr ?? ''}${r.error ? r.error.message : ''}`,
  };
}

/**
 * Output of a quick informational command (a version), or undefined if it cannot run, fails or
 * takes longer than the bound. stdin is closed, so a tool that would wait for input (a REPL)
 * sees end of input instead of hanging.
 */
export function probe(argv: readonly string[], timeoutMs = PROBE_TIMEOUT_MS): string | undefined {
  const [cmd, ...args] = argv;
  if (!cmd) return undefined;
  const r = spawnSync(cmd, args, {
    encoding: 'utf8',
    timeout: timeoutMs,
    stdio: ['ignore', 'pipe', 'pipe'],
    killSignal: 'SIGKILL',
  });
  if (r.error || r.status !== 0) return undefined;
  return `${r.stdout}${r.stderr}`.trim();
}

/** The executable `cmd` would run as, searched on PATH like a shell does (no shell started). */
export function which(cmd: string, path = process.env.PATH ?? ''): string | undefined {
  const candidates = cmd.includes('/')
    ? [cmd]
    : path
        .split(delimiter)
        .filter((d) => d && isAbsolute(d))
        .map((d) => join(d, cmd));
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      if (statSync(c).isFile()) return c;
    } catch {
      // not there, or not executable
    }
  }
  return undefined;
}

/** Describes how a process ended, for failure reasons. */
export function describeExit(r: Pick<ProcessResult, 'code' | 'signal' | 'timedOut'>, timeoutMs?: number): string {
  if (r.timedOut) return `timed out after ${((timeoutMs ?? 0) / 1000).toFixed(0)} s (killed with its process group)`;
  if (r.signal) return `killed by signal ${r.signal}`;
  if (r.code !== null && r.code > 128) return `killed by signal ${r.code - 128} (exit ${r.code})`;
  return `exited with status ${r.code}`;
}
