// A release change is judged by its pairs on its own metric only: a wc start-up change was
// "confirmed" on the cost per read (the pairs' lead), which says nothing of start-up. Where the
// pairs have no interval for the metric, the change is "not confirmable by pairs", with why.
import { describe, expect, it } from 'vitest';
import type { PairsMetric } from '../../src/formats/pairs-format.js';
import type { Candidate } from '../../src/releases/judge/changes.js';
import { judgeInPairs } from '../../src/releases/sweeps/confirm-in-pairs.js';
import { changeText } from '../../src/releases/sweeps/find-changes.js';

const metric = (m: string, over: Partial<PairsMetric> = {}): PairsMetric => ({
  metric: m,
  unit: 'ns',
  direction: 'smaller',
  baseMedian: 1,
  headMedian: 1.2,
  ratio: 1.2,
  ci: [1.1, 1.3],
  confidence: 0.95,
  p: 0.001,
  verdict: 'slower',
  ...over,
});

const candidate = (m: string, direction: 'smaller' | 'bigger', ratio: number): Candidate => ({
  series: {
    family: 'node',
    line: 'node22',
    experiment: 'wc',
    variant: 'readsync',
    params: { bs: 4096 },
    metric: m,
    unit: 's',
    direction,
    points: [],
  },
  from: '22.7.0',
  to: '22.8.0',
  ratio,
  before: 1,
  after: ratio,
});

describe('judgeInPairs', () => {
  it('calls a start-up change not confirmable when the pairs measured start-up without an interval', () => {
    const { ci: _none, ...startup } = metric('startup', { verdict: 'inconclusive' });
    const c = candidate('startup', 'smaller', 0.76);
    const out = judgeInPairs(c, { pairs: 10, lead: metric('read_cost'), folded: [startup] });
    expect(out).toEqual({
      unconfirmable: 'the pairs measured this metric without an interval (they judge another one)',
    });
    expect(changeText(c, out)).toBe(
      'node 22.7.0 → 22.8.0: wc readsync bs 4096 startup -24% (not confirmable by pairs: the pairs measured this metric without an interval (they judge another one))',
    );
  });

  it('judges a folded metric that has its interval on that metric', () => {
    const c = candidate('startup', 'smaller', 1.2);
    const out = judgeInPairs(c, {
      pairs: 12,
      lead: metric('read_cost', { verdict: 'unchanged' }),
      folded: [metric('startup')],
    });
    expect(out).toMatchObject({ pairs: 12, confirmed: true, verdict: 'slower on startup at 95% confidence' });
  });

  it('turns a bigger-is-better change into its own direction', () => {
    const c = candidate('io_throughput', 'bigger', 0.8);
    const out = judgeInPairs(c, {
      pairs: 8,
      lead: metric('io_throughput', { ratio: 1.25, ci: [1.2, 1.3] }),
      folded: [],
    });
    expect(out).toMatchObject({ confirmed: true });
    expect('change' in out && out.change).toBeCloseTo(-0.2, 10);
    expect('ci' in out && out.ci.map((x) => Number(x.toFixed(4)))).toEqual([-0.2308, -0.1667]);
  });

  it('never judges a counter on the lead', () => {
    const out = judgeInPairs(candidate('max_rss', 'smaller', 1.3), { pairs: 8, lead: metric('read_cost'), folded: [] });
    expect(out).toEqual({ unconfirmable: 'a counter is not a sampled metric of the pairs' });
  });
});
