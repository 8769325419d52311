/**
 * Cachegrind's summary, one log per process (`--log-file=…%p` with `--trace-children=yes`): the
 * instructions each process retired in user space ("==PID== I   refs:      563,800,500"). Pure.
 */

export interface ProcessCount {
  pid: number;
  /** The command Valgrind ran, as its log names it. */
  command: string;
  instructions: number;
}

/** One process's log: its count, or undefined when the log has no summary (the process was killed). */
export function parseCachegrindLog(text: string): ProcessCount | undefined {
  const refs = /^==(\d+)== I\s+refs:\s+([\d,]+)\s*$/m.exec(text);
  if (!refs) return undefined;
  const command = /^==\d+== Command: (.*)$/m.exec(text)?.[1] ?? '';
  return { pid: Number(refs[1]), command, instructions: Number(refs[2]!.replace(/,/g, '')) };
}

/** The program's count: every process it ran, its children included (the measured process tree). */
export function totalInstructions(counts: readonly ProcessCount[]): number {
  return counts.reduce((sum, c) => sum + c.instructions, 0);
}
