/**
 * Runs child processes in their own process group so a timeout or an interrupt can stop
 * a whole pipeline (shell, generator, program) at once.
 */
import { spawn, spawnSync } from 'node:child_process';

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

/** Output of a quick informational command, or undefined if it cannot run. */
export function probe(argv: readonly string[]): string | undefined {
  const [cmd, ...args] = argv;
  if (!cmd) return undefined;
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 20_000 });
  if (r.error || r.status !== 0) return undefined;
  return `${r.stdout}${r.stderr}`.trim();
}

export function which(cmd: string): string | undefined {
  const out = probe(['sh', '-c', `command -v ${cmd}`]);
  return out ? out.split('\n')[0] : undefined;
}

/** Describes how a process ended, for failure reasons. */
export function describeExit(r: Pick<ProcessResult, 'code' | 'signal' | 'timedOut'>, timeoutMs?: number): string {
  if (r.timedOut) return `timed out after ${((timeoutMs ?? 0) / 1000).toFixed(0)} s (killed with its process group)`;
  if (r.signal) return `killed by signal ${r.signal}`;
  if (r.code !== null && r.code > 128) return `killed by signal ${r.code - 128} (exit ${r.code})`;
  return `exited with status ${r.code}`;
}
