/**
 * A count's key: everything its instructions depend on, so a count stored under it is the count a
 * new run would make (docs/counts.md). The point's identity (what runs, on what workload and
 * input), the counted command lines, working directory and environment as the sandbox shows them
 * (host paths translated to its fixed ones; the CPU pinning left out: the online CPUs stand for it),
 * the counted sizes, the digests of the runtime binary and of the built program, the counting
 * settings, and the machine as a counted program meets it: Valgrind's and the C library's versions,
 * the kernel, the CPU as Valgrind presents it and the online CPUs. Pure: the digests and the
 * machine's facts are read at the edges (./stored-counts.ts).
 */
import { createHash } from 'node:crypto';
import { translate } from '../machine/sandbox/argv.js';
import { commandLine, type Job, type JobCommand } from '../model/job.js';

/** What a counted program meets on this machine. */
export interface CountMachine {
  valgrind: string;
  glibc: string;
  kernel: string;
  /** The probe's line under Valgrind (counts/valgrind-cpu.ts). */
  cpu: string;
  onlineCpus: number;
}

/** The files whose bytes a count depends on beyond the sources: the runtime binary, the built program, its builder. */
export function keyedBinaries(job: Job): string[] {
  const runtime = job.scope.runtime;
  return [
    ...(typeof runtime === 'string' ? [runtime] : []),
    ...(job.build ? [job.build.artifact] : []),
    ...(job.build?.tool ? [job.build.tool.path] : []),
  ];
}

/** The parts of the key, in words a reader can diff (tests and `--recount` reasons read them). */
export function countKeyParts(
  job: Job,
  machine: CountMachine,
  digests: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const counting = job.counting!;
  const roots = job.sandbox?.roots ?? [];
  const inside = (text: string) => translate(text, roots);
  const line = (c: JobCommand) => inside(commandLine({ command: { ...c, pin: '', generatorPin: '' } }));
  return {
    definition: job.definition,
    workload: job.workload,
    input: job.inputDigest ?? null,
    command: line(counting.command),
    sizes: (counting.sizes ?? []).map((s) => ({
      scale: s.scale,
      command: line(s.command),
      expected: s.expected ?? null,
    })),
    cwd: inside(job.cwd),
    env: { ...(job.sandbox?.env ?? {}), ...counting.env },
    binaries: keyedBinaries(job).map((p) => [inside(p), digests[p] ?? 'missing']),
    settings: counting.settings,
    machine,
  };
}

/** The key: a digest of the parts (40 hex digits). */
export function countKey(parts: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 40);
}
