/**
 * Counts the user-space instructions a job's program retires, in an untimed run under Valgrind's
 * cachegrind (no cache simulation: it only counts), beside the strace pass. The program runs with
 * its runtime's deterministic settings (model/runtime-families.ts `counting`), address-space
 * randomization off, its children followed; its answer is checked like any run's. A count does not
 * depend on how busy the machine is, so counts may run on every core at once. Kernel work is not
 * in it: the syscall counts stand for that.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeExit, shellQuote } from '../lib/exec.js';
import type { Scope } from '../lib/expr.js';
import type { Tools } from '../machine/tools.js';
import { commandLine, type Job, type JobCommand } from '../model/job.js';
import { familyOf } from '../model/runtime-families.js';
import { readReport, shell, tail } from './common.js';
import { type ProcessCount, parseCachegrindLog, totalInstructions } from './parse-valgrind.js';
import { runChecks } from './validate.js';

/** How much longer than a timed run a counted one may take: Valgrind runs JIT code tens of times slower. */
export const COUNT_TIMEOUT_FACTOR = 40;

export const VALGRIND_MISSING = 'instructions not counted: valgrind missing (apt-get install valgrind)';

export type InstructionCount =
  | {
      ok: true;
      instructions: number;
      processes: ProcessCount[];
      /** The counted run's report (a fit's x: the reads it made). */
      fields: Record<string, number>;
      seconds: number;
    }
  | { ok: false; reason: string; seconds: number };

/** Why a point's counts are evidence, not a verdict, or undefined when they decide. */
export function evidenceBecause(job: Job): string | undefined {
  if (job.evict) return 'a cold-cache point: the kernel and the disk decide its cost';
  const declared = job.variant.countsEvidence ?? job.experiment.manifest.countsEvidence;
  if (declared) return declared;
  const family = familyOf(job.runtime);
  const e =
    job.variant.runtime === 'native' || job.variant.runtime === 'system' ? undefined : family?.counting?.evidence;
  const major = job.runtime.split('@')[1]?.split('.')[0];
  return e && (!e.majors || (major !== undefined && e.majors.includes(major))) ? e.because : undefined;
}

/** The Valgrind command in front of the program: env settings, a fixed layout, one log per process. */
export function valgrindWrap(tools: Tools, logDir: string, env: Readonly<Record<string, string>>): string {
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  const layout = tools.setarch ? `${shellQuote(tools.setarch)} -R ` : '';
  const valgrind = [
    shellQuote(tools.valgrind ?? 'valgrind'),
    '--tool=cachegrind',
    '--cache-sim=no',
    '--cachegrind-out-file=/dev/null',
    '--trace-children=yes',
    `--log-file=${shellQuote(join(logDir, 'vg.%p.log'))}`,
  ].join(' ');
  return `${assignments.length ? `env ${assignments.join(' ')} ` : ''}${layout}${valgrind}`;
}

/** Every log Valgrind wrote (what it says when it cannot run a program). */
function logsText(dir: string): string {
  return readdirSync(dir)
    .filter((f) => f.startsWith('vg.'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

/** Counts one run of `size` (a fit's size, or the job's own command) under the job's counting settings. */
export async function countInstructions(
  job: Job,
  tools: Tools,
  size?: { command: JobCommand; scope: Scope },
  pin?: string,
): Promise<InstructionCount> {
  if (!tools.valgrind) return { ok: false, reason: VALGRIND_MISSING, seconds: 0 };
  if (!job.counting)
    return { ok: false, reason: `${job.runtime} has no deterministic settings to count with`, seconds: 0 };
  const logs = mkdtempSync(join(tmpdir(), 'jsio-counts-'));
  try {
    // Counts may run on every core at once: `pin` (taskset over all cores) replaces the placement's.
    const own = size?.command ?? job.counting.command;
    const cmd = pin === undefined ? own : { ...own, pin, generatorPin: pin };
    const r = await shell(
      job,
      commandLine({ command: cmd }, valgrindWrap(tools, logs, job.counting.env)),
      COUNT_TIMEOUT_FACTOR,
    );
    if (r.code !== 0 || r.timedOut || r.signal) {
      const undecodable = logsText(logs).includes('unhandled instruction bytes');
      const why = undecodable
        ? 'valgrind cannot decode an instruction the program runs (a binary built with -march=native on a newer CPU than valgrind knows?)'
        : `${describeExit(r, job.settings.timeout * 1000 * COUNT_TIMEOUT_FACTOR)}: ${tail(r.stderr)}`;
      return { ok: false, reason: `counts unavailable: the run under valgrind ${why}`, seconds: r.seconds };
    }
    const report = readReport(job, r.stdout);
    if (!report.ok) return { ok: false, reason: `counts unavailable: ${report.reason}`, seconds: r.seconds };
    const validation = runChecks(job.checks, job.variant, report.fields, size?.scope ?? job.scope);
    if (!validation.ok)
      return {
        ok: false,
        reason: `counts unavailable: wrong result under valgrind: ${validation.message}`,
        seconds: r.seconds,
      };
    const processes = readdirSync(logs)
      .filter((f) => f.startsWith('vg.'))
      .map((f) => parseCachegrindLog(readFileSync(join(logs, f), 'utf8')));
    if (!processes.length || processes.some((p) => p === undefined))
      return { ok: false, reason: 'counts unavailable: a process under valgrind left no summary', seconds: r.seconds };
    const counted = processes as ProcessCount[];
    return {
      ok: true,
      instructions: totalInstructions(counted),
      processes: counted,
      fields: report.fields,
      seconds: r.seconds,
    };
  } finally {
    rmSync(logs, { recursive: true, force: true });
  }
}
