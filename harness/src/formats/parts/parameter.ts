/**
 * A manifest's parameter: what it means, its values per profile, and which values it accepts on
 * the command line (`accepts`), so `--param bs=-1` is refused at plan time with one line instead
 * of reaching fourteen programs. Pure: the schema, and the check of one value against it.
 */
import { z } from 'zod';
import { PROFILES } from '../../model/profiles.js';

export const paramValue = z.union([z.number(), z.string()]);
export type ParamValue = z.infer<typeof paramValue>;

/** One value per profile (smoke, quick, standard, full). */
export const perProfile = <T extends z.ZodType>(t: T) =>
  z.object(Object.fromEntries(PROFILES.map((p) => [p, t])) as Record<(typeof PROFILES)[number], T>).strict();

/**
 * The values a parameter accepts. "integer": whole numbers from `min` to `max` (and only powers
 * of two with `powerOfTwo`, for block and record sizes); "oneOf": a closed list of words. A
 * manifest without `accepts` accepts exactly the values its profiles list.
 */
const Accepts = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('integer'),
      min: z.number().int(),
      max: z.number().int(),
      powerOfTwo: z.boolean().default(false),
    })
    .strict()
    .refine((a) => a.min <= a.max, { message: 'min must not exceed max' }),
  z.object({ kind: z.literal('oneOf'), values: z.array(z.string().min(1)).min(1) }).strict(),
]);

export const ParameterSpec = z
  .object({
    description: z.string().min(1),
    unit: z.string().optional(),
    values: perProfile(z.array(paramValue).min(1)),
    accepts: Accepts.optional(),
  })
  .strict()
  .superRefine((spec, ctx) => {
    // The manifest's own lists must pass its declaration: one source of truth for both.
    for (const [profile, values] of Object.entries(spec.values))
      for (const v of values) {
        const why = rejectValue(spec, v);
        if (why) ctx.addIssue({ code: 'custom', path: ['values', profile], message: `${v} is not ${why}` });
      }
  });
export type ParameterSpec = z.infer<typeof ParameterSpec>;

const isPowerOfTwo = (n: number) => n > 0 && Number.isInteger(Math.log2(n));

/** What the parameter accepts, in words ("an integer from 16 to 1048576, a power of two"). */
function describeAccepts(spec: Pick<ParameterSpec, 'values' | 'accepts'>): string {
  const a = spec.accepts;
  if (a?.kind === 'integer') return `an integer from ${a.min} to ${a.max}${a.powerOfTwo ? ', a power of two' : ''}`;
  const words = a?.kind === 'oneOf' ? a.values : [...new Set(Object.values(spec.values).flat().map(String))];
  return `one of ${words.join(', ')}`;
}

/** Undefined when `value` is accepted; otherwise what is allowed instead ("an integer from 1 to 9"). */
export function rejectValue(spec: Pick<ParameterSpec, 'values' | 'accepts'>, value: ParamValue): string | undefined {
  const a = spec.accepts;
  const expected = describeAccepts(spec);
  if (a?.kind === 'integer') {
    const ok =
      typeof value === 'number' &&
      Number.isSafeInteger(value) &&
      value >= a.min &&
      value <= a.max &&
      (!a.powerOfTwo || isPowerOfTwo(value));
    return ok ? undefined : expected;
  }
  const words = a?.kind === 'oneOf' ? a.values : Object.values(spec.values).flat().map(String);
  return words.includes(String(value)) ? undefined : expected;
}
