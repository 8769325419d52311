// A fit experiment's sizes are timed one run at a time, alternating (A B, B A, …), never in two
// blocks: the cost per operation is a difference of the two sizes, and in blocks it also measured
// how far the machine moved between them. The plan (pure), and the order a real hyperfine runs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findTools } from '../../src/machine/tools.js';
import { timeWithHyperfine } from '../../src/run/hyperfine-runner.js';
import { gatherBySize, interleavedSlots } from '../../src/run/interleave-sizes.js';

const work = mkdtempSync(join(tmpdir(), 'jsio-interleave-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('interleavedSlots', () => {
  it('alternates the sizes run by run, reversing every other round, warm-ups first', () => {
    expect(interleavedSlots(2, 4, 1).map((s) => `${s.warmup ? 'w' : ''}${s.size}`)).toEqual([
      'w0',
      'w1',
      '0',
      '1',
      '1',
      '0',
      '0',
      '1',
      '1',
      '0',
    ]);
    expect(interleavedSlots(3, 2, 0).map((s) => s.size)).toEqual([0, 1, 2, 2, 1, 0]);
  });

  it('gathers each size back in run order without the warm-ups, and refuses a count that does not match', () => {
    const slots = interleavedSlots(2, 3, 1);
    const results = slots.map((_, k) => ({ times: [k] }));
    const merge = (parts: { times: number[] }[]) => ({ times: parts.flatMap((p) => p.times) });
    expect(gatherBySize(slots, results, merge)).toEqual([{ times: [2, 5, 6] }, { times: [3, 4, 7] }]);
    expect(() => gatherBySize(slots, results.slice(1), merge)).toThrow('hyperfine returned 7 results for 8 commands');
  });
});

const { hyperfine } = findTools();

// CI installs hyperfine (.ci/run): skipped only where it is missing.
describe.skipIf(!hyperfine)('timeWithHyperfine with two sizes', () => {
  it('runs them alternating, and returns each size with its own runs', async () => {
    const log = join(work, 'order.log');
    const size = (i: number) => ({
      command: { generatorPin: '', assignments: '', pin: '', program: `echo ${i} >> ${log}` },
    });
    const timed = await timeWithHyperfine(
      { id: 'x/y/n=1', settings: { runs: 3, warmup: 1, timeout: 30 }, cwd: work, scratch: join(work, 'scratch') },
      hyperfine!,
      work,
      [size(0), size(1)],
      { spent: () => {} },
    );
    if ('failed' in timed) throw new Error(timed.failed);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['0', '1', '0', '1', '1', '0', '0', '1']);
    expect(timed.map((r) => [r.command, r.times.length, r.exitCodes])).toEqual([
      [`set -o pipefail; echo 0 >> ${log}`, 3, [0, 0, 0]],
      [`set -o pipefail; echo 1 >> ${log}`, 3, [0, 0, 0]],
    ]);
  });
});
