/** What machine and commit a run happened on: recorded with every run. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { Commit, Machine } from '../formats/results-format.js';
import { probe } from '../lib/exec.js';

function readOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return fallback;
  }
}

/**
 * A stable machine id: the runner name (or hostname) plus a hash of the hardware, so two
 * different machines never share a trend line and one machine keeps its id across reboots.
 * JSIO_MACHINE_ID overrides it (e.g. to keep history when a runner is re-provisioned).
 */
export function machineInfo(env: NodeJS.ProcessEnv = process.env): Machine {
  const cpus = os.cpus();
  const cpu = cpus[0]?.model.trim() ?? 'unknown';
  const memoryBytes = os.totalmem();
  const runner = env.RUNNER_NAME ?? 'local';
  const hostname = os.hostname();
  const hw = createHash('sha256')
    .update(`${cpu}|${cpus.length}|${Math.round(memoryBytes / 2 ** 30)}`)
    .digest('hex')
    .slice(0, 8);
  const base = (env.RUNNER_NAME ?? hostname)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .slice(0, 40);
  return {
    id: env.JSIO_MACHINE_ID ?? `${base}-${hw}`,
    hostname,
    cpu,
    cores: cpus.length,
    memoryBytes,
    kernel: `${os.type()} ${os.release()}`,
    governor: readOr('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', 'unavailable'),
    runner,
  };
}

export function commitInfo(cwd: string): Commit {
  const git = (...args: string[]) => probe(['git', '-C', cwd, ...args]);
  const sha = git('rev-parse', 'HEAD') ?? 'unknown';
  return {
    sha,
    ref: process.env.GITHUB_REF ?? git('rev-parse', '--abbrev-ref', 'HEAD') ?? 'unknown',
    subject: git('log', '-1', '--format=%s') ?? '',
    date: git('log', '-1', '--format=%cI') ?? new Date().toISOString(),
    dirty: (git('status', '--porcelain', '--untracked-files=no') ?? '') !== '',
  };
}
