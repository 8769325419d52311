// Exact counter changes between releases, over fixtures: each release traced twice, a syscall
// count that steps at one release, one that the traces of a release disagree on, one that only
// appears in later releases (strace lists only the calls made); bisection through the builds.
import { describe, expect, it } from 'vitest';
import type { CounterPoint, ReleaseEntry } from '../../src/formats/release-store-format.js';
import {
  counterBisectStep,
  counterSeries,
  detectCounterChanges,
  exactCount,
} from '../../src/releases/judge/counter-changes.js';

function entry(version: string, counts: CounterPoint['counts'], profile = 'quick'): ReleaseEntry {
  return {
    family: 'node',
    line: 'node20',
    version,
    date: '2026-01-01T00:00:00.000Z',
    profile,
    measured: '2026-11-24T00:00:00.000Z',
    commit: 'f'.repeat(40),
    experiments: ['wc'],
    problems: [],
    values: [],
    counters: [
      { experiment: 'wc', variant: 'readsync', params: { bs: 4096 }, reference: false, counts },
      // C beside it: never compared (its counts are the machine's).
      { experiment: 'wc', variant: 'c', params: { bs: 4096 }, reference: true, counts: { 'syscalls.read': [1, 2] } },
    ],
  };
}

const entries = [
  entry('20.2.0', { 'syscalls.openat': [40, 40], 'syscalls.futex': [9, 12], 'syscalls.total': [49, 52] }),
  entry('20.3.0', {
    'syscalls.openat': [44, 44],
    'syscalls.futex': [15, 11],
    'syscalls.io_uring_setup': [1, 1],
    'syscalls.total': [60, 56],
  }),
  entry('20.4.0', {
    'syscalls.openat': [44, 44],
    'syscalls.futex': [10, 10],
    'syscalls.io_uring_setup': [1, 1],
    'syscalls.total': [55, 55],
  }),
];

describe('counter changes between releases', () => {
  it('calls a count exact only when at least two traces agree', () => {
    expect(exactCount([40, 40])).toBe(40);
    expect(exactCount([40, 41])).toBeUndefined();
    expect(exactCount([40])).toBeUndefined();
  });

  it('follows every JavaScript counter but the total, zero where a release made no such call', () => {
    const series = counterSeries([...entries].reverse(), 'quick');
    expect(series.map((s) => s.metric)).toEqual(['syscalls.futex', 'syscalls.io_uring_setup', 'syscalls.openat']);
    const uring = series.find((s) => s.metric === 'syscalls.io_uring_setup')!;
    expect(uring.points).toEqual([
      { version: '20.2.0', traces: [0, 0] },
      { version: '20.3.0', traces: [1, 1] },
      { version: '20.4.0', traces: [1, 1] },
    ]);
    expect(counterSeries(entries, 'smoke')).toEqual([]);
  });

  it('lists a difference every trace of both releases shows, never one the traces disagree on', () => {
    const found = detectCounterChanges(counterSeries(entries, 'quick'));
    expect(found.map((c) => [c.series.metric, c.from, c.to, c.before, c.after])).toEqual([
      ['syscalls.io_uring_setup', '20.2.0', '20.3.0', 0, 1],
      ['syscalls.openat', '20.2.0', '20.3.0', 40, 44],
    ]);
  });

  it('bisects through the builds: the last still at the old count, the first that left it', () => {
    const c = { from: '20.2.0', to: '20.3.0', before: 40 };
    const between = ['20.2.0', '20.2.1', '20.2.2', '20.2.3', '20.3.0'];
    expect(counterBisectStep(c, between, new Map())).toEqual({ kind: 'measure', version: '20.2.2' });
    const m = new Map<string, number[]>([['20.2.2', [40, 40]]]);
    expect(counterBisectStep(c, between, m)).toEqual({ kind: 'measure', version: '20.2.3' });
    m.set('20.2.3', [44, 44]);
    expect(counterBisectStep(c, between, m)).toEqual({ kind: 'narrowed', from: '20.2.2', to: '20.2.3', steps: 2 });
    // A build traced once cannot say: passed over, never measured again.
    const once = new Map<string, number[]>([
      ['20.2.1', [44]],
      ['20.2.2', [40, 40]],
      ['20.2.3', [44, 44]],
    ]);
    expect(counterBisectStep(c, between, once)).toEqual({ kind: 'narrowed', from: '20.2.2', to: '20.2.3', steps: 2 });
  });
});
