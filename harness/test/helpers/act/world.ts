/**
 * The "GitHub" a workflow runs against under act: a bare repository standing in for
 * https://github.com/OWNER/REPO (main holds a snapshot of this working tree, so uncommitted changes
 * run too) and the clone act starts from. act reads github.repository from the clone's origin
 * URL, so origin stays a github.com URL; steps reach the bare repository only through git
 * configuration in their environment (runs.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cloneWorkingTree } from '../working-tree.js';

export const REPOSITORY = 'gab-local/jsio-bench';
const ident = ['-c', 'user.name=act-test', '-c', 'user.email=act-test@localhost'];
export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...ident, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

export interface ActWorld {
  root: string;
  /** The clone act runs in (its cwd), on branch main. */
  repo: string;
  /** The bare repository standing in for github.com/REPOSITORY. */
  remote: string;
  /** main's commit. */
  main: string;
}

/**
 * `pages: true` gives the remote a gh-pages branch holding no data yet, as a repository has once
 * its site is set up (a checkout of a missing branch retries for half a minute before it fails).
 */
export function makeActWorld(root: string, { pages = false } = {}): ActWorld {
  mkdirSync(root, { recursive: true });
  const repo = join(root, 'repo');
  cloneWorkingTree(repo, 'act snapshot of the working tree');
  git(repo, 'checkout', '-q', '-B', 'main');
  const remote = join(root, 'github.git');
  execFileSync('git', ['init', '--quiet', '--bare', '-b', 'main', remote]);
  // GitHub serves any reachable commit by id (pull-request heads included).
  git(remote, 'config', 'uploadpack.allowAnySHA1InWant', 'true');
  git(repo, 'push', '-q', remote, 'HEAD:refs/heads/main');
  if (pages) {
    const tree = git(repo, 'mktree');
    const commit = execFileSync('git', ['-C', repo, ...ident, 'commit-tree', tree, '-m', 'an empty site'], {
      encoding: 'utf8',
      input: '',
    }).trim();
    git(repo, 'push', '-q', remote, `${commit}:refs/heads/gh-pages`);
  }
  git(repo, 'remote', 'set-url', 'origin', `https://github.com/${REPOSITORY}.git`);
  return { root, repo, remote, main: git(repo, 'rev-parse', 'HEAD') };
}

/** A commit on top of `base` in the world's clone, pushed to the remote as `ref` (branch main follows when ref is main). */
export function commitAndPush(w: ActWorld, base: string, ref: string, edit: (repo: string) => void, message: string) {
  git(w.repo, 'checkout', '-q', '--detach', base);
  edit(w.repo);
  git(w.repo, 'add', '-A');
  git(w.repo, 'commit', '-q', '--allow-empty', '-m', message);
  const sha = git(w.repo, 'rev-parse', 'HEAD');
  execFileSync('git', ['-C', w.repo, 'push', '-q', '--force', w.remote, `HEAD:${ref}`]);
  git(w.repo, 'checkout', '-q', '-B', 'main', ref === 'refs/heads/main' ? sha : w.main);
  if (ref === 'refs/heads/main') w.main = sha;
  return sha;
}
