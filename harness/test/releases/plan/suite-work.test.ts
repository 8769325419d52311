// A release's counted work: every suite point bench counted, per run and per operation (a fit),
// with what its count was; points it could not count are left out, and the runtime parameter is
// the release's, not the point's.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Benchmark, Results } from '../../../src/model/results.js';
import { loadExperiment } from '../../../src/plan/experiments.js';
import { hasSuite, type SuiteExperiment, suiteWork } from '../../../src/releases/plan/suite-plan.js';
import { ROOT } from '../../helpers/cli.js';
import { bench, results } from '../../helpers/results.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
if (!hasSuite(wc)) throw new Error('wc has no release suite');
const suite: SuiteExperiment = wc;

const work = (value: number) => ({
  unit: 'instructions',
  direction: 'smaller' as const,
  value,
  deterministic: false,
  source: 'valgrind',
});

function counted(variant: string, params: Record<string, number | string>, perOp?: number): Benchmark {
  return bench(
    variant,
    params,
    { instructions: work(1e8), ...(perOp !== undefined ? { instructions_per_op: work(perOp) } : {}) },
    {
      counts: {
        status: 'ok',
        settings: 'V8 made predictable',
        role: 'decides',
        spread: 0.01,
        tolerance: 0.005,
        repeats: 1,
        deterministic: false,
      },
    },
  );
}

describe('suiteWork', () => {
  it('keeps each counted point with its facts, the reference marked', () => {
    const r: Results = results([
      counted('readsync', { bs: 65536, runtime: 'node@22.4.1' }, 4814.9),
      counted('c', { bs: 65536 }, 17.1),
      bench('readsync', { bs: 4096, runtime: 'node@22.4.1' }, {}),
      bench('c', { bs: 4096 }, {}, { counts: { status: 'unavailable', reason: 'valgrind is not installed' } }),
    ]);
    expect(suiteWork(suite, r)).toEqual([
      {
        experiment: 'wc',
        variant: 'readsync',
        params: { bs: 65536 },
        reference: false,
        instructions: 1e8,
        instructionsPerOp: 4814.9,
        role: 'decides',
        deterministic: false,
        settings: 'V8 made predictable',
      },
      expect.objectContaining({ variant: 'c', reference: true, instructionsPerOp: 17.1 }),
    ]);
  });

  it('gives a point without a fit its count per run only', () => {
    const [p] = suiteWork(suite, results([counted('readsync', { bs: 65536, runtime: 'node@22.4.1' })]));
    expect(p!.instructions).toBe(1e8);
    expect(p!).not.toHaveProperty('instructionsPerOp');
  });
});
