// Rounds of one side merged by compare: counters judged against their own round-to-round noise,
// syscalls missing on one side counted as zero, and a failure in any round reported, not hidden.
import { describe, expect, it } from 'vitest';
import { compareRuns, counterChange } from '../../src/compare/quick-look.js';
import { renderComparison } from '../../src/compare/render-quick-look.js';
import { Comparison } from '../../src/formats/quick-look-format.js';
import { bench, counter, results, timed } from '../helpers/results.js';

const T = [0.1, 0.101, 0.099, 0.1005, 0.0995];

describe('counters over rounds', () => {
  it('reports any difference when every round agrees', () => {
    expect(counterChange('x', 'reads', 'calls', [1024, 1024, 1024], [2048, 2048, 2048])).toEqual({
      benchmark: 'x',
      metric: 'reads',
      unit: 'calls',
      base: 1024,
      head: 2048,
    });
    expect(counterChange('x', 'reads', 'calls', [1024, 1024], [1024, 1024])).toBeUndefined();
  });

  it('ignores a noisy counter whose ranges overlap or barely miss', () => {
    expect(counterChange('x', 'syscalls.futex', 'calls', [143, 150, 154], [122, 130, 135])).toBeUndefined(); // gap 8 < spread 13
    expect(counterChange('x', 'syscalls.futex', 'calls', [140, 150, 160], [150, 155, 158])).toBeUndefined(); // overlap
  });

  it('reports a noisy counter that clearly moved, with both ranges', () => {
    expect(counterChange('x', 'syscalls.epoll_wait', 'calls', [1000, 1010, 1005], [2000, 2020, 2010])).toEqual({
      benchmark: 'x',
      metric: 'syscalls.epoll_wait',
      unit: 'calls',
      base: 1005,
      head: 2010,
      baseRange: [1000, 1010],
      headRange: [2000, 2020],
    });
  });

  it('counts a syscall made only by head from zero, and renders ranges', () => {
    const side = (sha: string, extra: Record<string, number>[]) =>
      extra.map((e) =>
        results(
          [
            bench(
              'node-stream',
              { bs: 65536 },
              {
                wall_time: timed(T),
                'syscalls.read': counter(1026),
                'syscalls.total': counter(1026 + (e['syscalls.epoll_wait'] ?? 0)),
                ...Object.fromEntries(Object.entries(e).map(([k, v]) => [k, counter(v)])),
              },
            ),
          ],
          sha,
        ),
      );
    const base = side('b'.repeat(40), [{}, {}, {}]);
    const head = side('h'.repeat(40), [
      { 'syscalls.epoll_wait': 1020 },
      { 'syscalls.epoll_wait': 1026 },
      { 'syscalls.epoll_wait': 1030 },
    ]);
    const c = compareRuns(base, head);
    expect(c.counters.filter((x) => x.metric === 'syscalls.epoll_wait')).toEqual([
      {
        benchmark: 'wc/node-stream/bs=65536',
        metric: 'syscalls.epoll_wait',
        unit: 'calls',
        base: 0,
        head: 1026,
        headRange: [1020, 1030],
      },
    ]);
    expect(Comparison.parse(c)).toBeTruthy();
    expect(renderComparison(c)).toContain('epoll_wait 0→1,020–1,030');
  });
});

describe('failures in some rounds', () => {
  const ok = (sha: string) => results([bench('c', { bs: 65536 }, { wall_time: timed(T) })], sha);
  const failed = (sha: string) =>
    results([bench('c', { bs: 65536 }, {}, { status: 'failed', reason: 'wrong result: bytes = 1, expected 2' })], sha);

  it('lists a benchmark that failed in one round of three instead of comparing the others', () => {
    const c = compareRuns(
      [ok('b'.repeat(40)), ok('b'.repeat(40)), ok('b'.repeat(40))],
      [ok('h'.repeat(40)), failed('h'.repeat(40)), ok('h'.repeat(40))],
    );
    expect(c.metrics).toEqual([]);
    expect(c.notMeasured).toEqual([
      {
        benchmark: 'wc/c/bs=65536',
        side: 'head',
        status: 'failed',
        reason: 'in 1 of 3 rounds: wrong result: bytes = 1, expected 2',
      },
    ]);
    expect(renderComparison(c)).toContain('`wc/c/bs=65536` (head, failed): in 1 of 3 rounds: wrong result');
  });

  it('lists it whichever round failed, first or last', () => {
    const c = compareRuns([failed('b'.repeat(40)), ok('b'.repeat(40))], [ok('h'.repeat(40)), ok('h'.repeat(40))]);
    expect(c.notMeasured.map((x) => [x.side, x.reason])).toEqual([
      ['base', 'in 1 of 2 rounds: wrong result: bytes = 1, expected 2'],
    ]);
  });
});

describe('benchmarks too fast to time', () => {
  it('are listed as not compared (a median of 0 s has no ratio) and the comparison stays valid', () => {
    const zero = (sha: string) =>
      results(
        [
          bench('c', { bs: 4096 }, { wall_time: timed([0, 0, 2.79e-6]) }),
          bench('dd-null', { bs: 4096 }, { wall_time: timed(T) }),
        ],
        sha,
      );
    const c = compareRuns([zero('b'.repeat(40))], [zero('h'.repeat(40))]);
    expect(c.metrics.map((m) => m.benchmark)).toEqual(['wc/dd-null/bs=4096']);
    expect(c.incomparable).toEqual([
      { benchmark: 'wc/c/bs=4096', metric: 'wall_time', reason: 'too fast to time: a median of wall_time is 0 s' },
    ]);
    expect(() => Comparison.parse(JSON.parse(JSON.stringify(c)))).not.toThrow();
    expect(renderComparison(c)).toContain('**Not comparable** (1):\n\n- `wc/c/bs=4096` wall_time: too fast to time');
  });
});

describe('rounds measured on a busy machine', () => {
  const run = (sha: string, load: number) => {
    const r = results([bench('c', { bs: 65536 }, { wall_time: timed(T) })], sha);
    r.run.conditions = {
      loadAverage: [load, load, load],
      governor: 'unavailable',
      turbo: 'unknown',
      smt: 'unknown',
      measuredCpus: '1',
      harnessCpus: '0',
    };
    return r;
  };
  it('are named at the top of the comparison', () => {
    const c = compareRuns(
      [run('b'.repeat(40), 0.2), run('b'.repeat(40), 4.1)],
      [run('h'.repeat(40), 0.3), run('h'.repeat(40), 5.2)],
    );
    expect(c.warnings).toEqual([
      'the machine was busy during 2 of 4 rounds (load average up to 5.2 on 2 cores): timings are unreliable, and changes called significant may be caused by that load; run again on an idle machine',
    ]);
    expect(renderComparison(c).split('\n').slice(0, 6).join('\n')).toContain(
      '> ⚠️ the machine was busy during 2 of 4 rounds',
    );
  });

  it('give no warning when every round ran on an idle machine', () => {
    expect(compareRuns([run('b'.repeat(40), 0.2)], [run('h'.repeat(40), 0.9)]).warnings).toBeUndefined();
  });
});
