/**
 * Where a program's instructions go, as callgrind attributes them (counts/callgrind.ts): one
 * process's self instructions per function, each function with its object (the program, the
 * runtime binary, libc, JIT code…), and the change between a paired diff's two sides
 * (counts/count-breakdown.ts) as comparison.json carries it: the `WorkBreakdown` fragment, bounded
 * like the rest of model/pairs-document.ts, for a point whose counted work changed.
 */
import { z } from 'zod';
import { Count, Num } from './fields.js';

/**
 * What an object is to the counted program. The executable is the program itself (C, a static
 * just(js) app, a system tool) or the runtime binary that runs the program's script. Code in no
 * object file is JIT code where the runtime has a JIT compiler; elsewhere it is the few stubs
 * Valgrind could not place in their file (`unplaced`).
 */
const OBJECT_ROLES = ['program', 'runtime', 'jit', 'libc', 'loader', 'library', 'valgrind', 'unplaced'] as const;
export type ObjectRole = (typeof OBJECT_ROLES)[number];

/** Code in no object file where a JIT compiler runs: mostly what it wrote at run time. */
export const JIT_OBJECT = 'JIT code (no object file)';
/** Code in no object file where nothing compiles at run time. */
export const UNPLACED_OBJECT = 'code in no object file';
/** A function whose address has no symbol in its object (a stripped binary, JIT code). */
export const NO_SYMBOL = '(no symbol)';

/** One function's self instructions (Ir) in one process: the instructions it ran itself, not its callees'. */
export interface FunctionCost {
  /** The object's file name (its path's last part), or JIT_OBJECT / UNPLACED_OBJECT. */
  object: string;
  role: ObjectRole;
  /** As the object's symbols name it (demangled), recursion levels merged; NO_SYMBOL without one. */
  function: string;
  instructions: number;
}

/** One process's profile: callgrind's totals and the self instructions of every function that ran. */
export interface ProcessProfile {
  pid?: number;
  /** The command Valgrind ran, as its output names it. */
  command: string;
  /** Every instruction callgrind counted in the process (its totals line): the functions' self instructions add up to it. */
  instructions: number;
  /** Most instructions first. */
  functions: FunctionCost[];
}

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
