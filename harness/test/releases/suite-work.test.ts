// A release's counted work, from a bench run: each counted suite point keeps the runs Valgrind
// counted (as bench handed them back) with the settings and role of its counts, or why it was not
// counted; its instructions metrics become suite values beside the timed ones, C's as reference.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CountedRun } from '../../src/counts/count-rule.js';
import type { Counts, Metric } from '../../src/formats/results-format.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { hasSuite, type SuiteExperiment, suiteWork } from '../../src/releases/suite-plan.js';
import { ROOT } from '../helpers/cli.js';
import { bench, results, timed } from '../helpers/results.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
if (!hasSuite(wc)) throw new Error('wc has no release suite');
const suite: SuiteExperiment = wc;

const work = (value: number): Metric => ({
  unit: 'instructions',
  direction: 'smaller',
  value,
  deterministic: false,
  source: 'valgrind',
});
const ok = (role: 'decides' | 'evidence' = 'decides'): Counts => ({
  status: 'ok',
  settings: 'V8 made predictable (--predictable)',
  role,
  spread: 0,
  tolerance: 0.005,
  repeats: 2,
  deterministic: true,
});
const runs: CountedRun[] = [
  { size: 'small', instructions: 40_000_000, x: 2048 },
  { size: 'own', instructions: 200_000_000, x: 16384 },
  { size: 'own', instructions: 200_000_010, x: 16384 },
];

const run = results([
  bench(
    'readsync',
    { bs: 4096, runtime: 'node@20.3.0' },
    { read_cost: timed([3000, 3100]), instructions: work(200_000_005), instructions_per_op: work(11_161) },
    { counts: ok() },
  ),
  bench('c', { bs: 4096 }, { read_cost: timed([2800]), instructions: work(300_000) }, { counts: ok() }),
  bench(
    'readsync',
    { bs: 65536, runtime: 'node@20.3.0' },
    { read_cost: timed([20_000]) },
    { counts: { status: 'unavailable', reason: 'counts unavailable: the run under valgrind timed out' } },
  ),
  // Not counted at all (--counts none): no work point.
  bench('c', { bs: 65536 }, { read_cost: timed([17_000]) }),
]);

describe('suiteWork', () => {
  const counted = new Map([
    ['wc/readsync/bs=4096,runtime=node@20.3.0', runs],
    ['wc/c/bs=4096', runs.slice(1).map((r) => ({ ...r, instructions: 300_000 }))],
  ]);
  const got = suiteWork(suite, run, counted);

  it('keeps every counted run of a point, without the runtime parameter, and why a point was not counted', () => {
    expect(got.work).toEqual([
      {
        experiment: 'wc',
        variant: 'readsync',
        params: { bs: 4096 },
        reference: false,
        counts: { status: 'ok', settings: 'V8 made predictable (--predictable)', role: 'decides', runs },
      },
      expect.objectContaining({ variant: 'c', params: { bs: 4096 }, reference: true }),
      {
        experiment: 'wc',
        variant: 'readsync',
        params: { bs: 65536 },
        reference: false,
        counts: { status: 'unavailable', reason: 'counts unavailable: the run under valgrind timed out' },
      },
    ]);
  });

  it('gives the instructions metrics as values, without an interval', () => {
    expect(got.values.map((v) => [v.variant, v.params.bs, v.metric, v.value, v.reference, v.interval])).toEqual([
      ['readsync', 4096, 'instructions', 200_000_005, false, undefined],
      ['readsync', 4096, 'instructions_per_op', 11_161, false, undefined],
      ['c', 4096, 'instructions', 300_000, true, undefined],
    ]);
  });

  it('says so when bench counted a point but did not hand its runs back', () => {
    const lost = suiteWork(suite, run, new Map());
    expect(lost.work[0]!.counts).toEqual({ status: 'unavailable', reason: 'its counted runs were not handed back' });
  });
});
