// The Overview's picture and its one-sentence answer are computed from the run (report/overview-model.ts).
import { describe, expect, it } from 'vitest';
import { medianInterval } from '../../src/analysis/median-interval.js';
import { Overview } from '../../src/formats/manifest-format.js';
import { overviewModel } from '../../src/report/overview-model.js';

type P = Parameters<typeof overviewModel>[2][number];
const point = (
  variant: string,
  params: Record<string, number | string>,
  metric: string,
  value: number,
  unit = 'ns',
): P => ({
  variant,
  params,
  status: 'ok',
  metrics: { [metric]: { value, unit, direction: 'smaller', samples: [value * 0.99, value, value * 1.01] } },
});

describe('overviewModel', () => {
  const wc = Overview.parse({
    x: 'bs',
    metric: ['read_cost', 'throughput'],
    references: [
      { variant: 'c', label: 'C' },
      { variant: 'dd-null', label: 'pipe ceiling' },
    ],
    answer: { kind: 'reference', to: 'c', ceiling: 'dd-null' },
  });
  const runs = [4096, 65536].flatMap((bs) => [
    point('c', { bs }, 'read_cost', bs / 10),
    point('dd-null', { bs }, 'read_cost', bs / 11),
    point('bun', { bs }, 'read_cost', bs / 9),
    point('node-stream', { bs, runtime: 'node22' }, 'read_cost', bs / 4),
  ]);

  it('draws one line per variant and runtime, references apart, and answers against C at the largest x', () => {
    const m = overviewModel(wc, { bs: { unit: 'B' } }, runs)!;
    expect(m.metric).toBe('read_cost');
    expect(m.panels).toHaveLength(1);
    expect(m.panels[0]!.xs).toEqual([4096, 65536]);
    expect(m.panels[0]!.lines.map((l) => [l.label, l.reference])).toEqual([
      ['bun', false],
      ['C (c)', true],
      ['pipe ceiling (dd-null)', true],
      ['node-stream (node22)', false],
    ]);
    expect(m.answer).toBe(
      "At 64 KiB, read_cost is 1.11x of C's for bun and 2.50x for node-stream (node22); C's is 1.10x pipe ceiling's.",
    );
  });

  it('answers at the largest x where C has a value (a fit a small run could not resolve has none)', () => {
    const unresolved = runs.filter((r) => !(r.variant === 'c' && r.params.bs === 65536));
    const m = overviewModel(wc, { bs: { unit: 'B' } }, unresolved)!;
    expect(m.answer).toBe(
      "At 4 KiB, read_cost is 1.11x of C's for bun and 2.50x for node-stream (node22); C's is 1.10x pipe ceiling's.",
    );
  });

  it('falls back to the next metric when the first has no values, and says so in the title', () => {
    const tput = runs.map((r) => ({
      ...r,
      metrics: { throughput: { ...r.metrics.read_cost!, unit: 'MB/s', direction: 'bigger' as const } },
    }));
    const m = overviewModel({ ...wc, title: 'cost per read' }, { bs: { unit: 'B' } }, tput)!;
    expect(m.metric).toBe('throughput');
    expect(m.title).toBe('throughput against bs');
    // Bigger is better here: 2.5x C's throughput and more than the pipe's ceiling are not believed.
    expect(m.answer).toBe('Not enough points in this run to answer.');
    expect(m.suspects).toEqual([
      "bun 1.22x of pipe ceiling's throughput (beyond the ceiling)",
      "node-stream (node22) 2.50x of C's throughput (implausibly better than the reference)",
    ]);
  });

  it('names the lines whose intervals overlap together, and flags a value cheaper than C', () => {
    const noisy = (variant: string, bs: number, v: number, spread: number): P => ({
      ...point(variant, { bs }, 'read_cost', v),
      metrics: {
        read_cost: { value: v, unit: 'ns', direction: 'smaller', samples: [v * (1 - spread), v, v * (1 + spread)] },
      },
    });
    const m = overviewModel(wc, { bs: { unit: 'B' } }, [
      noisy('c', 65536, 100, 0.01),
      noisy('bun', 65536, 120, 0.05),
      noisy('deno', 65536, 125, 0.05),
      noisy('node-stream', 65536, 300, 0.01),
      noisy('node-pipe', 65536, 31, 0.01),
    ])!;
    // bun is the cheapest, but deno's interval reaches into bun's: both are named, neither alone.
    expect(m.answer).toBe(
      "At 64 KiB, read_cost is 1.20x of C's for bun and 1.25x for deno, and 3.00x for node-stream.",
    );
    expect(m.suspects).toEqual(["node-pipe 0.31x of C's read_cost (implausibly better than the reference)"]);
  });

  it('does not headline a slope from a loose fit', () => {
    const spec = Overview.parse({
      x: 'n',
      metric: 'wall_time',
      slope: true,
      unitName: 'transform',
      answer: { kind: 'slope' },
    });
    const line = (variant: string, ys: number[]) =>
      [0, 10, 20, 40].map((n, i) => point(variant, { n }, 'wall_time', ys[i]!, 's'));
    const m = overviewModel(spec, { n: {} }, [
      ...line('core', [0.1, 0.11, 0.12, 0.14]),
      ...line('through2', [0.1, 0.3, 0.05, 0.2]),
    ])!;
    expect(m.answer).toBe('Each added transform costs 1.00 ms (core).');
    expect(m.suspects).toEqual([expect.stringMatching(/^through2's fit is too loose to say \(R² 0\.\d\d\)$/)]);
  });

  it('fits a slope per line and per panel (streams)', () => {
    const spec = Overview.parse({
      x: 'n',
      metric: 'wall_time',
      panels: 'mode',
      slope: true,
      unitName: 'transform',
      answer: { kind: 'slope' },
    });
    const pts = ['sync', 'async'].flatMap((mode) =>
      [0, 10, 100].flatMap((n) => [
        point('core', { n, mode }, 'wall_time', 0.05 + n * (mode === 'sync' ? 0.0004 : 0.0009), 's'),
        point('web', { n, mode }, 'wall_time', 0.05 + n * 0.002, 's'),
      ]),
    );
    const m = overviewModel(spec, {}, pts)!;
    expect(m.panels.map((p) => p.title)).toEqual(['async', 'sync']);
    expect(m.panels[1]!.lines.find((l) => l.label === 'core')!.slope!.value).toBeCloseTo(0.0004, 8);
    expect(m.answer).toBe(
      'Async: each added transform costs 900.0 µs (core) to 2.00 ms (web), 2.22x; sync: each added transform costs 400.0 µs (core) to 2.00 ms (web), 5.00x.',
    );
  });

  it('compares pairs (scan) and scaling (threadpool), a variant without x drawn flat', () => {
    const scan = Overview.parse({
      x: 'files',
      metric: 'wall_time',
      answer: { kind: 'pairs', pairs: [['c-blocking', 'c-eventloop']] },
    });
    const s = overviewModel(scan, { files: { unit: 'files' } }, [
      point('c-blocking', { files: 1500 }, 'wall_time', 0.132, 's'),
      point('c-eventloop', { files: 1500 }, 'wall_time', 0.033, 's'),
    ])!;
    expect(s.answer).toBe('At 1500 files, wall_time: c-eventloop 0.25x of c-blocking.');
    const tp = Overview.parse({ x: 'pool', metric: 'latency_p50', also: ['latency_p99'], answer: { kind: 'scaling' } });
    const pts = [1, 4].flatMap((pool) => [
      point('c-pool', { pool }, 'latency_p50', 12 / pool, 'ms'),
      point('c-pool', { pool }, 'latency_p99', 20 / pool, 'ms'),
    ]);
    pts.push(point('bun', {}, 'latency_p50', 2.5, 'ms'));
    const t = overviewModel(tp, { pool: { unit: 'threads' } }, pts)!;
    expect(t.panels[0]!.lines.map((l) => [l.label, l.flat, l.dashed])).toEqual([
      ['bun', true, false],
      ['c-pool', false, false],
      ['c-pool latency_p99', false, true],
    ]);
    expect(t.answer).toBe('From 1 thread to 4 threads, latency_p50 changes 0.25x (c-pool).');
  });

  it('is undefined when the run has none of its metrics', () => {
    expect(overviewModel(wc, {}, [point('c', { bs: 1 }, 'other', 1)])).toBeUndefined();
  });
});

describe('medianInterval', () => {
  it('takes the order statistics of a 95% binomial interval, the range below 6 samples', () => {
    expect(medianInterval([3, 1, 2])).toEqual({ low: 1, high: 3, exact: false });
    const xs = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(medianInterval(xs)).toEqual({ low: 6, high: 15, exact: true });
    expect(medianInterval([])).toBeUndefined();
  });
});
