// The metric a harness-shift point is judged on: one for all its rounds, positive on both sides.
import { describe, expect, it } from 'vitest';
import {
  benchmarkProblem,
  commonLead,
  leadCandidates,
  type RoundPair,
} from '../../../src/pairs/harness-shift/lead-value.js';
import { bench, counter, timed } from '../../helpers/results.js';

const fit = { cost: 'read_cost', scales: [0.125] } as unknown as NonNullable<
  Parameters<typeof leadCandidates>[0]['fit']
>;
const manifest = { fit, headline: { at: {}, metrics: ['read_cost', 'startup'] } };
const pair = (round: number, baseCost: number, headCost: number): RoundPair => ({
  round,
  base: bench('c', { bs: 4096 }, { read_cost: timed([baseCost]), wall_time: timed([0.1]) }),
  head: bench('c', { bs: 4096 }, { read_cost: timed([headCost]), wall_time: timed([0.1]) }),
});

describe('lead metric', () => {
  it("puts the fit's cost first, then the headline metrics, then wall time, each once", () => {
    expect(leadCandidates(manifest)).toEqual(['read_cost', 'startup', 'wall_time']);
    expect(leadCandidates({ headline: { at: {}, metrics: [] } } as never)).toEqual(['wall_time']);
  });

  it('takes the first metric positive on both sides in every round', () => {
    expect(commonLead(leadCandidates(manifest), [pair(0, 5, 6), pair(1, 5, 5)])).toBe('read_cost');
    // A fit slope at or below zero in one round: the whole point falls back to wall time.
    expect(commonLead(leadCandidates(manifest), [pair(0, 5, 6), pair(1, -1, 5)])).toBe('wall_time');
  });

  it('never judges on a counter', () => {
    const withRss = { ...manifest, headline: { at: {}, metrics: ['max_rss'] } };
    const round = (): RoundPair => ({
      round: 0,
      base: bench('c', {}, { max_rss: counter(4096, 'KiB'), wall_time: timed([0.1]) }),
      head: bench('c', {}, { max_rss: counter(4100, 'KiB'), wall_time: timed([0.1]) }),
    });
    expect(commonLead(leadCandidates(withRss), [round()])).toBe('wall_time');
  });

  it('names why a results file gives a point no value', () => {
    expect(benchmarkProblem(undefined)).toBe('not in the results file');
    expect(benchmarkProblem(bench('c', {}, {}, { status: 'skipped', reason: 'just is not installed' }))).toBe(
      'skipped: just is not installed',
    );
    expect(benchmarkProblem(bench('c', {}, {}))).toBeUndefined();
  });
});
