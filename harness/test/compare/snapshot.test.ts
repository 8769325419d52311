// comparison.md exactly as a reviewer reads it, for a fixed pair of two-round runs with a
// regression, an improvement, a counter change, added/removed benchmarks, unmeasured ones and
// a toolchain that differs between the sides.
// The bootstrap is seeded, so the file is the same on every machine.
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/compare/quick-look.js';
import { renderComparison } from '../../src/compare/render-quick-look.js';
import { bench, counter, results, timed } from '../helpers/results.js';

const spread = (c: number) => [0.97, 0.99, 1, 1.01, 1.03].map((f) => c * f);

function round(_sha: string, head: boolean, r: number) {
  const k = 1 + r * 0.002; // rounds differ a little, as real ones do
  return results(
    [
      bench(
        'c',
        { bs: 65536 },
        {
          wall_time: timed(spread(0.05 * k)),
          reads: counter(1024),
          'syscalls.read': counter(1026),
          'syscalls.total': counter(1100),
        },
      ),
      bench(
        'node-stream',
        { bs: 65536, runtime: 'node22' },
        {
          wall_time: timed(spread((head ? 0.13 : 0.1) * k)),
          reads: counter(head ? 2048 : 1024),
          'syscalls.read': counter(head ? 2050 : 1026),
          'syscalls.total': counter(head ? 2300 : 1250),
          ...(head ? { 'syscalls.epoll_wait': counter(1024) } : {}),
        },
      ),
      bench('dd-null', { bs: 65536 }, { wall_time: timed(spread((head ? 0.04 : 0.045) * k)) }),
      ...(head
        ? [bench('deno', { bs: 65536 }, { wall_time: timed(spread(0.07)) })]
        : [bench('bun', { bs: 65536 }, { wall_time: timed(spread(0.06)) })]),
      bench(
        'just-sync',
        { bs: 65536 },
        {},
        { status: 'skipped', reason: 'just(js) is not installed (no `just` on PATH)' },
      ),
      ...(head
        ? [
            bench(
              'node-pipe',
              { bs: 65536, runtime: 'node22' },
              {},
              { status: 'failed', reason: 'wrong result: bytes = 1, expected 65536' },
            ),
          ]
        : [bench('node-pipe', { bs: 65536, runtime: 'node22' }, { wall_time: timed(spread(0.08)) })]),
    ],
    (head ? 'h' : 'b').repeat(40),
  );
}

describe('comparison.md', () => {
  it('matches the reviewed snapshot', async () => {
    const head = [round('h', true, 0), round('h', true, 1)];
    for (const r of head) r.run.toolchains.hyperfine = '1.20.0';
    const c = compareRuns([round('b', false, 0), round('b', false, 1)], head);
    await expect(renderComparison(c)).toMatchFileSnapshot('./__snapshots__/comparison.md');
  });

  it('warns at the top when base and head ran on different machines', () => {
    const head = round('h', true, 0);
    head.run.machine = { ...head.run.machine, id: 'other-machine' };
    const md = renderComparison(compareRuns([round('b', false, 0)], [head]));
    expect(md.split('\n').slice(0, 6).join('\n')).toContain(
      '> ⚠️ base ran on `test-machine` and head on `other-machine`: timings from different machines are not comparable.',
    );
    expect(renderComparison(compareRuns([round('b', false, 0)], [round('h', true, 0)]))).not.toContain('⚠️');
  });
});
