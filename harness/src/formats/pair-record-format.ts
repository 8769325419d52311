/**
 * pairs.json, the pair record of a paired diff: every pair's values of every timed metric, in run
 * order, with what the sequential rule needs to judge them again (each point's kind, lead, minimum
 * effect, other metrics, fit sizes), the seed, the plan of looks, and each point's counted work
 * with its repeats and where each count came from. The PR-comment job reads it as untrusted data
 * and recomputes every verdict with the default branch's statistics (pairs/decide/recompute.ts),
 * so a pull request whose harness wrote comparison.json cannot also decide what it says.
 *
 * Version 3 is the first with a schema (2 was `{ schema: 2, points }` with nothing checked): a
 * reader refuses any other version in one line.
 */
import { z } from 'zod';
import { DIRECTIONS } from '../model/metrics.js';
import { Params, short } from './parts/comparison-parts.js';
import { Name, Num, SafeRecord } from './parts/fields.js';

export const PAIR_RECORD_SCHEMA = 3;

const Lead = z.object({ metric: Name, unit: short(20), direction: z.enum(DIRECTIONS) }).strict();
const FitSide = z.object({ small: Num, large: Num }).strict();
/** A side's values of one pair, by metric (null: that side did not report it). */
const SideValues = SafeRecord(Name, Num.nullable());

const RecordedPair = z
  .object({
    order: z.enum(['AB', 'BA']),
    base: SideValues,
    head: SideValues,
    fit: z.object({ base: FitSide, head: FitSide }).strict().optional(),
  })
  .strict();

export const RecordedPoint = z
  .object({
    benchmark: short(300),
    experiment: Name,
    variant: Name,
    params: Params,
    impact: z.enum(['affected', 'control']),
    kind: z.enum(['process', 'self', 'fit']),
    /** The lead as the diff chose it from the first pair (a fit's cost; wall time where a fit cannot resolve it is decided again). */
    lead: Lead,
    /** The minimum effect the diff judged the lead at. */
    minEffect: Num,
    /** The other timed metrics and the minimum effect each was judged at; `of`: the metric whose evidence it repeats. */
    others: z
      .array(z.object({ metric: Name, of: Name.optional(), minEffect: Num }).strict())
      .max(100)
      .optional(),
    /** Every metric the pairs report, with its unit and direction. */
    metrics: SafeRecord(Name, z.object({ unit: short(20), direction: z.enum(DIRECTIONS) }).strict()),
    sizes: z.object({ small: Num, large: Num }).strict().optional(),
    pairs: z.array(RecordedPair).max(10_000),
  })
  .strict();
export type RecordedPoint = z.infer<typeof RecordedPoint>;

/** A point's counted work as the counts were made: each side's repeats, and where they came from. */
const RecordedCounts = z
  .object({
    benchmark: short(300),
    metric: z.enum(['instructions_per_op', 'instructions']),
    base: z.array(Num).min(1).max(20),
    head: z.array(Num).min(1).max(20),
    /** `decides`: exact enough to call; `evidence`: shown, never called (its runtime is not deterministic). */
    role: z.enum(['decides', 'evidence']),
    /**
     * How each side's counts were made: counted live in this diff, or (the base's) taken from the
     * trend store under the same key (`pairs --count-store`; written only by a diff that was given one).
     */
    source: z.object({ base: z.enum(['counted', 'stored']), head: z.enum(['counted']) }).strict(),
    settings: short(300),
  })
  .strict();

export const PairRecordDocument = z
  .object({
    schema: z.literal(PAIR_RECORD_SCHEMA),
    kind: z.literal('pair-record'),
    seed: z.number().int().min(0),
    /** The plan of looks and levels the diff sampled with (the recomputation uses its own). */
    plan: z
      .object({
        looks: z.array(z.number().int()).max(20),
        alphas: z.array(Num).max(20),
        betas: z.array(Num).max(20),
      })
      .strict(),
    /** The diff-wide false-positive level the diff shared out among its points. */
    level: Num,
    points: z.array(RecordedPoint).max(10_000),
    counts: z.array(RecordedCounts).max(10_000),
  })
  .strict();
export type PairRecordDocument = z.infer<typeof PairRecordDocument>;
