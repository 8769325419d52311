/**
 * What programs report, how their answers are checked, and what is computed from them after a
 * run: a manifest's `reports` fields, its `validate` checks and its `analyses` (split from
 * ../manifest-format.ts).
 */
import { z } from 'zod';
import { Direction } from './fields.js';
import { At, name } from './overview-vocabulary.js';

export const ReportedField = z
  .object({
    unit: z.string().min(1),
    direction: Direction,
    description: z.string().optional(),
    /** False for fields that only serve validation (e.g. bytes counted). */
    metric: z.boolean().default(true),
    /**
     * Runner "self" only: the field is an array of per-item values (e.g. per-file latencies),
     * pooled over runs into percentile metrics <field>_p50 ... <field>_max.
     */
    samples: z.boolean().default(false),
  })
  .strict();

export const Check = z
  .object({
    field: name,
    /** Only at matching points (e.g. {"work": "parse"}); elsewhere the check is reported as skipped. */
    when: At.optional(),
    /** Exactly one comparison; its value is an expression over parameters and derived values. */
    equals: z.string().optional(),
    atLeast: z.string().optional(),
    atMost: z.string().optional(),
  })
  .strict()
  .refine((c) => [c.equals, c.atLeast, c.atMost].filter((x) => x !== undefined).length === 1, {
    message: 'give exactly one of equals, atLeast, atMost',
  });

/** A least-squares slope of a metric over a numeric parameter (manifest `analyses`). */
export const SlopeAnalysis = z
  .object({
    kind: z.literal('slope'),
    x: name,
    metric: z.string().min(1),
    /** Optional scale and unit for the summary table, e.g. 1e6 and "µs per transform". */
    scale: z.number().positive().default(1),
    unit: z.string().optional(),
    title: z.string().optional(),
    /** Also show the slope divided by a derived value (e.g. per line: input_lines), scaled. */
    per: z
      .object({ value: name, scale: z.number().positive().default(1), unit: z.string().min(1) })
      .strict()
      .optional(),
  })
  .strict();
