import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const FIXTURES = join(ROOT, 'harness', 'test', 'fixtures');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an npm-script command the way a user does (through the bootstrap), synchronously. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): CliResult {
  const r = spawnSync(process.execPath, [join(ROOT, 'harness', 'bootstrap.mjs'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, CI: '1', ...env },
    timeout: 600_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts the CLI in the background (for interrupt tests). */
export function startCli(args: string[]) {
  return spawn(process.execPath, [join(ROOT, 'harness', 'bootstrap.mjs'), ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: '1' },
  });
}
