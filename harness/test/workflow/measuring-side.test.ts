// `workflow measuring-side` (pr.yml): whose harness runs the diff, read from the trusted plan —
// the base's unless the plan found the harness changed; a plan it cannot read stops the job.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIFF_PLAN_SCHEMA, type DiffPlan } from '../../src/formats/diff-plan-format.js';
import { runSync } from '../../src/lib/exec.js';
import { runCli } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-measuring-side-'));
afterAll(() => removeScratch(dir));

const plan = (harnessChange: DiffPlan['harnessChange']): DiffPlan => ({
  schema: DIFF_PLAN_SCHEMA,
  kind: 'pairs-plan',
  base: { root: '/b', commit: 'a'.repeat(40) },
  head: { root: '/h', commit: 'b'.repeat(40) },
  profile: 'quick',
  affected: [],
  control: [],
  notAffected: [],
  harnessChange,
});

let n = 0;
function side(content: string) {
  const file = join(dir, `plan-${++n}.json`);
  writeFileSync(file, content);
  return runCli(['workflow', 'measuring-side', '--plan', file]);
}

describe('workflow measuring-side', () => {
  it("the base's harness when the harness did not change", () => {
    const r = side(JSON.stringify(plan({ changed: false, files: [], why: 'no change' })));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('side=base\nharness=unchanged\n');
  });

  it("the head's harness when the plan found the measuring code changed, saying why", () => {
    const r = side(
      JSON.stringify(plan({ changed: true, files: ['harness/src/run/measure.ts'], why: 'measuring code differs' })),
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('side=head\nharness=changed\n');
    expect(r.stderr).toContain('measuring code differs');
  });

  const verdictFile = (over: {
    base?: string;
    head?: string;
    same?: boolean;
    moved?: boolean;
    runs?: Record<string, unknown>;
  }) => {
    const same = over.same ?? true;
    const numbers = over.moved
      ? {
          same: false,
          compared: 40,
          notReplayed: 0,
          reduced: 2,
          moves: [{ what: 'wall_time: reported value', benchmarks: 2 }],
        }
      : { same: true, compared: 40, notReplayed: 2, moves: [] };
    const file = join(dir, `transcripts-${++n}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        schema: 1,
        kind: 'transcript-verdict',
        base: { commit: over.base ?? 'a'.repeat(40) },
        head: { commit: over.head ?? 'b'.repeat(40) },
        verdict: {
          bench: ['--profile', 'quick'],
          runs: {
            same,
            alike: 10,
            differences: same ? [] : [{ what: 'hyperfine: `--warmup 3` → `--warmup 1`', runs: 4 }],
            more: 0,
            ...over.runs,
          },
          numbers,
          exits: { base: 0, head: 0 },
          seconds: 12,
        },
      }),
    );
    return file;
  };
  const changedPlan = () => {
    const file = join(dir, `plan-${++n}.json`);
    writeFileSync(
      file,
      JSON.stringify(plan({ changed: true, files: ['harness/src/run/measure.ts'], why: 'measuring code differs' })),
    );
    return file;
  };

  const recorded = (file: string) =>
    runCli(['workflow', 'measuring-side', '--plan', changedPlan(), '--transcripts', file]);

  it("the base's harness when both harnesses' recordings measure the same, saying so", () => {
    const r = recorded(verdictFile({}));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('side=base\nharness=changed\n');
    expect(r.stderr).toContain('run the same commands and compute the same numbers');
  });

  it("the base's harness when both run the same commands and their numbers' moves are listed exactly, saying so", () => {
    const r = recorded(verdictFile({ moved: true }));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('side=base\nharness=changed\n');
    expect(r.stderr).toContain('the numbers they make differently from the same raw output are listed exactly');
    expect(r.stderr).not.toContain('compute the same numbers');
  });

  it("the head's harness when the recordings differ", () => {
    const r = recorded(verdictFile({ same: false }));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('side=head\nharness=changed\n');
  });

  it("the base's harness when every difference is in points' own timed commands, which it times in pairs from the recordings", () => {
    const point = 'wc/c/bs=4096';
    const replay = [{ point, base: ['set -o pipefail; a'], head: ['set -o pipefail -o nounset; a'] }];
    const differences = [{ what: 'hyperfine: `a` → `b`', runs: 2, kind: 'program', points: 1 }];
    const r = recorded(verdictFile({ same: false, runs: { differences, inPoints: [point], replay } }));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('side=base\nharness=changed\n');
    expect(r.stderr).toContain("every difference is in 1 point's own timed commands or their environment");
    // A point besides that only the timed shift answers: the head's harness measures.
    const more = recorded(
      verdictFile({ same: false, runs: { differences, inPoints: [point, 'wc/c/bs=65536'], replay } }),
    );
    expect(more.stdout).toBe('side=head\nharness=changed\n');
  });

  it('refuses recordings of other commits than the plan, printing no side', () => {
    const r = recorded(verdictFile({ head: 'c'.repeat(40) }));
    expect(r.status).not.toBe(0);
    expect(r.stdout).not.toContain('side=');
    expect(r.stderr).toContain('but the plan is of');
  });

  it.each([
    ['not JSON', '{"schema":'],
    ['a field missing', JSON.stringify({ ...plan({ changed: false, files: [], why: '' }), harnessChange: undefined })],
    ['a field of another type', JSON.stringify(plan({ changed: 'yes' as unknown as boolean, files: [], why: '' }))],
  ])('refuses a malformed plan (%s), naming the file, and prints no side', (_what, content) => {
    const r = side(content);
    expect(r.status).not.toBe(0);
    expect(r.stdout).not.toContain('side=');
    expect(r.stderr).toContain(`plan-${n}.json`);
  });

  it('refuses to run without --plan', () => {
    const r = runCli(['workflow', 'measuring-side']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('measuring-side needs --plan FILE');
  });

  // A head's root .npmrc configures every npm run in it (script-shell once put a folder of the
  // checkout first on PATH): pr.yml asks with --head before the head's npm ci and harness run.
  describe('--head', () => {
    const head = (npmrc: string | undefined) => {
      const root = mkdtempSync(join(dir, 'head-'));
      if (npmrc !== undefined) writeFileSync(join(root, '.npmrc'), npmrc);
      writeFileSync(join(root, 'README.md'), 'a head\n');
      for (const args of [
        ['init', '-q'],
        ['add', '.'],
        ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'c'],
      ])
        expect(runSync(['git', '-C', root, ...args]).code).toBe(0);
      return root;
    };
    const file = () => {
      const f = join(dir, `plan-${++n}.json`);
      writeFileSync(f, JSON.stringify(plan({ changed: false, files: [], why: 'no change' })));
      return f;
    };

    it('refuses a head whose tracked .npmrc sets script-shell, naming it, and prints no side', () => {
      const root = head('script-shell=./bin/sh\n');
      const r = runCli(['workflow', 'measuring-side', '--plan', file(), '--head', root]);
      expect(r.status).toBe(2);
      expect(r.stdout).not.toContain('side=');
      expect(r.stderr).toContain(`${root}: .npmrc sets "script-shell"`);
    });

    it('lets through a head without one, or with allowed keys only', () => {
      for (const npmrc of [undefined, 'fund=false\naudit=false\n']) {
        const r = runCli(['workflow', 'measuring-side', '--plan', file(), '--head', head(npmrc)]);
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout).toBe('side=base\nharness=unchanged\n');
      }
    });

    it('refuses a --head that does not exist, naming it', () => {
      const r = runCli(['workflow', 'measuring-side', '--plan', file(), '--head', join(dir, 'nowhere')]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(join(dir, 'nowhere'));
    });
  });
});
