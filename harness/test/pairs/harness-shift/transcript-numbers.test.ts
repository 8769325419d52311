// The numbers two recordings' harnesses made from the same hyperfine output: equal when the
// analysis is the same, each moved value named (with how far) when it is not; values the recording
// did not replay (self-timed benchmarks) are counted apart, never compared.
import { describe, expect, it } from 'vitest';
import type { Metric } from '../../../src/formats/results-format.js';
import { compareNumbers, moveText } from '../../../src/pairs/harness-shift/transcript-numbers.js';
import { bench, counter, results, timed } from '../../helpers/results.js';

const wc = (samples: number[], extra: Record<string, Metric> = {}) =>
  bench('c', { bs: 4096 }, { wall_time: timed(samples), syscalls: counter(12), ...extra });
const selfTimed = (v: number) => bench('node', { bs: 4096 }, { latency: { ...timed([v, v + 1]), source: 'harness' } });

describe('compareNumbers', () => {
  it('the same analysis of the same output: the same, every replayed number compared', () => {
    const c = compareNumbers(results([wc([1, 2, 3]), selfTimed(5)]), results([wc([1, 2, 3]), selfTimed(9)]));
    expect(c.same).toBe(true);
    // value, three samples and six stats of wall_time; the strace counter and the self-timed point are not replayed.
    expect(c.compared).toBe(10);
    expect(c.notReplayed).toBe(1);
  });

  it('another centre: the moved reported values listed with their range', () => {
    const head = wc([1, 2, 3]);
    head.metrics.wall_time = { ...head.metrics.wall_time!, value: 2.2 };
    const c = compareNumbers(results([wc([1, 2, 3])]), results([head]));
    expect(c.same).toBe(false);
    expect(c.moves).toEqual([
      { what: 'wall_time: reported value', benchmarks: 1, range: [0.10000000000000009, 0.10000000000000009] },
    ]);
    expect(moveText(c.moves[0]!)).toBe('wall_time: reported value: 1 benchmark by +10.0 … +10.0 %');
  });

  it('other samples, statuses, metrics and benchmarks: each named', () => {
    const head = wc([1, 2, 4], { throughput: timed([5, 6, 7]) });
    const c = compareNumbers(
      results([wc([1, 2, 3]), bench('c', { bs: 1 }, { wall_time: timed([1]) })]),
      results([{ ...head, status: 'failed' }, bench('c', { bs: 2 }, { wall_time: timed([1]) })]),
    );
    const what = c.moves.map((m) => m.what);
    expect(what).toContain('status ok → failed');
    expect(what).toContain('throughput: only on the head');
    expect(what).toContain('wall_time: samples, stats.mean, stats.stddev, stats.max');
    expect(what).toContain('benchmark only on the base');
    expect(what).toContain('benchmark only on the head');
  });

  it('a fit whose sizes the programs reported differently is not compared: its inputs were not replayed', () => {
    const fitted = (xs: number[], value: number): Metric => ({
      ...timed([value]),
      source: 'fit',
      value,
      fit: { x: 'reads', xs, scales: [1, 1], r2: 0.9, n: 2 },
    });
    const a = bench('node', { bs: 4096 }, { wall_time: timed([1, 2]), read_cost: fitted([10, 20], 5) });
    const b = bench('node', { bs: 4096 }, { wall_time: timed([1, 2]), read_cost: fitted([10, 21], 6) });
    const c = compareNumbers(results([a]), results([b]));
    expect(c).toMatchObject({ same: true, notReplayed: 1, compared: 0 });
    // The same sizes: compared, and the moved value named.
    const moved = compareNumbers(
      results([a]),
      results([{ ...a, metrics: { ...a.metrics, read_cost: fitted([10, 20], 6) } }]),
    );
    expect(moved.moves.map((m) => m.what)).toContain('read_cost: reported value');
  });
});
