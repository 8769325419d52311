// compare over results files: rounds merged, one-sided and unmeasured benchmarks listed,
// comparison.md as a reviewer reads it, and the comment size limit.
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/compare/quick-look.js';
import { renderComparison } from '../../src/compare/render-quick-look.js';
import { Comparison } from '../../src/formats/quick-look-format.js';
import { bench, counter, results, timed } from '../helpers/results.js';

// Within ±1%: identical builds whose intervals lie inside the 2% margin ("unchanged").
const spread = (c: number) => [0.99, 0.995, 1, 1.005, 1.01].map((f) => c * f);

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

  it('judges a quantity once: a second measure of it (sameQuantityAs in the catalogue) gets no verdict', () => {
    const rss = (sha: string, mb: number) =>
      results(
        [bench('c', { bs: 65536 }, { wall_time: timed(spread(0.05)), pipeline_max_rss: timed(spread(mb), 'B') })],
        sha,
      );
    const twice = compareRuns([rss('b'.repeat(40), 2e6)], [rss('h'.repeat(40), 4e6)]);
    expect(twice.metrics.map((m) => m.metric)).toEqual(['wall_time']);
  });

  it('compares a point whose program changed, marks it, and leads the comment with it', () => {
    const b2 = [round('b'.repeat(40), {})].map((r) => ({
      ...r,
      benchmarks: r.benchmarks.map((x) => ({ ...x, definition: 'old' })),
    }));
    const h2 = [round('h'.repeat(40), { node: 1.3 })].map((r) => ({
      ...r,
      benchmarks: r.benchmarks.map((x) => ({ ...x, definition: 'new' })),
    }));
    const changed = compareRuns(b2, h2);
    expect(changed.metrics.find((m) => m.variant === 'node-stream' && m.metric === 'wall_time')).toMatchObject({
      verdict: 'slower',
      changed: true,
    });
    const md = renderComparison(changed);
    expect(md.split('\n')[0]).toMatch(
      /^## Performance: 1 slower, 0 faster, 1 unchanged; 2 benchmarks changed in this PR$/,
    );
    expect(md.indexOf('### Changed in this PR')).toBeGreaterThan(0);
    expect(md).not.toContain('### wc'); // every point changed: none is listed twice
    expect(md).toContain('🔴 slower (program changed in this PR)');
  });

  it('lists a point whose workload changed as not comparable, naming what changed, and refuses other profiles', () => {
    const b2 = [round('b'.repeat(40), {})].map((r) => ({
      ...r,
      benchmarks: r.benchmarks.map((x) => ({ ...x, workload: 'w1', derived: { bytes: 4194304 } })),
    }));
    const h2 = [round('h'.repeat(40), {})].map((r) => ({
      ...r,
      benchmarks: r.benchmarks.map((x) => ({ ...x, workload: 'w2', derived: { bytes: 67108864 } })),
    }));
    const c2 = compareRuns(b2, h2);
    expect(c2.metrics).toEqual([]);
    expect(c2.incomparable?.[0]).toMatchObject({ metric: '*', reason: 'workload changed: bytes 4194304 → 67108864' });
    const md = renderComparison(c2);
    expect(md.split('\n')[0]).toMatch(/; 2 not comparable$/);
    expect(md).toMatch(/\*\*Not comparable\*\* \(2\):\n\n- `wc\/[^`]+`: workload changed: bytes 4194304 → 67108864/);
    const other = h2.map((r) => ({ ...r, run: { ...r.run, profile: 'standard' } }));
    expect(() => compareRuns(b2, other)).toThrow(
      /base and head ran different workloads: profile smoke vs standard \(e\.g\. wc\/.*: bytes 4194304 → 67108864\)/,
    );
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
    expect(md).toMatch(/more rows \(see comparison\.json\)/);
  });
});

describe('compareRuns with too few samples', () => {
  // One run a side of three samples each: +137%, samples apart, and still no test can call it.
  const one = (sha: string, t: number) =>
    results([bench('c', { bs: 65536 }, { wall_time: timed([t * 0.99, t, t * 1.01]) })], sha);
  const c = compareRuns([one('b'.repeat(40), 0.03)], [one('h'.repeat(40), 0.071)]);

  it('says too few samples to call, never unchanged, with its interval', () => {
    const [m] = c.metrics;
    expect(m?.verdict).toBe('untestable');
    expect(m?.ci[0]).toBeGreaterThan(2);
    const md = renderComparison(c);
    expect(md).toContain('## Performance: 0 slower, 0 faster, 0 unchanged, 1 too few samples to call');
    expect(md).not.toContain('No significant regression');
    expect(md).toMatch(/\| too few samples to call \|/);
  });
});
