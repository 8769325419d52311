// A harness shift's candidates: a cold-cache point (its cache emptied before every run) only when
// its experiment has too few others, and candidate rounds only where there is something to choose.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CANDIDATE_ROUNDS,
  candidateRounds,
  evictsBeforeEveryRun,
} from '../../../src/pairs/harness-shift/measure-harness-shift.js';
import { drawSample, oneOfEachFirst } from '../../../src/pairs/harness-shift/sample.js';
import { loadExperiment } from '../../../src/plan/experiments.js';
import { expand } from '../../../src/plan/plan.js';
import { ROOT } from '../../helpers/cli.js';

describe('evictsBeforeEveryRun', () => {
  it("reads the manifest's evict rule: scan's cold points evict, its warm ones and wc's do not", async () => {
    const scan = loadExperiment(join(ROOT, 'programs', 'scan'));
    const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
    const points = expand([scan, wc], 'quick', {});
    const cold = points.filter(evictsBeforeEveryRun);
    expect(cold.length).toBeGreaterThan(0);
    expect(cold.every((p) => p.experiment.id === 'scan' && p.params.cache === 'cold')).toBe(true);
    expect(points.filter((p) => p.params.cache === 'cold').length).toBe(cold.length);
    // Three candidates per experiment, none cold while warm ones are there.
    const sample = await drawSample(points, 1, 3, undefined, { last: evictsBeforeEveryRun });
    expect(sample.filter((p) => p.experiment.id === 'scan')).toHaveLength(3);
    expect(sample.some(evictsBeforeEveryRun)).toBe(false);
  });
});

describe('candidateRounds', () => {
  const p = (experiment: string, variant: string) => ({
    id: `${experiment}/${variant}`,
    experiment: { id: experiment },
    variant: { id: variant },
    params: {},
  });
  it('measures every candidate CANDIDATE_ROUNDS rounds when an experiment has more than it keeps, else one', () => {
    const three = [p('wc', 'a'), p('wc', 'b'), p('wc', 'c'), p('scan', 'a')];
    expect(candidateRounds(three, 1, 40)).toBe(CANDIDATE_ROUNDS);
    expect(candidateRounds(three, 3, 40)).toBe(1);
    expect(candidateRounds([p('wc', 'a'), p('scan', 'a')], 1, 40)).toBe(1);
    // Never more than the rounds.
    expect(candidateRounds(three, 1, 2)).toBe(2);
  });
});

describe('oneOfEachFirst', () => {
  it('puts one point of each program (experiment, variant, runtime) before any second one, in order', () => {
    const p = (experiment: string, variant: string, runtime: string, id: string) => ({
      id,
      experiment: { id: experiment },
      variant: { id: variant },
      runtime,
    });
    const points = [
      p('wc', 'c', 'gcc', 'c1'),
      p('wc', 'c', 'gcc', 'c2'),
      p('wc', 'c', 'gcc', 'c3'),
      p('wc', 'node', 'node20', 'n20'),
      p('wc', 'node', 'node22', 'n22a'),
      p('wc', 'node', 'node22', 'n22b'),
      p('records', 'c', 'gcc', 'r1'),
    ];
    expect(oneOfEachFirst(points).map((x) => x.id)).toEqual(['c1', 'n20', 'n22a', 'r1', 'c2', 'n22b', 'c3']);
  });
});
