// A published commit's trend marks: which known reason moved its numbers (the sandbox or a
// toolchain against the previous commit's run, a re-count that dropped stored counts, a harness
// recorded against the previous commit), and how the store keeps them: per commit, one per kind
// and profile, replaced when the commit is published again, refused when malformed.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Results } from '../../src/formats/results-format.js';
import type { TranscriptVerdictFile } from '../../src/formats/transcript-format.js';
import { checkStore } from '../../src/store/check.js';
import { mergeMarks, previousRun, readMarks, storeMarks } from '../../src/store/mark-store.js';
import { publishRun } from '../../src/store/publish-run.js';
import { countsMark, harnessMark, marksOf, sandboxMark, toolchainChanges } from '../../src/workflow/derive-marks.js';
import { wcResults } from '../helpers/results.js';

const [A, B, C] = ['a', 'b', 'c'].map((x) => x.repeat(40)) as [string, string, string];

/** wcResults of `sha`, dated `day`, with the sandbox and toolchains given. */
function run(sha: string, day: number, over: { sandbox?: string; toolchains?: Record<string, string> } = {}): Results {
  const r = wcResults(sha);
  r.run.commit.date = `2026-11-${String(day).padStart(2, '0')}T00:00:00Z`;
  r.run.conditions = {
    loadAverage: [0, 0, 0],
    governor: 'performance',
    turbo: 'off',
    smt: 'off',
    measuredCpus: '1',
    harnessCpus: '0',
    ...(over.sandbox ? { sandbox: over.sandbox } : {}),
  };
  if (over.toolchains) r.run.toolchains = over.toolchains;
  return r;
}

const prevOf = (r: Results) => ({ run: r, file: `test-machine/runs/${r.run.commit.sha}/smoke.json` });

function verdict(over: Partial<TranscriptVerdictFile['verdict']> = {}): TranscriptVerdictFile {
  return {
    schema: 1,
    kind: 'transcript-verdict',
    base: { commit: A },
    head: { commit: B },
    verdict: {
      bench: ['--profile', 'smoke'],
      runs: { same: true, alike: 40, differences: [], more: 0 },
      numbers: { same: true, compared: 12, notReplayed: 0, moves: [] },
      exits: { base: 0, head: 0 },
      seconds: 50,
      ...over,
    },
  };
}

describe('deriving marks', () => {
  it('the sandbox arriving marks the commit, with where the previous run measured', () => {
    const m = sandboxMark(
      prevOf(run(A, 1, { sandbox: 'none: bwrap not found' })),
      run(B, 2, { sandbox: 'bubblewrap' }),
    );
    expect(m?.kind).toBe('sandbox');
    expect(m?.reason).toMatch(
      /^measured in the sandbox \(bubblewrap\) from this commit on; .*\(none: bwrap not found\)/,
    );
    expect(m?.source).toContain(`runs/${A}/smoke.json`);
    // A run from before sandboxes were recorded says so.
    expect(sandboxMark(prevOf(run(A, 1)), run(B, 2, { sandbox: 'bubblewrap' }))?.reason).toContain('(not recorded)');
    // Leaving it is marked too; staying in it, or a first commit, is not.
    expect(
      sandboxMark(prevOf(run(A, 1, { sandbox: 'bubblewrap' })), run(B, 2, { sandbox: 'none: x' }))?.reason,
    ).toMatch(/^measured without the sandbox \(none: x\)/);
    expect(
      sandboxMark(prevOf(run(A, 1, { sandbox: 'bubblewrap' })), run(B, 2, { sandbox: 'bubblewrap' })),
    ).toBeUndefined();
    expect(sandboxMark(undefined, run(B, 2, { sandbox: 'bubblewrap' }))).toBeUndefined();
  });

  it('a toolchain both runs name with another version is a sandbox mark; one only a run names is not', () => {
    const prev = run(A, 1, { sandbox: 'bubblewrap', toolchains: { just: '0.1.13', node: '22.1.0', gcc: '12' } });
    const next = run(B, 2, { sandbox: 'bubblewrap', toolchains: { just: '0.1.14', node: '22.1.0', bun: '1.2.0' } });
    expect(toolchainChanges(prev, next)).toEqual(['just 0.1.13 → 0.1.14']);
    expect(sandboxMark(prevOf(prev), next)?.reason).toBe('toolchain changed: just 0.1.13 → 0.1.14');
  });

  it('a re-count that dropped stored counts marks the commit with the families', () => {
    const r = run(B, 2);
    expect(countsMark(r)).toBeUndefined();
    r.run.counting = {
      store: 'reused',
      reused: 5,
      counted: 3,
      deferred: 0,
      budget: 100,
      rechecked: [
        { id: 'wc/c/bs=4096', family: 'native', agreed: false },
        { id: 'wc/node/bs=4096', family: 'node', agreed: true },
      ],
      dropped: ['native'],
    };
    const m = countsMark(r);
    expect(m?.kind).toBe('counts');
    expect(m?.reason).toMatch(
      /^a live re-count disagreed with the stored counts of native \(re-counted: wc\/c\/bs=4096 \(native\)\)/,
    );
    expect(m?.source).toBe(`the counting record of run ${r.run.id}`);
  });

  it("a harness that measures the same is no mark; one that runs or computes differently is, with the verdict's differences", () => {
    const r = run(B, 2);
    expect(harnessMark(verdict(), r)).toBeUndefined();
    const m = harnessMark(
      verdict({
        runs: {
          same: false,
          alike: 30,
          differences: [{ what: 'hyperfine: `--warmup 3` → `--warmup 1`', runs: 9 }],
          more: 2,
        },
        numbers: {
          same: false,
          compared: 12,
          notReplayed: 0,
          moves: [{ what: 'wall_time: reported value', benchmarks: 4, range: [-0.021, 0.048] }],
        },
      }),
      r,
    );
    expect(m?.reason).toBe(
      `the harness changed since ${A.slice(0, 12)}: runs programs differently: hyperfine: \`--warmup 3\` → \`--warmup 1\` (9 runs); and 2 more; makes numbers differently from the same raw output: wall_time: reported value: 4 benchmarks by −2.1 … +4.8 %`,
    );
    expect(m?.source).toBe(`transcript verdict ${A.slice(0, 12)}…${B.slice(0, 12)}, bench --profile smoke`);
    expect(harnessMark(verdict({ exits: { base: 0, head: 2 } }), r)?.reason).toContain('its recordings did not finish');
  });

  it("a mark sizes its moves by main's real runs when both analyses were handed them, else by the recording's", () => {
    const r = run(B, 2);
    const numbers = (trendMoves: { what: string; benchmarks: number; range?: [number, number] }[]) =>
      verdict({
        numbers: {
          same: false,
          compared: 12,
          notReplayed: 0,
          moves: [{ what: 'wall_time: reported value', benchmarks: 4, range: [-0.3, 0.4] }],
          trend: { profile: 'standard', benchmarks: 9, moves: trendMoves },
        },
      });
    expect(
      harnessMark(numbers([{ what: 'wall_time: reported value', benchmarks: 9, range: [-0.01, 0.02] }]), r)?.reason,
    ).toBe(
      `the harness changed since ${A.slice(0, 12)}: makes numbers differently from the same raw output: wall_time: reported value: 9 benchmarks by −1.0 … +2.0 %`,
    );
    // Nothing moved on the real runs (the moves were in values that run has none of): the recording's.
    expect(harnessMark(numbers([]), r)?.reason).toContain('4 benchmarks by −30.0 … +40.0 %');
  });

  it('a publish decides the harness kind only when it has a verdict', () => {
    expect(marksOf(run(B, 2), undefined, undefined)).toEqual({ decided: ['sandbox', 'counts'], marks: [] });
    expect(marksOf(run(B, 2), undefined, verdict()).decided).toEqual(['sandbox', 'counts', 'harness']);
  });
});

describe('the marks file', () => {
  const commit = { sha: B, date: '2026-11-02T00:00:00Z', subject: 'x' };
  const mark = (kind: 'sandbox' | 'harness' | 'counts', reason: string, profile = 'smoke') => ({
    kind,
    profile,
    reason,
    source: 's',
  });

  it("a commit published again replaces its marks of the decided kinds and profile, keeps the others', drops an empty commit", () => {
    let f = mergeMarks(
      { schema: 1, commits: {} },
      {
        commit,
        profile: 'smoke',
        decided: ['sandbox', 'counts', 'harness'],
        marks: [mark('harness', 'h'), mark('sandbox', 's')],
      },
    );
    f = mergeMarks(f, {
      commit,
      profile: 'standard',
      decided: ['sandbox', 'counts'],
      marks: [mark('counts', 'c', 'standard')],
    });
    expect(f.commits[B]?.marks.map((m) => `${m.kind}/${m.profile}`)).toEqual([
      'sandbox/smoke',
      'harness/smoke',
      'counts/standard',
    ]);
    // Published again without a verdict: its harness mark stays; its sandbox mark was not found again.
    f = mergeMarks(f, { commit, profile: 'smoke', decided: ['sandbox', 'counts'], marks: [] });
    expect(f.commits[B]?.marks.map((m) => m.kind)).toEqual(['harness', 'counts']);
    f = mergeMarks(f, { commit, profile: 'smoke', decided: ['harness'], marks: [] });
    f = mergeMarks(f, { commit, profile: 'standard', decided: ['counts'], marks: [] });
    expect(f.commits).toEqual({});
  });

  it('is derived against the previous commit the store has a run of, and checked like every store file', async () => {
    const store = mkdtempSync(join(tmpdir(), 'jsio-marks-'));
    await publishRun(store, run(A, 1, { sandbox: 'none: bwrap not found' }));
    // A later commit already published (a back-fill of an older one comes in between).
    await publishRun(store, run(C, 3, { sandbox: 'bubblewrap' }));
    const middle = run(B, 2, { sandbox: 'bubblewrap' });
    const prev = previousRun(store, middle);
    expect(prev?.run.run.commit.sha).toBe(A);
    const { decided, marks } = marksOf(middle, prev, undefined);
    storeMarks(store, 'test-machine', { commit, profile: 'smoke', decided, marks });
    expect(readMarks(store, 'test-machine').commits[B]?.marks[0]?.kind).toBe('sandbox');
    expect(() => checkStore(store)).not.toThrow();
    // Nothing to store on a machine without marks: no file.
    storeMarks(store, 'other', { commit, profile: 'smoke', decided, marks: [] });
    expect(() => readFileSync(join(store, 'other', 'marks.json'))).toThrow();
    // A crafted file is refused, naming the file and the field; a newer one by its number.
    mkdirSync(join(store, 'bad'));
    const bad = join(store, 'bad', 'marks.json');
    writeFileSync(
      bad,
      JSON.stringify({
        schema: 1,
        commits: { [A]: { date: 'd', subject: 's', marks: [mark('sandbox', 'x'.repeat(5000))] } },
      }),
    );
    expect(() => checkStore(store)).toThrow(/marks\.json.*\n.*commits\.a+\.marks\.0\.reason/s);
    writeFileSync(bad, JSON.stringify({ schema: 2, commits: {} }));
    expect(() => readMarks(store, 'bad')).toThrow(/marks\.json.*schema 2/s);
  });
});
