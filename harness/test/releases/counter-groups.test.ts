// Counter changes as a reader takes them: one group per line, release pair and point; groups with
// a step of more than two calls first, the rest folded (a sweep found 1,374 of 2,032 changes of
// one or two calls); the CLI's one line per group.
import { describe, expect, it } from 'vitest';
import { bySize, counterGroups, counterGroupText, largestStep } from '../../src/releases/counter-groups.js';
import { counterChange } from './helpers.js';

const counter = counterChange;

describe('counter groups', () => {
  const changes = [
    counter('syscalls.brk', 18, 19),
    counter('syscalls.openat', 40, 44),
    counter('syscalls.mmap', 60, 62, { params: { bs: 4096 } }),
    counter('syscalls.madvise', 3, 2, { from: '20.4.0', to: '20.5.0' }),
    { ...counter('syscalls.read', 1, 1), kind: 'timing' as const },
  ];

  it('groups by line, release pair and point, in the given order, counters only', () => {
    const groups = counterGroups(changes);
    expect(groups.map((g) => g.map((c) => c.metric))).toEqual([
      ['syscalls.brk', 'syscalls.openat'],
      ['syscalls.mmap'],
      ['syscalls.madvise'],
    ]);
    expect(groups.map(largestStep)).toEqual([4, 2, 1]);
  });

  it('puts a group first when any of its counts moved by more than two calls', () => {
    const { large, small } = bySize(counterGroups(changes));
    expect(large.map((g) => g.length)).toEqual([2]);
    expect(small.map((g) => g[0]!.metric)).toEqual(['syscalls.mmap', 'syscalls.madvise']);
  });

  it('writes a group as one line, with its bisection', () => {
    const effects = [{ metric: 'read_cost', unit: 'ns', direction: 'smaller' as const, from: 100, to: 120 }];
    const [g] = counterGroups([
      counter('syscalls.brk', 18, 19, { detectedFrom: '20.0.0', detectedTo: '20.3.0', effects }),
      counter('syscalls.openat', 40, 44, { detectedFrom: '20.0.0', detectedTo: '20.3.0', effects }),
    ]);
    expect(counterGroupText(g!)).toBe(
      'node 20.2.0 → 20.3.0: wc readsync bs 65536: syscalls.brk 18 → 19, syscalls.openat 40 → 44 per run (exact, every trace of both releases; bisected from 20.0.0 → 20.3.0); measured beside it: read_cost +20%',
    );
  });
});
