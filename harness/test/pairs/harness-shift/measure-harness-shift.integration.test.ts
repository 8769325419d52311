import { appendFileSync, existsSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessShift } from '../../../src/formats/pairs-format.js';
import type { TranscriptVerdict } from '../../../src/formats/transcript-format.js';
import { measureHarnessShift } from '../../../src/pairs/harness-shift/measure-harness-shift.js';
import { renderHarnessShift } from '../../../src/pairs/harness-shift/shift-section.js';
import { ROOT } from '../../helpers/cli.js';
import { git, HARNESS_PATHS, harnessRepos } from '../../helpers/harness-repos.js';
import { removeScratch } from '../../helpers/scratch.js';

let dir: string;
let base: string;
let head: string;

beforeAll(() => {
  ({ dir, base, head } = harnessRepos('jsio-harness-shift-e2e-', [...HARNESS_PATHS, 'programs']));
  // Code that runs (when the module loads) and changes nothing: the harness must be measured.
  appendFileSync(join(head, 'harness/src/run/measure.ts'), "if (Date.now() < 0) console.log('never');\n");
  git(head, 'commit', '-q', '-am', 'a no-op change in a runner file');
  // The packages of this checkout (the same lock file), as a CI job's npm ci would give each side.
  for (const side of [base, head]) symlinkSync(join(ROOT, 'node_modules'), join(side, 'node_modules'), 'dir');
});
afterAll(() => removeScratch(dir));

describe('measureHarnessShift', () => {
  it('measures one wc point with both harnesses and pools its shift', async () => {
    const log: string[] = [];
    const shift = await measureHarnessShift({
      base,
      head,
      profile: 'smoke',
      rounds: 2,
      filters: { experiments: ['wc'], variants: ['c'], params: { bs: [65536] } },
      log: (m) => log.push(m),
    });
    expect(shift).toBeDefined();
    expect(HarnessShift.parse(shift)).toEqual(shift);
    expect(shift!.files).toEqual(['harness/src/run/measure.ts']);
    // What the run gave, in the message of any failing assertion below.
    const got = JSON.stringify(shift);
    expect(shift!.notMeasured, got).toEqual([]);
    expect(shift!.experiments, got).toHaveLength(1);
    const wc = shift!.experiments[0]!;
    expect(wc.experiment).toBe('wc');
    expect(wc.points).toEqual(['wc/c/bs=65536']);
    expect(wc.metrics).toHaveLength(1);
    expect(wc.metrics[0]).not.toBe('max_rss');
    expect(wc.rounds, got).toBe(2);
    // Two rounds: the centre lies between their ratios; a 95% interval needs six (unit tests).
    const ratios = wc.roundRatios ?? [];
    expect(ratios).toHaveLength(2);
    expect(wc.ratio).toBeGreaterThanOrEqual(Math.min(...ratios) * 0.999999);
    expect(wc.ratio).toBeLessThanOrEqual(Math.max(...ratios) * 1.000001);
    expect(wc.ci, got).toBeUndefined();
    expect(renderHarnessShift(shift!)).toContain('- **wc**: ');
    expect(log.some((m) => m.includes('round 2 of at most 2, wc/c/bs=65536'))).toBe(true);
    // After its first round the point is timed for longer than the profile's few runs, by both harnesses.
    expect(
      log.find((m) => m.includes('round 2 of at most 2')),
      log.join('\n'),
    ).toMatch(/\((\d+) runs\)$/);
    // The sides were temporary: nothing of them is left, nor of their folders in the harness's
    // cache, and the head's checkout got no cache of its own (the shared one is outside it).
    expect(log.join('\n'), log.join('\n')).not.toMatch(/^error/m);
    const left = readdirSync(tmpdir()).filter((n) => /^jsio-harness-shift-(?!e2e-)/.test(n));
    expect(left).toEqual([]);
    expect(existsSync(join(head, '.cache', 'runtimes'))).toBe(false);
  });

  const verdict = (same: boolean): TranscriptVerdict => ({
    bench: ['--profile', 'smoke'],
    runs: same
      ? { same: true, alike: 120, differences: [], more: 0 }
      : { same: false, alike: 100, differences: [{ what: 'bash: `a` → `b`', runs: 20 }], more: 0 },
    numbers: { same: true, compared: 116, notReplayed: 0, moves: [] },
    exits: { base: 0, head: 0 },
    seconds: 14,
  });

  it('times nothing when both harnesses were recorded running the same commands and computing the same numbers', async () => {
    const calls: string[] = [];
    const shift = await measureHarnessShift(
      {
        base,
        head,
        rounds: 3,
        filters: { experiments: ['wc'], variants: ['c'] },
        log: () => {},
        runBench: async (side) => {
          calls.push(side);
          return { code: 2, stderr: 'error: not run\n' };
        },
      },
      { transcripts: verdict(true) },
    );
    expect(calls).toEqual([]);
    expect(shift).toMatchObject({ files: ['harness/src/run/measure.ts'], rounds: 0, experiments: [] });
    expect(HarnessShift.parse(shift)).toEqual(shift);
    expect(renderHarnessShift(shift!)).toContain('which measures the same');
  });

  it('times the change when the recordings differ, and keeps what they found', async () => {
    const shift = await measureHarnessShift(
      {
        base,
        head,
        rounds: 3,
        deadlineSeconds: 0,
        filters: { experiments: ['wc'], variants: ['c'] },
        log: () => {},
      },
      { transcripts: verdict(false) },
    );
    expect(shift!.rounds).toBe(3);
    expect(shift!.transcript?.runs.differences).toHaveLength(1);
    expect(renderHarnessShift(shift!)).toContain('Recorded from outside before timing:');
  });

  it("counts the points the recordings put every difference in, with each side's own harness, before timing them", async () => {
    const log: string[] = [];
    const inPoint: TranscriptVerdict = {
      ...verdict(false),
      runs: {
        same: false,
        alike: 100,
        differences: [{ what: 'bash: `set -o nounset` added', runs: 6, kind: 'program', points: 1 }],
        more: 0,
        inPoints: ['wc/c/bs=65536'],
      },
    };
    const shift = await measureHarnessShift(
      {
        base,
        head,
        profile: 'smoke',
        rounds: 1,
        filters: { experiments: ['wc'], variants: ['c'] },
        log: (m) => log.push(m),
      },
      { transcripts: inPoint },
    );
    expect(HarnessShift.parse(shift)).toEqual(shift);
    // Only the named point is counted (and timed), by both harnesses: the same C program on the
    // same input does the same work whichever harness starts it, exactly.
    expect(shift!.work, log.join('\n')).toEqual([
      expect.objectContaining({ benchmark: 'wc/c/bs=65536', metric: 'instructions_per_op', verdict: 'same' }),
    ]);
    expect(shift!.work![0]!.base).toBe(shift!.work![0]!.head);
    expect(renderHarnessShift(shift!)).toMatch(
      /- wc\/c\/bs=65536: work the same on both sides \([\d,]+ instructions per operation\)/,
    );
  });

  it('says so when its time runs out before the rounds end', async () => {
    const calls: string[] = [];
    const shift = await measureHarnessShift({
      base,
      head,
      rounds: 3,
      deadlineSeconds: 0,
      filters: { experiments: ['wc'], variants: ['c'] },
      log: () => {},
      runBench: async (side) => {
        calls.push(side);
        return { code: 2, stderr: 'error: not run\n' };
      },
    });
    expect(calls).toEqual([]);
    expect(shift?.experiments).toEqual([]);
    expect(shift?.note).toMatch(/stopped when its time ran out/);
  });

  it('measures nothing when the measuring code is unchanged', async () => {
    expect(await measureHarnessShift({ base, head: base, rounds: 1 })).toBeUndefined();
  });

  it('measures nothing, and says why, when the changed files compile to the same code', async () => {
    const commented = join(dir, 'commented');
    git(dir, 'clone', '-q', base, commented);
    appendFileSync(join(commented, 'harness/src/run/measure.ts'), '// a comment in a runner file\n');
    git(commented, 'commit', '-q', '-am', 'a comment');
    const calls: string[] = [];
    const shift = await measureHarnessShift({
      base,
      head: commented,
      rounds: 2,
      log: () => {},
      runBench: async (side) => {
        calls.push(side);
        return { code: 2, stderr: 'error: not run\n' };
      },
    });
    expect(calls).toEqual([]);
    expect(HarnessShift.parse(shift)).toEqual(shift);
    expect(shift).toMatchObject({ files: ['harness/src/run/measure.ts'], sameCode: true, experiments: [], rounds: 0 });
    expect(renderHarnessShift(shift!)).toMatch(/compile to the same code[\s\S]*no number can move/);
  });
});
