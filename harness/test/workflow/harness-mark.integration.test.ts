// A harness mark from real recordings, as bench.yml makes it on a push to main: two local commits
// whose harness differs in how a number is made (the reported centre of a timed metric), both
// recorded at the smoke profile with `npm run transcript` (strace from outside, no timing), the
// verdict left beside the head's results, and `npm run pages` storing the difference as the
// commit's mark, with the verdict as its source. The same harness twice is no mark.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMarks } from '../../src/store/mark-store.js';
import { runCli } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';
import { borrowNodeModules, cloneWorkingTree } from '../helpers/working-tree.js';

let dir: string;
let previous: string;
let changed: string;
let twin: string;
const BENCH = ['--', '--profile', 'smoke', '--experiments', 'wc', '--variants', 'c'];

const commitAll = (repo: string, message: string) =>
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', message]);
const sha = (repo: string) => execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-harness-mark-'));
  previous = join(dir, 'previous');
  cloneWorkingTree(previous);
  borrowNodeModules(previous);
  changed = join(dir, 'changed');
  execFileSync('git', ['clone', '-q', previous, changed]);
  borrowNodeModules(changed);
  const normalize = join(changed, 'harness/src/run/normalize.ts');
  const text = readFileSync(normalize, 'utf8');
  expect(text).toContain('value: stats.median,');
  writeFileSync(normalize, text.replace('value: stats.median,', 'value: stats.mean,'));
  commitAll(changed, 'the mean as the reported centre');
  twin = join(dir, 'twin');
  execFileSync('git', ['clone', '-q', previous, twin]);
  borrowNodeModules(twin);
}, 300_000);
afterAll(() => removeScratch(dir));

/**
 * What bench.yml leaves for the publish job: the head's results with transcripts/ beside them
 * (here the head's recorded results stand in for its timed run: the same commit, the same points).
 */
function recordAndPublish(head: string, name: string): { pages: string; out: string } {
  const run = join(dir, name);
  const r = runCli([
    'transcript',
    '--base-side',
    previous,
    '--head-side',
    head,
    '--dir',
    join(run, 'transcripts'),
    ...BENCH,
  ]);
  expect(r.status, r.stderr).toBe(0);
  copyFileSync(join(run, 'transcripts', 'head.results.json'), join(run, 'results.json'));
  const pages = join(dir, `${name}-pages`);
  mkdirSync(pages);
  const p = runCli(['pages', join(run, 'results.json'), '--dir', pages]);
  expect(p.status, p.stderr).toBe(0);
  return { pages, out: r.stdout };
}

describe('a harness mark from real recordings at smoke', () => {
  it("marks the commit with the verdict's difference as the reason, and the verdict as its source", () => {
    const { pages } = recordAndPublish(changed, 'run-changed');
    const machine = JSON.parse(readFileSync(join(pages, 'data', 'machines.json'), 'utf8')) as {
      machines: Record<string, unknown>;
    };
    const id = Object.keys(machine.machines)[0]!;
    const marked = readMarks(join(pages, 'data'), id).commits[sha(changed)];
    const harness = marked?.marks.find((m) => m.kind === 'harness');
    expect(harness?.profile).toBe('smoke');
    expect(harness?.reason.startsWith(`the harness changed since ${sha(previous).slice(0, 12)}: `)).toBe(true);
    // The numbers each harness made from the same raw hyperfine output, as the verdict lists them.
    expect(harness?.reason).toMatch(
      /makes numbers differently from the same raw output: .*wall_time: reported value: \d+ benchmarks? by [−+±]\d/,
    );
    expect(harness?.reason).not.toContain('runs programs differently');
    expect(harness?.source).toBe(
      `transcript verdict ${sha(previous).slice(0, 12)}…${sha(changed).slice(0, 12)}, bench --profile smoke --experiments wc --variants c`,
    );
  });

  it('the same harness at another commit: measures the same, no mark', () => {
    writeFileSync(join(twin, 'NOTES.md'), 'a docs-only commit\n');
    execFileSync('git', ['-C', twin, 'add', 'NOTES.md']);
    commitAll(twin, 'docs only');
    const { pages, out } = recordAndPublish(twin, 'run-same');
    expect(out).toContain('measures the same, exact');
    const machine = JSON.parse(readFileSync(join(pages, 'data', 'machines.json'), 'utf8')) as {
      machines: Record<string, unknown>;
    };
    const id = Object.keys(machine.machines)[0]!;
    expect(readMarks(join(pages, 'data'), id).commits[sha(twin)]).toBeUndefined();
  });
});
