// Traces kept by main's runs and taken by the trusted plan: the base commit's own harness benches
// it with `--trace-profiles quick` into a store (as bench.yml does), and `pairs --plan --trace
// --store` then traces none of the base's points, with the same answer as a plan that traces them
// all. Planted: a variant whose hidden read only a trace sees, and one that writes into its own
// source folder and swallows the error (the sandbox refuses the write; the trace says where).
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiffPlan } from '../../../src/formats/diff-plan-format.js';
import { Results } from '../../../src/formats/results-format.js';
import { TraceStoreFile } from '../../../src/formats/trace-store-format.js';
import { runCli } from '../../helpers/cli.js';
import { removeScratch } from '../../helpers/scratch.js';
import { borrowNodeModules, cloneWorkingTree } from '../../helpers/working-tree.js';

let dir: string;
let base: string;
let head: string;
let store: string;
let baseSha: string;
let bench: { status: number | null; stderr: string };
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();

const SCRIPTS: Record<string, string> = {
  // A JSON file by a computed path: no static rule follows it.
  hidden: 'f=$(printf "%s/%s.%s" ../../data/hidden x json); cat "$f" > /dev/null',
  // Writes beside its own source and swallows the refusal.
  scribble: '(echo x > scribble.out) 2> /dev/null; true',
};

function plantExperiment(root: string): void {
  const exp = join(root, 'programs', 'stash');
  mkdirSync(exp, { recursive: true });
  const variants = Object.keys(SCRIPTS).map((id) => ({
    id,
    description: `a program the trace must see through (${id})`,
    runtime: 'system',
    command: `bash stash-${id}.sh`,
    output: 'none',
  }));
  for (const [id, body] of Object.entries(SCRIPTS))
    writeFileSync(join(exp, `stash-${id}.sh`), `cat > /dev/null\n${body}\n`);
  const profile = { runs: 2, warmup: 0, timeout: 30, constants: { n: 1 } };
  writeFileSync(
    join(exp, 'manifest.json'),
    JSON.stringify({
      schema: 1,
      title: 'stored traces',
      question: 'Does the plan take main stored traces?',
      parameters: {
        bs: {
          description: 'block size',
          unit: 'B',
          values: { smoke: [4096], quick: [4096, 8192], standard: [4096], full: [4096] },
        },
      },
      profiles: { smoke: profile, quick: profile, standard: profile, full: profile },
      derive: { bytes: 'bs * n' },
      input: { pipe: 'dd if=/dev/zero bs={bs} count=1 status=none' },
      throughputBytes: 'bytes',
      reports: {},
      variants,
      summary: { at: { bs: 4096 }, metrics: ['throughput'] },
      headline: { at: { bs: 4096 }, metrics: ['throughput'] },
    }),
  );
  mkdirSync(join(root, 'data', 'hidden'), { recursive: true });
  writeFileSync(join(root, 'data', 'hidden', 'x.json'), '{"n":1}\n');
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-stored-traces-'));
  base = join(dir, 'base');
  head = join(dir, 'head');
  store = join(dir, 'store');
  cloneWorkingTree(base);
  plantExperiment(base);
  git(base, 'add', '-A');
  git(base, 'commit', '-q', '-m', 'the stash experiment');
  baseSha = git(base, 'rev-parse', 'HEAD');
  execFileSync('git', ['clone', '-q', base, head]);
  appendFileSync(join(head, 'data', 'hidden', 'x.json'), '\n');
  git(head, 'add', '-A');
  git(head, 'commit', '-q', '-m', 'data changed where no static rule looks');
  // The base commit's own harness benches it, as main's runner does.
  borrowNodeModules(base);
  const r = spawnSync(
    process.execPath,
    [
      join(base, 'harness', 'bootstrap.mjs'),
      'bench',
      '--profile',
      'quick',
      '--experiments',
      'stash',
      '--runs',
      '2',
      '--counts',
      'none',
      '--trace-profiles',
      'quick',
      '--store',
      store,
      '--out',
      join(dir, 'out'),
    ],
    { cwd: base, encoding: 'utf8', env: { ...process.env, CI: '1' }, timeout: 600_000 },
  );
  bench = { status: r.status, stderr: r.stderr };
}, 600_000);
afterAll(() => (process.env.JSIO_KEEP_TMP ? undefined : removeScratch(dir)));

/** The one machine folder of a store this machine wrote. */
const machineOf = (root: string) =>
  readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'releases')[0]!.name;

const plan = (...flags: string[]) => {
  const r = runCli([
    'pairs',
    '--base',
    base,
    '--head',
    head,
    '--plan',
    '--json',
    '--trace',
    ...flags,
    '--profile',
    'quick',
    '--experiments',
    'stash',
  ]);
  return { ...r, plan: r.status === 0 ? DiffPlan.parse(JSON.parse(r.stdout)) : undefined };
};

describe('bench --trace-profiles', () => {
  it('stores each point of the profile with its traced paths, for the commit', () => {
    // 1: the scribbling point failed (below); nothing else did.
    expect(bench.status, bench.stderr).toBe(1);
    const file = join(store, machineOf(store), 'traces', `${baseSha}.json`);
    const stored = TraceStoreFile.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(stored.commit).toBe(baseSha);
    expect(Object.keys(stored.profiles.quick!).sort()).toEqual([
      'stash/hidden/bs=4096',
      'stash/hidden/bs=8192',
      'stash/scribble/bs=4096',
      'stash/scribble/bs=8192',
    ]);
    expect(stored.profiles.quick!['stash/hidden/bs=8192']!.paths).toContain('data/hidden/x.json');
    // The run's own copy goes beside results.json, for the publish job.
    expect(JSON.parse(readFileSync(join(dir, 'out', 'traces.json'), 'utf8'))).toEqual(stored);
  });

  it('fails a point whose processes wrote outside their scratch folder, naming the path', () => {
    const results = Results.parse(JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')));
    const scribble = results.benchmarks.filter((b) => b.variant === 'scribble');
    expect(scribble.map((b) => b.status)).toEqual(['failed', 'failed']);
    expect(scribble[0]!.reason).toContain('programs/stash/scribble.out');
    expect(results.benchmarks.filter((b) => b.variant === 'hidden').map((b) => b.status)).toEqual(['ok', 'ok']);
  });
});

describe('pairs --plan --trace --store', () => {
  let without: ReturnType<typeof plan>;
  let withStore: ReturnType<typeof plan>;
  beforeAll(() => {
    without = plan();
    withStore = plan('--store', store);
  }, 600_000);

  it('traces no base point the store has, and says where they came from', () => {
    expect(withStore.status, withStore.stderr).toBe(0);
    expect(withStore.plan!.traced).toMatchObject({ points: 0, fromStore: 4 });
    expect(withStore.stderr).toContain('trace: 4 of 4 base point(s) from the store');
    expect(withStore.stderr).not.toMatch(/benchmarks planned/);
    expect(without.plan!.traced).toMatchObject({ points: 2, fromStore: 0 });
  });

  it('answers as the plan that traces the base itself', () => {
    expect(without.status, without.stderr).toBe(0);
    const answer = (p: DiffPlan) => ({
      affected: p.affected,
      control: p.control,
      notAffected: p.notAffected,
      seen: p.traced!.seenOnlyByTracing,
      notFully: p.traced!.notFullyTraced,
      refused: p.traced!.refusedWrites,
    });
    expect(answer(withStore.plan!)).toEqual(answer(without.plan!));
    expect(withStore.plan!.affected.map((a) => a.benchmark).sort()).toEqual([
      'stash/hidden/bs=4096',
      'stash/hidden/bs=8192',
    ]);
    expect(withStore.plan!.traced!.refusedWrites).toEqual([
      { benchmark: 'stash/scribble/bs=4096', paths: ['programs/stash/scribble.out'] },
      { benchmark: 'stash/scribble/bs=8192', paths: ['programs/stash/scribble.out'] },
    ]);
  });

  it('the text says how many traces the store gave, and names each broken point with its path', () => {
    const file = join(dir, 'plan.json');
    writeFileSync(file, JSON.stringify(withStore.plan));
    const shown = runCli(['pairs', '--show-plan', file]);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(
      /^traced: 0 base point\(s\) in 0 s; 4 point\(s\) from the store's traces of the base commit$/m,
    );
    expect(shown.stdout).toMatch(
      /^ {2}stash\/scribble\/bs=4096: broken: its processes tried to write outside their scratch folder.*programs\/stash\/scribble\.out/m,
    );
  });

  it('names the file and the field of a malformed stored trace, and plans nothing', () => {
    const bad = join(dir, 'bad-store');
    cpSync(store, bad, { recursive: true });
    const file = join(bad, machineOf(bad), 'traces', `${baseSha}.json`);
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.profiles.quick['stash/hidden/bs=4096'].paths = 'data';
    writeFileSync(file, JSON.stringify(raw));
    const r = plan('--store', bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain('profiles.quick.stash/hidden/bs=4096.paths');
  });

  it('refuses --store without --trace', () => {
    const r = runCli(['pairs', '--base', base, '--head', head, '--plan', '--store', store]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--store goes with --plan --trace');
  });
});
