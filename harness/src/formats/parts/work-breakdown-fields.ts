/**
 * The `WorkBreakdown` fragment of a paired comparison.json (formats/pairs-format.ts): the change of
 * a point's instructions between the two sides (counts/count-breakdown.ts computes it from each
 * side's model/process-profile.ts), bounded like the rest of the document, for a point whose
 * counted work changed.
 */
import { z } from 'zod';
import { OBJECT_ROLES } from '../../model/process-profile.js';
import { Count, Num } from './fields.js';

/** Names are cut to this in a breakdown: C++ signatures run to thousands of characters. */
export const BREAKDOWN_NAME_CAP = 300;
/** At most this many objects and functions are listed; the rest is folded into "everything else". */
export const BREAKDOWN_MAX_ROWS = 50;

const name = z.string().max(BREAKDOWN_NAME_CAP);
const Instructions = Count;
const Sides = { base: Instructions, head: Instructions, change: Num.int() };

export const ObjectChange = z.object({ object: name, role: z.enum(OBJECT_ROLES), ...Sides }).strict();
export type ObjectChange = z.infer<typeof ObjectChange>;

export const FunctionChange = z.object({ function: name, object: name, role: z.enum(OBJECT_ROLES), ...Sides }).strict();
export type FunctionChange = z.infer<typeof FunctionChange>;

/** The entries not listed, summed: the listed ones and these add up to the totals. */
export const FoldedChange = z.object({ entries: Count, changed: Count, ...Sides }).strict();
export type FoldedChange = z.infer<typeof FoldedChange>;

/**
 * Where the instructions of one point went between base and head: each side's processes summed,
 * self instructions per object and per function, head minus base (> 0: head runs more), the
 * largest changes listed and the rest folded. Evidence beside the counted verdict, never the
 * verdict itself: callgrind's totals are its own run's, not the counts the verdict compared.
 */
export const WorkBreakdown = z
  .object({
    tool: z.literal('callgrind'),
    processes: z.object({ base: Count, head: Count }).strict(),
    ...Sides,
    objects: z.array(ObjectChange).max(BREAKDOWN_MAX_ROWS),
    otherObjects: FoldedChange,
    functions: z.array(FunctionChange).max(BREAKDOWN_MAX_ROWS),
    otherFunctions: FoldedChange,
  })
  .strict();
export type WorkBreakdown = z.infer<typeof WorkBreakdown>;
