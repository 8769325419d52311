// compare over results files: rounds merged, one-sided and unmeasured benchmarks listed,
// comparison.md as a reviewer reads it, and the comment size limit.
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../src/compare/compare.js';
import { renderComparison } from '../src/compare/render.js';
import { Comparison } from '../src/model/comparison.js';
import { bench, counter, results, timed } from './helpers/results.js';

const spread = (c: number) => [0.97, 0.99, 1, 1.01, 1.03].map((f) => c * f);

function round(sha: string, scale: Record<string, number>, extra: ReturnType<typeof bench>[] = []) {
  return results(
    [
      bench('c', { bs: 65536 }, { wall_time: timed(spread(0.05 * (scale.c ?? 1))), reads: counter(1024) }),
      bench(
        'node-stream',
        { bs: 65536, runtime: 'node22' },
        { wall_time: timed(spread(0.1 * (scale.node ?? 1))), reads: counter(scale.reads ?? 1024) },
      ),
      ...extra,
    ],
    sha,
  );
}

describe('compareRuns', () => {
  const base = [
    round('b'.repeat(40), {}, [bench('bun', { bs: 65536 }, { wall_time: timed(spread(0.02)) })]),
    round('b'.repeat(40), {}),
  ];
  const head = [
    round('h'.repeat(40), { node: 1.3, reads: 2048 }, [
      bench('deno', { bs: 65536 }, {}, { status: 'failed', reason: 'wrong result: bytes = 1, expected 2' }),
    ]),
    round('h'.repeat(40), { node: 1.3, reads: 2048 }),
  ];
  const c = compareRuns(base, head);

  it('pools the samples of all rounds', () => {
    expect(c.metrics.find((m) => m.variant === 'c')?.base.n).toBe(10);
  });

  it('finds the regression and keeps the unchanged', () => {
    expect(c.metrics.map((m) => [m.variant, m.verdict])).toEqual([
      ['c', 'unchanged'],
      ['node-stream', 'slower'],
    ]);
  });

  it('compares counters exactly', () => {
    expect(c.counters).toEqual([
      { benchmark: 'wc/node-stream/bs=65536,runtime=node22', metric: 'reads', unit: 'calls', base: 1024, head: 2048 },
    ]);
  });

  it('lists one-sided and failed benchmarks', () => {
    expect(c.removed).toEqual([{ benchmark: 'wc/bun/bs=65536', side: 'base' }]);
    expect(c.notMeasured).toEqual([
      { benchmark: 'wc/deno/bs=65536', side: 'head', status: 'failed', reason: 'wrong result: bytes = 1, expected 2' },
    ]);
    expect(Comparison.parse(c)).toBeTruthy();
  });

  it('does not compare across a change of definition', () => {
    const b2 = [round('b'.repeat(40), {})].map((r) => ({
      ...r,
      benchmarks: r.benchmarks.map((x) => ({ ...x, definition: 'old' })),
    }));
    const h2 = [round('h'.repeat(40), { node: 1.3 })].map((r) => ({
      ...r,
      benchmarks: r.benchmarks.map((x) => ({ ...x, definition: 'new' })),
    }));
    const node = compareRuns(b2, h2).metrics.find((m) => m.variant === 'node-stream');
    expect(node).toMatchObject({
      verdict: 'unchanged',
      redefined: true,
      note: 'benchmark definition changed: not compared',
    });
  });

  it('renders the headline, significant rows first, unchanged folded, sides at the bottom', () => {
    const md = renderComparison(c);
    expect(md.split('\n')[0]).toBe('## Performance: 1 slower, 0 faster, 1 unchanged');
    expect(md).toMatch(/Worst regression: \*\*wc\/node-stream\/bs=65536,runtime=node22\*\* wall_time \+30\.0%/);
    expect(md.indexOf('node-stream bs=65536 runtime=node22')).toBeLessThan(
      md.indexOf('<details><summary>1 unchanged</summary>'),
    );
    expect(md).toContain('reads 1,024→2,048');
    expect(md).toContain('**Only in base (removed)** (1):');
    expect(md).toMatch(/`wc\/deno\/bs=65536` \(head, failed\): wrong result/);
    expect(md).toMatch(/base `b{40}` \(2 rounds\), head `h{40}` \(2 rounds\)/);
  });

  it('stays under the comment limit with thousands of benchmarks', () => {
    const many = (sha: string, f: number) =>
      results(
        Array.from({ length: 3000 }, (_, i) =>
          bench(`variant-${i}`, { bs: i }, { wall_time: timed(spread(0.01 * (i % 2 ? f : 1))) }),
        ),
        sha,
      );
    const big = compareRuns([many('b'.repeat(40), 1)], [many('h'.repeat(40), 1.5)]);
    const md = renderComparison(big);
    expect(md.length).toBeLessThanOrEqual(65_000);
    expect(md).toContain('## Performance: 1500 slower, 0 faster, 1500 unchanged');
    expect(md).toMatch(/more significant changes \(see comparison\.json\)/);
  });
});
