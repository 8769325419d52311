// docs/counts.md, "not measurable at this span": two counted totals whose difference is negative,
// or within their repeats' spread, are no cost per operation. Checked where a count per read is
// shown: the run's JSON (no instructions_per_op, both totals kept), the run's summary, the paired
// diff's side values and its PR comment (the two totals, never a negative count per read). The
// site's Overview is counts/count-lines.test.ts; its trend, store/counted-work.test.ts.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countResult, withCountResult } from '../../src/counts/count-jobs.js';
import type { CountedRun } from '../../src/counts/count-rule.js';
import type { PairsPoint } from '../../src/formats/pairs-format.js';
import { Results as ResultsSchema } from '../../src/formats/results-format.js';
import { renderPairsComparison } from '../../src/pairs/comment/comment.js';
import { sideValues } from '../../src/pairs/engine/count-sides.js';
import { loadAllExperiments } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { renderSummary } from '../../src/report/summary.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf } from '../helpers/jobs.js';
import { pairsComparison, pairsPoint } from '../helpers/pairs.js';
import { wcResults } from '../helpers/results.js';

const experiments = loadAllExperiments(join(ROOT, 'programs'));
const wc = experiments.find((e) => e.id === 'wc')!;
const job = jobOf(
  expand([wc], 'smoke', { variants: ['node-stream'], params: { bs: [65536], runtime: ['node22'] } })[0]!,
);
// The two counted sizes of a fit, 256 and 1,024 reads: the smaller once, the larger twice.
const runsOf = (small: number, large: [number, number]): CountedRun[] => [
  { size: 'small', instructions: small, x: 256 },
  { size: 'large', instructions: large[0], x: 1024 },
  { size: 'large', instructions: large[1], x: 1024 },
];
const NEGATIVE = runsOf(314_800_000, [151_896_500, 151_896_600]);
const WITHIN = runsOf(100_150_000, [100_300_000, 100_100_000]);
// Any count per read said with a minus sign (ASCII or typographic), or a negative number in JSON.
const NEGATIVE_PER_READ = /[-−]\s?[\d,.]+\s*instructions? per read|"instructions_per_op":\{[^}]*"value":-/;

describe('a count per read that is not measurable at this span', () => {
  it('is a fit point of Node 22, counted at two sizes', () => {
    expect(job.counting?.sizes?.length).toBe(2);
    expect(wc.manifest.fit?.x).toBe('reads');
  });

  for (const [name, runs, why] of [
    ['a negative difference', NEGATIVE, 'negative'],
    ['a difference within the repeats’ spread', WITHIN, 'within-spread'],
  ] as const) {
    it(`${name}: the run's JSON keeps the two totals and no count per read`, () => {
      const w = countResult(job, [...runs], 1);
      expect(w.metrics.instructions_per_op).toBeUndefined();
      expect(w.counts).toMatchObject({
        status: 'ok',
        unmeasurable: { why, small: { ops: 256, instructions: runs[0]!.instructions }, large: { ops: 1024 } },
      });
      const results = wcResults('a'.repeat(40));
      const i = results.benchmarks.findIndex((b) => b.variant === 'node-stream');
      results.benchmarks[i] = withCountResult(
        { ...results.benchmarks[i]!, metrics: { wall_time: results.benchmarks[i]!.metrics.wall_time! } },
        w,
      );
      const json = JSON.stringify(ResultsSchema.parse(results));
      expect(json).toContain('"unmeasurable"');
      expect(json).not.toContain('instructions_per_op');
      // The summary shows no count per read for it.
      const summary = renderSummary(results, [wc]);
      expect(summary).not.toMatch(NEGATIVE_PER_READ);
      expect(summary).not.toMatch(/instructions per read/);
    });

    it(`${name}: the paired diff's side has no values, and the PR comment says the two totals`, () => {
      const side = sideValues(job, runs);
      expect(side.ok).toBe(false);
      const reason = side.ok ? '' : side.reason;
      expect(reason).toMatch(
        /^instructions per read not measurable at this span: [\d,]+ instructions at 256 reads and /,
      );
      const point = pairsPoint({ work: { status: 'not-counted', reason: `head: ${reason}` } } as Partial<PairsPoint>);
      const comment = renderPairsComparison(pairsComparison([point]));
      expect(comment).toContain('work not counted: head: instructions per read not measurable at this span');
      expect(comment).toContain(`${runs[0]!.instructions.toLocaleString('en-US')} instructions at 256 reads`);
      expect(comment).not.toMatch(NEGATIVE_PER_READ);
    });
  }

  it('a measurable span still gives a count per read, on each side', () => {
    const side = sideValues(job, runsOf(100_000_000, [107_680_000, 107_680_000]));
    expect(side).toEqual({ ok: true, values: [10_000, 10_000] });
  });
});
