import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
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

/** `npm run pairs` between two checkouts into `out` with a fixed seed; `flags` narrow it. */
export function runPairs(
  sides: { base: string; head: string; out: string; budget: string; seed: number },
  flags: string[],
  env: NodeJS.ProcessEnv = {},
): CliResult {
  const { base, head, out, budget, seed } = sides;
  const args = ['--base', base, '--head', head, '--out', out, '--budget', budget, '--seed', String(seed)];
  return runCli(['pairs', ...args, ...flags], env);
}

/**
 * `pr-comment` on a diff's output packed as pr.yml's artifact (comparison files, the pair record
 * and the PR number), judged against the trusted plan of the same two checkouts and bench flags
 * (made here as pr.yml's plan job makes it), or against none when `plan` is not given.
 */
export function commentOnDiff(
  out: string,
  pr: number,
  plan?: { base: string; head: string; flags: string[] },
): CliResult {
  const art = join(out, 'artifact');
  mkdirSync(art);
  for (const f of ['comparison.json', 'comparison.md', 'pairs.json']) cpSync(join(out, f), join(art, f));
  writeFileSync(join(art, 'pr-number'), String(pr));
  const trusted: string[] = [];
  if (plan) {
    const r = runCli(['pairs', '--base', plan.base, '--head', plan.head, '--plan', '--json', ...plan.flags]);
    if (r.status !== 0) return r;
    writeFileSync(join(out, 'plan.json'), r.stdout);
    trusted.push('--trusted-plan', join(out, 'plan.json'));
  }
  return runCli(['pr-comment', '--artifact', art, '--pr', String(pr), ...trusted]);
}

/** The comment's first line of results ("## Performance: …"), wherever the judgement above it ends. */
export const performanceLine = (md: string) => md.split('\n').find((l) => l.startsWith('## Performance:')) ?? '';
