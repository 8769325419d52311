// The Runtimes view's data shaping (gh-pages/src/runtimes-model.ts): the C reference beside each
// release, also for variants that lack one of C's parameters (Bun's and Deno's thread pools).
import { describe, expect, it } from 'vitest';
import type { ReleaseEntry } from '../../harness/src/releases/model/release-store.js';
import { runtimeCharts } from '../src/runtimes-model.js';

const value = (variant: string, params: Record<string, number | string>, v: number, reference: boolean) => ({
  experiment: 'threadpool',
  variant,
  params,
  metric: 'latency_p50',
  unit: 'ms',
  direction: 'smaller' as const,
  value: v,
  reference,
});

function bun(version: string, values: ReleaseEntry['values']): ReleaseEntry {
  return {
    family: 'bun',
    line: 'bun',
    version,
    date: '2026-11-01T00:00:00.000Z',
    profile: 'quick',
    measured: '2026-11-24T00:00:00.000Z',
    commit: 'a'.repeat(40),
    experiments: ['threadpool'],
    problems: [],
    values,
  };
}

describe('runtimeCharts: the C reference', () => {
  it("is C's point at the variant's parameters, or the one C point agreeing on all it has", () => {
    const point = { work: 'read', cache: 'warm' };
    const entries = [
      bun('1.4.4', [value('bun', point, 5.4, false), value('c-pool', { ...point, pool: 4 }, 5.2, true)]),
      // Two C points the Bun point could stand beside: none is chosen.
      bun('1.4.5', [
        value('bun', point, 5.6, false),
        value('c-pool', { ...point, pool: 4 }, 5.1, true),
        value('c-pool', { ...point, pool: 8 }, 4.0, true),
      ]),
    ];
    const [chart, ...rest] = runtimeCharts(entries, [], 'quick', 'threadpool', 'latency_p50');
    expect(rest).toEqual([]);
    expect(chart!.points.map((p) => p.reference)).toEqual([5.2, null]);
  });
});
