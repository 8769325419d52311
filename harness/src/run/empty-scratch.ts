/**
 * The scratch folder starts empty for every measured process: a file one process leaves there is
 * never seen by the next (a run that finds its previous run's output overwrites instead of
 * creating, and an append grows). Emptied outside the timed interval: by the harness before each
 * process it starts, by hyperfine's and the pair timer's untimed prepare step before each run
 * (docs/runners.md, *Scratch*).
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { shellQuote } from '../lib/exec.js';

/** Empties `dir` (the folder stays: its path is part of the command); nothing to do where it is missing. */
export function emptyScratch(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) rmSync(join(dir, name), { recursive: true, force: true });
}

/** The shell command that empties `dir` (made again if a program removed it), for a prepare step. */
function emptyScratchCommand(dir: string): string {
  const d = shellQuote(dir);
  return `mkdir -p ${d} && find ${d} -mindepth 1 -delete`;
}

/** A prepare step: each of `dirs` emptied, then `then` (a cache eviction) when given. */
export function prepareStep(dirs: readonly string[], then?: string): string {
  return [...new Set(dirs)]
    .map(emptyScratchCommand)
    .concat(then ? [then] : [])
    .join(' && ');
}
