// `pairs --plan --trace`: the base's points run once under strace in their sandboxes, and a
// changed file only a trace saw makes its point affected. Planted: one variant per kind of read
// the static rules do not follow (a JSON file by a computed path, a file found by listing a
// folder, a file a child process reads, a config file looked for and not found), each reading
// outside its experiment's folder, and a variant whose traced file does not change.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiffPlan } from '../../../src/formats/diff-plan-format.js';
import { runCli } from '../../helpers/cli.js';
import { plantedManifest } from '../../helpers/planted-manifest.js';
import { removeScratch } from '../../helpers/scratch.js';
import { cloneWorkingTree } from '../../helpers/working-tree.js';

let dir: string;
let base: string;
let head: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();

/** Each script reads its input, then makes one hidden read of data/ at the checkout's top. */
const SCRIPTS: Record<string, string> = {
  json: 'f=$(printf "%s/%s.%s" ../../data/hidden x json); cat "$f"',
  list: 'for f in ../../data/listed/*; do cat "$f"; done',
  child: 'sh -c \'cat "$1"\' child ../../data/child.txt',
  missing: 'if [ -e ../../data/.peekrc ]; then cat ../../data/.peekrc; fi',
  steady: 'cat ../../data/steady.txt',
};

function plantPeek(root: string): void {
  const exp = join(root, 'programs', 'peek');
  mkdirSync(exp, { recursive: true });
  const variants = Object.keys(SCRIPTS).map((id) => ({
    id,
    description: `reads data/ by a way the static rules do not follow (${id})`,
    runtime: 'system',
    command: `bash peek-${id}.sh`,
    output: 'none',
  }));
  for (const [id, body] of Object.entries(SCRIPTS))
    writeFileSync(join(exp, `peek-${id}.sh`), `cat > /dev/null\n${body} > /dev/null\n`);
  const profile = { runs: 2, warmup: 0, timeout: 30, constants: { n: 1 } };
  writeFileSync(
    join(exp, 'manifest.json'),
    JSON.stringify(
      plantedManifest('hidden reads', 'Does the trace see the reads the static rules cannot?', profile, {
        input: { pipe: 'dd if=/dev/zero bs={bs} count=1 status=none' },
        variants,
      }),
    ),
  );
  mkdirSync(join(root, 'data', 'hidden'), { recursive: true });
  mkdirSync(join(root, 'data', 'listed'), { recursive: true });
  writeFileSync(join(root, 'data', 'hidden', 'x.json'), '{"n":1}\n');
  writeFileSync(join(root, 'data', 'listed', 'a.txt'), 'a\n');
  writeFileSync(join(root, 'data', 'child.txt'), 'child\n');
  writeFileSync(join(root, 'data', 'steady.txt'), 'steady\n');
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-traced-plan-'));
  base = join(dir, 'base');
  head = join(dir, 'head');
  cloneWorkingTree(base);
  plantPeek(base);
  git(base, 'add', '-A');
  git(base, 'commit', '-q', '-m', 'the peek experiment');
  execFileSync('git', ['clone', '-q', base, head]);
  appendFileSync(join(head, 'data', 'hidden', 'x.json'), '\n');
  writeFileSync(join(head, 'data', 'listed', 'b.txt'), 'b\n');
  appendFileSync(join(head, 'data', 'child.txt'), 'more\n');
  writeFileSync(join(head, 'data', '.peekrc'), 'found\n');
  git(head, 'add', '-A');
  git(head, 'commit', '-q', '-m', 'data changed where no static rule looks');
}, 120_000);
afterAll(() => (process.env.JSIO_KEEP_TMP ? undefined : removeScratch(dir)));

const plan = (...flags: string[]) =>
  runCli(['pairs', '--base', base, '--head', head, '--plan', ...flags, '--profile', 'quick', '--experiments', 'peek']);

describe('pairs --plan --trace', () => {
  let traced: DiffPlan;
  beforeAll(() => {
    const r = plan('--json', '--trace');
    expect(r.status, r.stderr).toBe(0);
    traced = DiffPlan.parse(JSON.parse(r.stdout));
  }, 300_000);

  const reasonsOf = (p: DiffPlan, variant: string) =>
    p.affected.find((a) => a.benchmark.startsWith(`peek/${variant}/`))?.reasons ?? [];

  it('without the trace, no static rule sees the changed data', () => {
    const r = plan('--json');
    expect(r.status, r.stderr).toBe(0);
    const p = DiffPlan.parse(JSON.parse(r.stdout));
    expect(p.affected).toEqual([]);
    expect(p.traced).toBeUndefined();
  });

  it.each([
    ['json', 'data/hidden/x.json'],
    ['list', 'data/listed'],
    ['child', 'data/child.txt'],
    ['missing', 'data/.peekrc'],
  ])('%s: the point is affected, the path seen only by tracing', (variant, path) => {
    expect(reasonsOf(traced, variant)).toContain(`seen only by tracing: ${path}`);
  });

  it('a traced file that did not change affects nothing', () => {
    expect(reasonsOf(traced, 'steady')).toEqual([]);
    // The folders holding the scripts are named already (they hold files the static identity names).
    expect(traced.traced?.seenOnlyByTracing.map((s) => s.path)).toEqual([
      'data/.peekrc',
      'data/child.txt',
      'data/hidden/x.json',
      'data/listed',
      'data/listed/a.txt',
      'data/steady.txt',
    ]);
  });

  it('says what the trace covered, and the text lists the paths', () => {
    expect(traced.traced?.points).toBe(5);
    expect(traced.traced?.notFullyTraced).toEqual([]);
    const file = join(dir, 'plan.json');
    writeFileSync(file, JSON.stringify(traced));
    const shown = runCli(['pairs', '--show-plan', file]);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^traced: 5 base point\(s\)/m);
    expect(shown.stdout).toMatch(/^ {4}data\/\.peekrc \(1 point\)$/m);
    expect(shown.stdout).toContain('peek/json (1 point): seen only by tracing: data/hidden/x.json');
  });

  it('refuses --trace without --plan in one line, and --help names it', () => {
    const r = runCli(['pairs', '--base', base, '--head', head, '--trace']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('--trace goes with --plan');
    expect(runCli(['pairs', '--help']).stdout).toMatch(/--trace\b.*strace/);
  });

  it('where no sandbox can start, the plan is made all the same and every point is said not traced', () => {
    const r = runCli(
      [
        'pairs',
        '--base',
        base,
        '--head',
        head,
        '--plan',
        '--json',
        '--trace',
        '--profile',
        'quick',
        '--experiments',
        'peek',
      ],
      { JSIO_BWRAP: '/bin/false' },
    );
    expect(r.status, r.stderr).toBe(0);
    const p = DiffPlan.parse(JSON.parse(r.stdout));
    expect(p.traced?.points).toBe(0);
    expect(p.traced?.notFullyTraced).toHaveLength(5);
    expect(p.traced!.notFullyTraced[0]!.reason).toMatch(/^not traced: .*sandbox/);
    expect(p.affected).toEqual([]);
  });
});
