// summary.answers: an experiment's questions answered per scenario and variant from the run,
// "lower"/"higher" only when compare's test on the samples says so.
import { describe, expect, it } from 'vitest';
import { answerScenarios, smallestTwoSidedP } from '../../src/report/answers.js';
import { answerLines } from '../../src/report/summary.js';
import { bench, timed } from '../helpers/results.js';

const ms = (center: number, spread = 0.02) =>
  timed(
    [1, 1.01, 0.99, 1.02, 0.98, 1.005, 0.995].map((f) => center * (1 + (f - 1) * spread * 50)),
    'ms',
  );
const row = (variant: string, params: Record<string, number | string>, p50: number, spread?: number) =>
  bench(variant, params, { latency_p50: ms(p50, spread) });

const rows = [
  row('c-pool', { work: 'read', pool: 4 }, 10),
  row('c-pool', { work: 'read', pool: 12 }, 5),
  row('c-pool', { work: 'parse', pool: 4 }, 30),
  row('c-pool', { work: 'parse', pool: 12 }, 31, 0.3),
  row('node-promises', { work: 'read', pool: 4, runtime: 'node22' }, 20),
  row('node-promises', { work: 'read', pool: 12, runtime: 'node22' }, 26),
  row('bun', { work: 'read' }, 7),
  row('bun', { work: 'parse' }, 21),
];

describe('answers', () => {
  const pool = {
    question: 'Does latency improve beyond 4 threads?',
    metric: 'latency_p50',
    base: { pool: 4 },
    head: { pool: 12 },
  };
  const parse = {
    question: 'Is parsing the bottleneck?',
    metric: 'latency_p50',
    base: { work: 'read' },
    head: { work: 'parse' },
  };

  it('compares each benchmark with itself at other parameter values, significant or not', () => {
    expect(answerScenarios(pool, rows)).toEqual([
      {
        scenario: 'work read',
        items: [
          { variant: 'c-pool', ratio: 0.5, finding: 'lower' },
          { variant: 'node-promises (node22)', ratio: 1.3, finding: 'higher' },
        ],
      },
      { scenario: 'work parse', items: [{ variant: 'c-pool', ratio: expect.closeTo(31 / 30, 6), finding: 'same' }] },
    ]);
  });

  it('answers for a variant without the swept parameter where it has both points, labelled n/a', () => {
    const s = answerScenarios(parse, rows);
    expect(s.map((x) => x.scenario)).toEqual(['pool 4', 'pool 12', 'pool n/a']);
    expect(s.at(-1)?.items).toEqual([{ variant: 'bun', ratio: 3, finding: 'higher' }]);
  });

  it('renders one line per scenario in summary.md, and says when nothing was measured', () => {
    expect(answerLines(pool, rows).join('\n')).toBe(
      [
        '**Does latency improve beyond 4 threads?** latency_p50, pool 12 vs pool 4:',
        '',
        '- work read: c-pool 0.50x (lower); node-promises (node22) 1.30x (higher)',
        '- work parse: c-pool 1.03x (no significant difference)',
        '',
      ].join('\n'),
    );
    expect(answerLines(pool, rows.slice(0, 1))).toContain('No pair of points measured for it in this run.');
  });

  it('says when there are too few samples for any difference to be significant', () => {
    expect(smallestTwoSidedP(2, 2)).toBeCloseTo(1 / 3, 10);
    expect(smallestTwoSidedP(3, 3)).toBeCloseTo(0.1, 10);
    expect(smallestTwoSidedP(4, 4)).toBeCloseTo(2 / 70, 10);
    const two = (variant: string, pool: number, v: number) =>
      bench(variant, { pool }, { latency_p50: timed([v, v * 1.01], 'ms') });
    expect(answerScenarios(pool, [two('c', 4, 10), two('c', 12, 1)])[0]?.items[0]).toEqual({
      variant: 'c',
      ratio: expect.closeTo(0.1, 6),
      finding: 'untestable',
    });
    expect(answerLines(pool, [two('c', 4, 10), two('c', 12, 1)]).join('\n')).toContain(
      'c 0.10x (too few samples to test)',
    );
  });
});
