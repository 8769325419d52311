/**
 * Two real git repositories from this checkout's committed files: `base`, holding the given paths
 * as one commit, and `head`, a clone of it for a test to change and commit. For the harness-change
 * tests, which compare two harnesses as a pull request would.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

export function harnessRepos(prefix: string, paths: readonly string[]): { dir: string; base: string; head: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const base = join(dir, 'base');
  const head = join(dir, 'head');
  mkdirSync(base);
  const tar = execFileSync('git', ['archive', 'HEAD', ...paths], { cwd: ROOT, maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', base], { input: tar });
  git(base, 'init', '-q', '-b', 'main');
  git(base, 'add', '-A');
  git(base, 'commit', '-q', '-m', 'base');
  git(dir, 'clone', '-q', base, head);
  return { dir, base, head };
}

/** The harness as it runs: its sources, tools, pins, bootstrap and package files. */
export const HARNESS_PATHS = [
  'harness/src',
  'harness/tools',
  'harness/toolchains.json',
  'harness/bootstrap.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];
