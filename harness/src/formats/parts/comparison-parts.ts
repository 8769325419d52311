/**
 * What both comparison.json documents carry beside their rows (../quick-look-format.ts,
 * ../pairs-format.ts): the two sides and the lists of what was not compared.
 */
import { z } from 'zod';
import { Num, ParamName, ParamValue, SafeRecord, Token } from './fields.js';

/** Parameter maps: keys as manifests declare them, never an Object.prototype name. */
export const Params = SafeRecord(ParamName, ParamValue);
export const short = (max: number) => z.string().max(max);

/** A counter's value on each side (medians), with a side's [min, max] when its runs disagree. */
export const COUNTER_SIDES = {
  metric: short(100),
  unit: short(20),
  base: Num,
  head: Num,
  baseRange: z.tuple([Num, Num]).optional(),
  headRange: z.tuple([Num, Num]).optional(),
};

const OneSided = z.object({ benchmark: short(300), side: z.enum(['base', 'head']) }).strict();
const NotMeasured = z
  .object({
    benchmark: short(300),
    side: z.enum(['base', 'head']),
    status: z.enum(['skipped', 'failed']),
    reason: short(2000),
    /** The program (source, build, runtime version) differs between base and head (paired diffs). */
    changed: z.boolean().optional(),
  })
  .strict();

export const ComparisonSide = z
  .object({
    commits: z.array(short(64)).max(50),
    runs: z.number().int(),
    machine: short(200),
    cpu: short(200),
    toolchains: SafeRecord(Token, short(200)),
  })
  .strict();

/** The lists every comparison carries beside its rows, pooled or paired. */
export const COMPARISON_LISTS = {
  added: z.array(OneSided).max(10_000),
  removed: z.array(OneSided).max(10_000),
  notMeasured: z.array(NotMeasured).max(10_000),
  /** Conditions that make the timings unreliable (a busy machine during some rounds). */
  warnings: z.array(short(500)).max(20).optional(),
  /** Measured on both sides but not comparable: a median of 0, or a changed workload, metric or unit. */
  incomparable: z
    .array(z.object({ benchmark: short(300), metric: short(100), reason: short(300) }).strict())
    .max(10_000)
    .optional(),
};
