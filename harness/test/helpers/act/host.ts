/**
 * What a workflow run in host mode could change on this machine outside its own folders: git's
 * global and system configuration (a workflow's `git config --global` writes $HOME/.gitconfig),
 * and what act, npm and Go keep in a HOME by default (act's config file and caches, npm's
 * configuration, Go's module cache). A test takes this before its runs and compares after. The
 * whole of HOME cannot be compared: other processes on a shared machine write there too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type HostState = Record<string, string>;

const WATCHED = [
  '.gitconfig',
  '.config/git/config',
  '.actrc',
  '.config/act',
  '.cache/act',
  '.cache/actcache',
  '.npmrc',
  'go',
];

export function hostState(): HostState {
  const home = homedir();
  const state: HostState = {};
  for (const rel of WATCHED) {
    const f = join(home, rel);
    if (!existsSync(f)) state[rel] = '(absent)';
    else if (statSync(f).isDirectory()) state[rel] = `directory, modified ${statSync(f).mtimeMs}`;
    else state[rel] = readFileSync(f, 'utf8');
  }
  for (const scope of ['--global', '--system'])
    state[`git config ${scope}`] = spawnSync('git', ['config', scope, '--list'], { encoding: 'utf8' }).stdout;
  return state;
}
