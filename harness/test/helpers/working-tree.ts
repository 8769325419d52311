/**
 * A fresh clone of this repository holding its working tree as it is (tracked and untracked, not
 * ignored files, deletions), so tests that run commands "from a fresh clone" see uncommitted edits
 * too. The snapshot is committed in the clone, so the clone is clean and the run records a commit.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

const ident = ['-c', 'user.name=replay', '-c', 'user.email=replay@localhost'];
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...ident, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** Clones ROOT into `dir` and lays the working tree over it as one commit; returns that commit. */
export function cloneWorkingTree(dir: string, message = 'snapshot of the working tree'): string {
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, dir]);
  const files = execFileSync('git', ['-C', ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const f of files) {
    const src = join(ROOT, f);
    if (!existsSync(src)) {
      rmSync(join(dir, f), { force: true });
      continue;
    }
    mkdirSync(join(dir, f, '..'), { recursive: true });
    cpSync(src, join(dir, f), { dereference: false });
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

/**
 * The clone borrows this tree's node_modules as a hard-linked copy, never a symlink: when the
 * clone's lock file differs (an uncommitted dependency change) its bootstrap runs npm ci, which
 * must not empty the repository's own node_modules through a link. Kept out of its commits.
 */
export function borrowNodeModules(dir: string): void {
  writeFileSync(join(dir, '.git', 'info', 'exclude'), 'node_modules\n');
  // Its contents (`/.`): where this tree's node_modules is itself a link, the link is followed.
  mkdirSync(join(dir, 'node_modules'));
  execFileSync('cp', ['-al', `${join(ROOT, 'node_modules')}/.`, join(dir, 'node_modules')]);
}

/**
 * A clone of `from` at `into` (the npm packages borrowed) with one text of `file` replaced by
 * `by`, committed; refuses a file that lacks the text (the plant would change nothing).
 */
export function plantedClone(from: string, into: string, file: string, text: string, by: string): string {
  execFileSync('git', ['clone', '-q', from, into]);
  borrowNodeModules(into);
  const path = join(into, file);
  const was = readFileSync(path, 'utf8');
  if (!was.includes(text)) throw new Error(`${file} does not hold the text to plant over: ${text}`);
  writeFileSync(path, was.replace(text, by));
  git(into, 'commit', '-qam', `planted in ${file}`);
  return into;
}
