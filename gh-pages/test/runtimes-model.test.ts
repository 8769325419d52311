// The Runtimes view's data shaping (gh-pages/src/runtimes-model.ts): the C reference beside each
// release, also for variants that lack one of C's parameters (Bun's and Deno's thread pools).
import { describe, expect, it } from 'vitest';
import type { ReleaseEntry } from '../../harness/src/formats/release-store-format.js';
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

describe('runtimeCharts: dates and missing releases', () => {
  const point = { work: 'read', cache: 'warm' };
  it("dates a release by its changelog where it has one, else by the registry's day, marked", () => {
    const dated = { ...bun('1.4.4', [value('bun', point, 5.4, false)]), released: '2026-10-30' };
    const [chart] = runtimeCharts(
      [dated, bun('1.4.5', [value('bun', point, 5.6, false)])],
      [],
      'quick',
      'threadpool',
      'latency_p50',
    );
    expect(chart!.points.map((p) => [p.date, p.dateSource])).toEqual([
      ['2026-10-30', 'changelog'],
      ['2026-11-01', 'registry'],
    ]);
  });

  it('names each release of the line without a value on the chart, with why', () => {
    const failed = {
      ...bun('1.4.5', []),
      problems: ['threadpool/bun/cache=warm,runtime=bun@1.4.5,work=read: failed: the answer was wrong'],
    };
    const other = { ...bun('1.4.6', []), experiments: ['wc'] };
    const withheld = bun('1.4.7', [value('c-pool', { ...point, pool: 4 }, 5.0, true)]);
    const [chart] = runtimeCharts(
      [bun('1.4.4', [value('bun', point, 5.4, false)]), failed, other, withheld],
      [],
      'quick',
      'threadpool',
      'latency_p50',
    );
    expect(chart!.missing).toEqual([
      { version: '1.4.5', why: 'failed: the answer was wrong' },
      { version: '1.4.6', why: 'threadpool was not measured with this release' },
      { version: '1.4.7', why: 'the run has no value for this metric (a fit too poor to report is withheld)' },
    ]);
  });
});

describe('runtimeCharts: intervals', () => {
  it("carries each release's interval and its reference's, and none where a value has none", () => {
    const point = { work: 'read', cache: 'warm' };
    const entries = [
      bun('1.4.4', [
        { ...value('bun', point, 5.4, false), interval: [5.1, 5.9] as [number, number] },
        { ...value('c-pool', { ...point, pool: 4 }, 5.2, true), interval: [5.0, 5.3] as [number, number] },
      ]),
      bun('1.4.5', [value('bun', point, 5.6, false), value('c-pool', { ...point, pool: 4 }, 5.1, true)]),
    ];
    const [chart] = runtimeCharts(entries, [], 'quick', 'threadpool', 'latency_p50');
    expect(chart!.points.map((p) => [p.interval, p.referenceInterval])).toEqual([
      [
        [5.1, 5.9],
        [5.0, 5.3],
      ],
      [undefined, undefined],
    ]);
  });
});
