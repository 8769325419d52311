/**
 * Where a program's instructions go, as callgrind attributes them (counts/callgrind.ts): one
 * process's self instructions per function, each function with its object (the program, the
 * runtime binary, libc, JIT code…). The change between a paired diff's two sides, as
 * comparison.json carries it, is formats/parts/work-breakdown-fields.ts.
 */

/**
 * What an object is to the counted program. The executable is the program itself (C, a static
 * just(js) app, a system tool) or the runtime binary that runs the program's script. Code in no
 * object file is JIT code where the runtime has a JIT compiler; elsewhere it is the few stubs
 * Valgrind could not place in their file (`unplaced`).
 */
export const OBJECT_ROLES = ['program', 'runtime', 'jit', 'libc', 'loader', 'library', 'valgrind', 'unplaced'] as const;
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
