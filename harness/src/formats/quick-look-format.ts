/**
 * comparison.json of `npm run compare`: the quick look between stored runs (results files, pooled
 * samples; the site's run-to-run view renders the same model). Schema 4 says `"kind": "quick-look"`;
 * schema 1, which did not, is read as it is (formats/comparison-format.ts).
 */
import { z } from 'zod';
import { DIRECTIONS } from '../model/metrics.js';
import { TWO_SAMPLE_VERDICTS } from '../model/verdicts.js';
import { COMPARISON_OLDEST, COMPARISON_SCHEMA, type ComparisonKind } from './comparison-format.js';
import { COMPARISON_LISTS, COUNTER_SIDES, ComparisonSide, Params, short } from './parts/comparison-parts.js';
import { Num } from './parts/fields.js';

export const ComparedMetric = z
  .object({
    benchmark: short(300),
    experiment: short(100),
    variant: short(100),
    params: Params,
    metric: short(100),
    unit: short(20),
    direction: z.enum(DIRECTIONS),
    base: z.object({ median: Num, n: z.number().int().min(1) }).strict(),
    head: z.object({ median: Num, n: z.number().int().min(1) }).strict(),
    ratio: Num,
    ci: z.tuple([Num, Num]),
    p: Num,
    verdict: z.enum(TWO_SAMPLE_VERDICTS),
    note: short(200).optional(),
    /** The program (source, build, runtime version) changed in head: compared, and marked. */
    changed: z.boolean().optional(),
  })
  .strict();
export type ComparedMetric = z.infer<typeof ComparedMetric>;

/**
 * A counter whose values differ between base and head. base/head are the medians over the
 * rounds; when a side's rounds disagree among themselves its [min, max] is given too (such a
 * counter is only reported when the two ranges do not overlap).
 */
export const CounterChange = z.object({ benchmark: short(300), ...COUNTER_SIDES }).strict();
export type CounterChange = z.infer<typeof CounterChange>;

export const Comparison = z
  .object({
    schema: z.union([z.literal(COMPARISON_OLDEST), z.literal(COMPARISON_SCHEMA)]),
    /** Which document this is; absent from schema 1, which its number told apart (formats/comparison-format.ts). */
    kind: z.literal('quick-look' satisfies ComparisonKind).optional(),
    method: short(500),
    base: ComparisonSide,
    head: ComparisonSide,
    metrics: z.array(ComparedMetric).max(20_000),
    counters: z.array(CounterChange).max(50_000),
    ...COMPARISON_LISTS,
  })
  .strict();
export type Comparison = z.infer<typeof Comparison>;
