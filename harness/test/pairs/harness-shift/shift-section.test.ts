// The comment's harness-shift section: files, one line per experiment, flags, escaping; and the
// comparison.json field that carries it.
import { describe, expect, it } from 'vitest';
import { type HarnessShift, PairsComparison } from '../../../src/formats/pairs-format.js';
import type { TranscriptVerdict } from '../../../src/formats/transcript-format.js';
import { renderHarnessShift, shiftLine, shiftPct } from '../../../src/pairs/harness-shift/shift-section.js';
import { pairsComparison } from '../../helpers/pairs.js';

const shift = (over: Partial<HarnessShift> = {}): HarnessShift => ({
  files: ['harness/src/run/measure.ts', 'harness/tools/evict.c'],
  profile: 'quick',
  rounds: 5,
  seed: 7,
  margin: 0.015,
  experiments: [
    {
      experiment: 'scan',
      points: ['scan/c/files=100'],
      metrics: ['scan_seconds'],
      rounds: 5,
      ratio: 1.023,
      ci: [1.017, 1.03],
      flagged: true,
    },
    {
      experiment: 'wc',
      points: ['wc/c/bs=4096', 'wc/c/bs=65536'],
      metrics: ['read_cost'],
      rounds: 5,
      ratio: 1.004,
      ci: [0.997, 1.011],
      flagged: false,
    },
  ],
  notMeasured: [],
  ...over,
});

describe('shiftPct', () => {
  it('signs a ratio as a percentage', () => {
    expect(shiftPct(1.004)).toBe('+0.4 %');
    expect(shiftPct(0.997)).toBe('−0.3 %');
    expect(shiftPct(1)).toBe('+0.0 %');
  });
});

describe('renderHarnessShift', () => {
  it('lists the files, then one line per experiment with its interval, flagging what leaves the margin', () => {
    expect(renderHarnessShift(shift())).toMatchInlineSnapshot(`
      "### ⚠️ This PR changes the harness's measuring code, and moves 1 experiment beyond ±1.5 %

      Changed: harness/src/run/measure.ts, harness/tools/evict.c

      The same programs (the head's) measured by the base's harness and by the head's, alternating in rounds (quick profile). Each experiment's pooled shift of its numbers, the head's harness over the base's, with a 95 % interval (flagged when it leaves ±1.5 %: beyond the margin when wholly outside it, too wide to tell when it straddles it):

      - **scan**: +2.3 % (+1.7 % … +3.0 %) ⚠️ beyond the margin — 1 point (scan_seconds), 5 rounds
      - **wc**: +0.4 % (−0.3 % … +1.1 %) — 2 points (read_cost), 5 rounds"
    `);
  });

  it('tells an interval too wide to answer from a shift beyond the margin', () => {
    const wide = {
      experiment: 'wc',
      points: ['wc/c/bs=4096'],
      metrics: ['read_cost'],
      rounds: 23,
      ratio: 0.98,
      ci: [0.94, 1.03] as [number, number],
      flagged: true,
    };
    expect(shiftLine(wide)).toBe(
      '- **wc**: −2.0 % (−6.0 % … +3.0 %) ⚪ too wide to tell — 1 point (read_cost), 23 rounds',
    );
    const text = renderHarnessShift(shift({ experiments: [wide] }));
    expect(text.split('\n')[0]).toBe(
      "### ⚠️ This PR changes the harness's measuring code; a shift beyond ±1.5 % cannot be ruled out in 1 experiment (their intervals are too wide)",
    );
    expect(text).not.toContain('moves');
  });

  it('says when an experiment has one round only, and when nothing could be measured', () => {
    expect(
      shiftLine({ experiment: 'wc', points: ['a'], metrics: ['wall_time'], rounds: 1, ratio: 0.99, flagged: false }),
    ).toBe('- **wc**: −1.0 % (no interval below six rounds) — 1 point (wall_time), 1 round');
    const text = renderHarnessShift(
      shift({
        experiments: [],
        notMeasured: [{ benchmark: 'wc/just-sync/bs=4096', reason: 'skipped: just is not installed' }],
      }),
    );
    expect(text).toContain('- no experiment could be measured with both harnesses');
    expect(text).toContain('- not measured: wc/just-sync/bs=4096 (skipped: just is not installed)');
  });

  it('escapes file names, experiment ids and reasons', () => {
    const text = renderHarnessShift(
      shift({
        files: ['harness/src/<img src=x>|@team.ts'],
        experiments: [
          {
            experiment: 'w[c](http://x)',
            points: ['p'],
            metrics: ['<b>m</b>'],
            rounds: 2,
            ratio: 1,
            ci: [1, 1],
            flagged: false,
          },
        ],
        notMeasured: [{ benchmark: 'b', reason: 'see https://evil.example @someone' }],
      }),
    );
    expect(text).not.toContain('<img');
    expect(text).not.toContain('<b>');
    expect(text).not.toContain('|@team');
    expect(text).not.toContain('[c](http');
    expect(text).not.toContain('https://evil');
    expect(text).not.toMatch(/@someone/);
  });

  it('a change that compiles to the same code: its files, and why nothing was measured, escaped', () => {
    const md = renderHarnessShift(
      shift({ files: ['harness/src/run/<b>x</b>.ts'], experiments: [], rounds: 0, sameCode: true }),
    );
    expect(md).toMatch(/^### This PR changes the harness's measuring files, which compile to the same code/);
    expect(md).toContain('no number can move, so none was measured');
    expect(md).not.toContain('<b>');
    expect(md).not.toMatch(/round|interval/);
  });

  it('shortens a long file list', () => {
    const files = Array.from({ length: 20 }, (_, i) => `harness/src/lib/f${i}.ts`);
    expect(renderHarnessShift(shift({ files }))).toContain('and 5 more');
  });
});

describe('comparison.json harnessShift', () => {
  it('validates with the comparison, and refuses a malformed one', () => {
    const c = { ...pairsComparison(), harnessShift: shift() };
    expect(PairsComparison.parse(c).harnessShift?.experiments[1]?.ratio).toBe(1.004);
    expect(PairsComparison.safeParse(pairsComparison()).success).toBe(true);
    const bad = { ...c, harnessShift: { ...shift(), experiments: [{ experiment: 'wc', ratio: 'x' }] } };
    expect(PairsComparison.safeParse(bad).success).toBe(false);
    const extra = { ...c, harnessShift: { ...shift(), surprise: 1 } };
    expect(PairsComparison.safeParse(extra).success).toBe(false);
  });
});

describe('a cut measurement', () => {
  it('says why it has fewer rounds than planned', () => {
    const text = renderHarnessShift(shift({ note: 'the measurement was interrupted <now>' }));
    expect(text).toContain('Note: the measurement was interrupted &lt;now&gt;.');
  });
});

describe('a harness change decided by its recordings (transcripts)', () => {
  const verdict = (over: Partial<TranscriptVerdict> = {}): TranscriptVerdict => ({
    bench: ['--profile', 'quick'],
    runs: { same: true, alike: 11_301, differences: [], more: 0 },
    numbers: { same: true, compared: 9_180, notReplayed: 244, moves: [] },
    exits: { base: 0, head: 0 },
    seconds: 312,
    ...over,
  });

  it('measures the same: says which question decided, with the evidence, and times nothing', () => {
    const md = renderHarnessShift(shift({ rounds: 0, experiments: [], transcript: verdict() }));
    expect(md).toMatch(/^### This PR changes the harness's measuring code, which measures the same/);
    expect(md).toContain(
      '**runs the same commands and computes the same numbers: measures the same, exact** — 11301 program starts alike on both sides; 9180 values made from the same hyperfine output compared exactly',
    );
    expect(md).not.toMatch(/pooled shift|interval/);
    expect(
      PairsComparison.parse({ ...pairsComparison(), harnessShift: shift({ transcript: verdict() }) }),
    ).toBeTruthy();
  });

  it('runs differently: the differences lead the timed section, escaped', () => {
    const md = renderHarnessShift(
      shift({
        transcript: verdict({
          runs: {
            same: false,
            alike: 10,
            differences: [{ what: 'hyperfine: `--warmup=3` → `--warmup=1` <b>x</b>', runs: 413 }],
            more: 2,
          },
          numbers: {
            same: false,
            compared: 10,
            notReplayed: 0,
            moves: [{ what: 'wall_time: reported value', benchmarks: 4, range: [-0.021, 0.048] }],
          },
        }),
      }),
    );
    expect(md).toContain(
      "**runs programs differently and computes different numbers, some in the harness's own work: the timed shift samples every point**",
    );
    expect(md).toContain(
      "- hyperfine: \\`--warmup=3\\` → \\`--warmup=1\\` &lt;b&gt;x&lt;/b&gt; (413 runs; the harness's own work)",
    );
    expect(md).toContain('- and 2 more differences');
    expect(md).toContain('- wall\\_time: reported value: 4 benchmarks by −2.1 … +4.8 %'.replace('\\_', '_'));
    expect(md).toContain('pooled shift');
  });

  it('differences all in named points: the headline says only those are timed, each with its points', () => {
    const md = renderHarnessShift(
      shift({
        transcript: verdict({
          runs: {
            same: false,
            alike: 10,
            differences: [{ what: 'hyperfine: `--runs=5` → `--runs=3`', runs: 4, kind: 'driver', points: 2 }],
            more: 0,
            inPoints: ['wc/c/bs=256', 'wc/c/bs=4096'],
          },
        }),
      }),
    );
    expect(md).toContain(
      '**runs programs differently, in 2 named points or builds only: the timed shift measures those**',
    );
    expect(md).toContain('(4 runs of 2 points; how hyperfine drives the runs)');
  });

  it("differences only in points' own timed commands: timed in pairs, nothing in rounds, escaped", () => {
    const runs = {
      same: false,
      alike: 10,
      differences: [{ what: 'hyperfine: `a` → `b`', runs: 2, kind: 'program' as const, points: 2 }],
      more: 0,
      inPoints: ['wc/c/bs=256', 'wc/c/bs=<b>4096</b>'],
      replay: ['wc/c/bs=256', 'wc/c/bs=<b>4096</b>'].map((point) => ({ point, base: ['a'], head: ['b'] })),
    };
    const paired = shift({
      rounds: 0,
      experiments: [],
      paired: ['wc/c/bs=256', 'wc/c/bs=<b>4096</b>'],
      transcript: verdict({ runs }),
    });
    const md = renderHarnessShift(paired);
    expect(md).toContain(
      "### This PR changes the harness's measuring code, which times some points with other commands",
    );
    expect(md).toContain(
      "**runs programs differently, in 2 points in their own timed commands or their environment only: timed in pairs with each side's recorded ones, as a program change is**",
    );
    expect(md).toContain('Timed in pairs, as a program change is: wc/c/bs=256, wc/c/bs=&lt;b&gt;4096&lt;/b&gt;');
    expect(md).not.toContain('<b>');
    expect(md).toContain('nothing was timed in rounds of whole benches');
    expect(PairsComparison.parse({ ...pairsComparison(), harnessShift: paired }).harnessShift?.paired).toHaveLength(2);
    // One point left to the timed shift besides: both said in the headline, the rounds' section follows.
    const both = renderHarnessShift(
      shift({ paired: ['wc/c/bs=256'], transcript: verdict({ runs: { ...runs, replay: runs.replay.slice(0, 1) } }) }),
    );
    expect(both).toContain(
      'in 1 named point or build (the timed shift measures those) and 1 point in its own timed commands or their environment only: timed in pairs',
    );
    expect(both).toContain('alternating in rounds');
  });

  it('the same runs, numbers made differently: listed exactly, nothing timed', () => {
    const md = renderHarnessShift(
      shift({
        rounds: 0,
        experiments: [],
        transcript: verdict({
          numbers: {
            same: false,
            compared: 10,
            notReplayed: 0,
            moves: [{ what: 'wall_time: reported value', benchmarks: 4, range: [-0.02, 0.01] }],
          },
        }),
      }),
    );
    expect(md).toContain('how the harness makes numbers from the same runs: the moves are listed, exact');
    expect(md).toContain('nothing to time');
    expect(md).not.toContain('pooled shift');
  });

  it('a recording that did not finish decides nothing', () => {
    const md = renderHarnessShift(shift({ transcript: verdict({ exits: { base: 0, head: 1 } }) }));
    expect(md).toContain('a recorded bench did not finish (base exited 0, head 1)');
    expect(md).toContain('pooled shift');
  });
});
