/**
 * Which files make up the harness's measuring code, and which of them a pull request changed.
 * Pure: the import graph and the bytes come in from ./harness-change.ts.
 *
 * The measuring code is everything the modules that build, start, time, validate or normalize
 * programs import (their import graph, followed by esbuild), plus the files the harness reads
 * while it runs: the C tools it compiles (the pair timer, the evictor) and the toolchain pins.
 * The npm packages that code imports count by their lockfile pins. Reports, the site, the store
 * and the docs are not in it: they render numbers, they do not make them.
 */

/**
 * The modules that build, start, time, validate or normalize programs, for `bench` and for the
 * paired diff. Their imports are followed: a helper they reach is measuring code too.
 */
export const RUNNER_ENTRIES = [
  // Runtimes, generated inputs, the evictor and the jobs (both pipelines' set-up stage).
  'harness/src/pipeline/setup.ts',
  // Builds every program.
  'harness/src/build/build.ts',
  // Starts, times and validates one job (bench).
  'harness/src/run/measure.ts',
  // Turns a job's raw runs into metrics.
  'harness/src/normalize/normalize.ts',
  // The paired diff: its sides' planning, the scheduler and the process pairs.
  'harness/src/pr-diff/pipeline/diff-sides.ts',
  'harness/src/pr-diff/run/scheduler.ts',
  'harness/src/pr-diff/run/real-executor.ts',
] as const;

/** Files under harness/tools the harness compiles at run time (machine/tools.ts buildTool: `<name>.c`). */
export function runtimeReadFiles(toolsListing: readonly string[]): string[] {
  return [
    ...toolsListing.filter((f) => f.endsWith('.c')).map((f) => `harness/tools/${f}`),
    'harness/toolchains.json',
  ].sort();
}

/** The measuring files of both sides: a file either side measures with counts. */
export function measuringFiles(
  base: { graph: readonly string[]; tools: readonly string[] },
  head: { graph: readonly string[]; tools: readonly string[] },
): string[] {
  return [
    ...new Set([...base.graph, ...head.graph, ...runtimeReadFiles(base.tools), ...runtimeReadFiles(head.tools)]),
  ].sort();
}

/** Bytes of a file on one side, or undefined where that side has no such file. */
export type ReadSide = (file: string) => Uint8Array | undefined;

/** The files whose bytes differ between the sides (a file missing on one side differs). */
export function changedFiles(files: readonly string[], base: ReadSide, head: ReadSide): string[] {
  return files.filter((f) => {
    const a = base(f);
    const b = head(f);
    if (!a || !b) return a !== b;
    return Buffer.compare(a, b) !== 0;
  });
}

/**
 * Packages pinned differently on the two sides ("package zod"), sorted. A side with a package its
 * lockfile does not pin (undefined) differs in its lockfile as a whole: failing closed.
 */
export function changedPins(
  base: Readonly<Record<string, string>> | undefined,
  head: Readonly<Record<string, string>> | undefined,
): string[] {
  if (!base || !head) return ['package-lock.json'];
  const names = [...new Set([...Object.keys(base), ...Object.keys(head)])].sort();
  return names.filter((n) => base[n] !== head[n]);
}

/** Whether every changed entry is a TypeScript source of the harness (what compiling can prove unchanged). */
export const onlySources = (changed: readonly string[]) =>
  changed.every((f) => f.startsWith('harness/src/') && f.endsWith('.ts'));
