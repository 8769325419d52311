// `workflow replan` (pr-comment.yml): the diff planned again from both commits as the repository
// has them — the uploaded plan may name the base only if it is on the default branch, and the pull
// request's head must still be the commit the diff ran for. Real git: a bare origin holding the
// default branch and refs/pull/7/head, a clone to fetch into.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiffPlan } from '../../src/formats/diff-plan-format.js';
import { runCli } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';
import { cloneWorkingTree } from '../helpers/working-tree.js';

let dir: string;
let clone: string;
let planFile: string;
let baseSha: string;
let headSha: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-replan-'));
  const base = join(dir, 'base');
  const head = join(dir, 'head');
  baseSha = cloneWorkingTree(base);
  execFileSync('git', ['clone', '-q', base, head]);
  appendFileSync(join(head, 'programs/wc/wc-c.c'), '/* edited */\n');
  git(head, 'commit', '-q', '-am', 'a one-program change');
  headSha = git(head, 'rev-parse', 'HEAD');
  const origin = join(dir, 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
  git(base, 'push', '-q', origin, 'HEAD:refs/heads/main');
  git(head, 'push', '-q', origin, 'HEAD:refs/pull/7/head');
  clone = join(dir, 'clone');
  execFileSync('git', ['clone', '-q', origin, clone]);
  // The uploaded plan, as pr.yml's trusted job made it.
  const r = runCli(['pairs', '--base', base, '--head', head, '--plan', '--json', '--', '--profile', 'smoke']);
  expect(r.status, r.stderr).toBe(0);
  planFile = join(dir, 'plan.json');
  writeFileSync(planFile, r.stdout);
}, 300_000);
afterAll(() => removeScratch(dir));

let n = 0;
/** replan into a fresh folder; `over` replaces flags by name. */
function replan(over: Record<string, string> = {}) {
  const into = join(dir, `into-${++n}`);
  const out = join(dir, `own-${n}.json`);
  const flags = { plan: planFile, pr: '7', sha: headSha, 'default-branch': 'main', into, out, repo: clone, ...over };
  const args = Object.entries(flags).flatMap(([k, v]) => [`--${k}`, v]);
  return { ...runCli(['workflow', 'replan', ...args, '--', '--profile', 'smoke']), into, out };
}

describe('workflow replan', () => {
  it('plans again from the fetched commits: the same base, head and affected points as the upload', () => {
    const r = replan();
    expect(r.status, r.stderr).toBe(0);
    const own = DiffPlan.parse(JSON.parse(readFileSync(r.out, 'utf8')));
    const uploaded = DiffPlan.parse(JSON.parse(readFileSync(planFile, 'utf8')));
    expect([own.base.commit, own.head.commit]).toEqual([baseSha, headSha]);
    expect(own.affected.map((a) => a.benchmark)).toEqual(uploaded.affected.map((a) => a.benchmark));
    expect(own.affected.length).toBeGreaterThan(0);
    expect(own.affected.every((a) => a.benchmark.startsWith('wc/c/'))).toBe(true);
  });

  it('refuses a pull request that moved since the diff, checking nothing out', () => {
    const r = replan({ sha: baseSha });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('the pull request moved since the diff');
    expect(existsSync(r.into)).toBe(false);
    expect(existsSync(r.out)).toBe(false);
  });

  it('refuses an uploaded plan whose base is not on the default branch', () => {
    const forged = join(dir, 'forged.json');
    const plan = JSON.parse(readFileSync(planFile, 'utf8'));
    plan.base.commit = headSha;
    writeFileSync(forged, JSON.stringify(plan));
    const r = replan({ plan: forged });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('is not on main: an uploaded plan cannot choose the base');
    expect(existsSync(r.out)).toBe(false);
  });

  it.each([
    [{ pr: '7; rm -rf /' }, '--pr'],
    [{ sha: 'abc123' }, '--sha "abc123": expected a full commit id'],
    [{ 'default-branch': 'main..evil' }, 'not a branch name'],
    [{ plan: join(dir ?? '', 'no-such-plan.json') }, 'no-such-plan.json'],
  ])('refuses bad input %j before fetching anything', (over, said) => {
    const before = git(clone, 'for-each-ref');
    const r = replan(over);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(said);
    expect(git(clone, 'for-each-ref')).toBe(before);
  });

  it('refuses a folder that is not empty, deleting nothing in it', () => {
    const into = join(dir, 'busy');
    mkdirSync(into);
    writeFileSync(join(into, 'mine.txt'), 'keep');
    const r = replan({ into });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('not empty');
    expect(readFileSync(join(into, 'mine.txt'), 'utf8')).toBe('keep');
  });

  it('answers --help', () => {
    const r = runCli(['workflow', 'replan', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--default-branch');
  });
});
