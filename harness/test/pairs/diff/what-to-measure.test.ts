// `pairs --plan`: what a PR diff would measure and why, from two real checkouts, measuring,
// building and writing nothing, exiting 0 whatever it finds; its JSON is the trusted plan pr.yml
// hands to the diff, which measures at least that set.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiffPlan } from '../../../src/formats/diff-plan-format.js';
import { type ImpactPlan, NOT_AFFECTED_REASON } from '../../../src/pairs/decide/impact.js';
import { widenToTrusted } from '../../../src/pairs/diff/what-to-measure.js';
import { ROOT, runCli } from '../../helpers/cli.js';
import { removeScratch } from '../../helpers/scratch.js';
import { cloneWorkingTree } from '../../helpers/working-tree.js';

let dir: string;
let base: string;
let head: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();
const status = (root: string) => git(root, 'status', '--porcelain', '--untracked-files=all', '--ignored');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-diff-plan-'));
  base = join(dir, 'base');
  head = join(dir, 'head');
  cloneWorkingTree(base);
  execFileSync('git', ['clone', '-q', base, head]);
  appendFileSync(join(head, 'programs/wc/wc-c.c'), '/* edited */\n');
  appendFileSync(join(head, 'README.md'), '\nedited\n');
  git(head, 'commit', '-q', '-am', 'a one-program change and a doc');
});
afterAll(() => removeScratch(dir));

const plan = (...flags: string[]) => runCli(['pairs', '--base', base, '--head', head, '--plan', ...flags]);

describe('pairs --plan', () => {
  it('prints the affected points grouped with their reason, the control, the rest, the harness; writes nothing', () => {
    const [b, h] = [status(base), status(head)];
    const r = plan();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('affected: 9 point(s)');
    expect(r.stdout).toMatch(/^ {2}wc\/c \(9 points\): changed: programs\/wc\/wc-c\.c$/m);
    expect(r.stdout).toMatch(/^control: 6 unaffected point\(s\)/m);
    expect(r.stdout).toMatch(/^not affected: \d+ point\(s\)/m);
    expect(r.stdout).toContain('harness: no change');
    expect([status(base), status(head)]).toEqual([b, h]);
    expect(existsSync(join(head, 'results'))).toBe(false);
  });

  it('--json: one object in the documented shape, the same control as the text', () => {
    const r = plan('--json');
    expect(r.status, r.stderr).toBe(0);
    const p = DiffPlan.parse(JSON.parse(r.stdout));
    expect(p.affected.every((a) => a.benchmark.startsWith('wc/c/'))).toBe(true);
    expect(p.affected).toHaveLength(9);
    expect(p.affected[0]!.reasons).toEqual(['changed: programs/wc/wc-c.c']);
    expect(p.control).toHaveLength(6);
    expect(p.notAffected.length).toBeGreaterThan(100);
    expect(p.notAffected[0]!.reason).toBe(NOT_AFFECTED_REASON);
    expect(p.harnessChange).toEqual({ changed: false, files: [], why: 'no measuring file of the harness differs' });
    expect(p.head.commit).toBe(git(head, 'rev-parse', 'HEAD'));
  });

  it('--json reaches a slow reader whole: the plan of every point is larger than a pipe holds', () => {
    // The reader waits before reading, so the pipe fills; exiting before it drains cut the
    // plan at 64 KiB (`| jq` saw broken JSON while spawnSync's eager reader saw it whole).
    const cli = [process.execPath, join(ROOT, 'harness', 'bootstrap.mjs'), 'pairs', '--base', base, '--head', head];
    const quoted = [...cli, '--plan', '--json'].map((a) => `'${a}'`).join(' ');
    const out = execFileSync('sh', ['-c', `${quoted} | { sleep 1; cat; }`], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CI: '1' },
      maxBuffer: 64 << 20,
    });
    expect(out.length).toBeGreaterThan(65_536);
    expect(DiffPlan.parse(JSON.parse(out)).affected).toHaveLength(9);
  });

  it("a head experiment the base's harness cannot read (an unknown manifest field, a folder too large): all its points affected, the plan made", () => {
    const manifest = join(head, 'programs/scan/manifest.json');
    const text = readFileSync(manifest, 'utf8');
    try {
      const m = JSON.parse(text);
      m.newField = 1;
      writeFileSync(manifest, JSON.stringify(m, null, 2));
      const r = plan('--json');
      expect(r.status, r.stderr).toBe(0);
      const p = DiffPlan.parse(JSON.parse(r.stdout));
      expect(p.unreadable).toEqual([expect.objectContaining({ experiment: 'scan', side: 'head' })]);
      const scan = p.affected.filter((a) => a.benchmark.startsWith('scan/'));
      expect(scan.length).toBeGreaterThan(10);
      expect(scan[0]!.reasons[0]).toContain("cannot read the head's programs/scan/manifest.json");
      expect(p.notAffected.some((n) => n.benchmark.startsWith('scan/'))).toBe(false);
      expect(plan().stdout).toMatch(/^unreadable: the head's programs\/scan: /m);
    } finally {
      writeFileSync(manifest, text);
    }
    const many = join(head, 'programs/records/many');
    mkdirSync(many);
    try {
      for (let i = 0; i <= 20_000; i++) writeFileSync(join(many, `f${i}`), '');
      const r = plan('--json');
      expect(r.status, r.stderr).toBe(0);
      const p = DiffPlan.parse(JSON.parse(r.stdout));
      const records = p.affected.filter((a) => a.benchmark.startsWith('records/'));
      expect(records.length).toBeGreaterThan(5);
      expect(records[0]!.reasons.join(' ')).toContain('cannot be identified');
    } finally {
      rmSync(many, { recursive: true, force: true });
    }
  });

  it('says whether the harness changed, and why', () => {
    appendFileSync(join(head, 'harness/src/pipeline/bench.ts'), "if (Date.now() < 0) console.log('never');\n");
    try {
      const p = DiffPlan.parse(JSON.parse(plan('--json').stdout));
      expect(p.harnessChange.changed).toBe(true);
      expect(p.harnessChange.files).toEqual(['harness/src/pipeline/bench.ts']);
    } finally {
      git(head, 'checkout', '-q', '--', 'harness/src/pipeline/bench.ts');
    }
  });

  it('refuses --json without --plan, a folder that is not a checkout, and a trusted plan of another head, in one line each', () => {
    const r = runCli(['pairs', '--base', base, '--head', head, '--json']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--json goes with --plan/);
    const notCheckout = runCli(['pairs', '--base', dir, '--head', head, '--plan']);
    expect(notCheckout.status).toBe(2);
    expect(notCheckout.stderr).toContain(
      `--base ${dir} is not a checkout of this repository: it has no programs/ folder`,
    );
    const file = join(dir, 'plan.json');
    const p = DiffPlan.parse(JSON.parse(plan('--json').stdout));
    writeFileSync(file, JSON.stringify({ ...p, head: { ...p.head, commit: 'f'.repeat(40) } }));
    const t = runCli(['pairs', '--base', base, '--head', head, '--trusted-plan', file, '--profile', 'smoke']);
    expect(t.status).toBe(2);
    expect(t.stderr).toMatch(/is a plan of head ffffffffffff, but --head is at/);
  });
});

describe('the trusted plan widens what the diff measures', () => {
  const trusted = (affected: string[], control: string[]): DiffPlan => ({
    schema: 1,
    kind: 'pairs-plan',
    base: { root: '/b', commit: 'a' },
    head: { root: '/h', commit: 'b' },
    profile: 'quick',
    affected: affected.map((benchmark) => ({ benchmark, reasons: ['changed: programs/wc/data.txt'] })),
    control,
    notAffected: [],
    harnessChange: { changed: false, files: [], why: '' },
  });

  it("adds the base's affected points and control, never removes one of the head's", () => {
    const own: ImpactPlan = {
      measure: new Map([['wc/c/bs=1', 'affected']]),
      affected: new Map([['wc/c/bs=1', ['changed: programs/wc/wc-c.c']]]),
      notAffected: [
        { benchmark: 'wc/readsync/bs=1', reason: NOT_AFFECTED_REASON },
        { benchmark: 'scan/c/x=1', reason: NOT_AFFECTED_REASON },
        { benchmark: 'records/c/x=1', reason: NOT_AFFECTED_REASON },
      ],
    };
    const logs: string[] = [];
    widenToTrusted(own, trusted(['wc/readsync/bs=1'], ['scan/c/x=1']), (m) => logs.push(m));
    expect([...own.measure]).toEqual([
      ['wc/c/bs=1', 'affected'],
      ['wc/readsync/bs=1', 'affected'],
      ['scan/c/x=1', 'control'],
    ]);
    expect(own.affected.get('wc/readsync/bs=1')).toEqual(["the base's analysis: changed: programs/wc/data.txt"]);
    expect(own.notAffected.map((n) => n.benchmark)).toEqual(['records/c/x=1']);
    expect(logs.join('\n')).toMatch(/1 point\(s\) the base's analysis calls affected/);
  });

  it("keeps what the base's trace saw on a point this analysis calls affected for another reason", () => {
    const own: ImpactPlan = {
      measure: new Map([['wc/c/bs=1', 'affected']]),
      affected: new Map([['wc/c/bs=1', ['changed: programs/wc/wc-c.c']]]),
      notAffected: [],
    };
    const plan = trusted(['wc/c/bs=1'], []);
    plan.affected[0]!.reasons = ['changed: programs/wc/wc-c.c', 'seen only by tracing: programs/wc/x.json'];
    widenToTrusted(own, plan, () => {});
    expect(own.affected.get('wc/c/bs=1')).toEqual([
      'changed: programs/wc/wc-c.c',
      'seen only by tracing: programs/wc/x.json',
    ]);
  });
});
