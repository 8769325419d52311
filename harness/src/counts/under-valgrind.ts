/**
 * One untimed run of a job's program under a Valgrind tool, the way every count is made: the
 * runtime's deterministic settings (model/runtime-families.ts `counting`) in its environment and
 * arguments, address-space randomization off, children followed, one file per process in a
 * scratch folder, and the program's answer checked like any run's. The counts
 * (./count-instructions.ts, cachegrind) and their breakdown (./callgrind.ts) differ only in the
 * tool's options and in what they read from the folder, so a breakdown explains the very run a
 * count was made of.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeExit, shellQuote } from '../lib/exec.js';
import type { Scope } from '../lib/expr.js';
import type { Tools } from '../machine/tools.js';
import { commandLine, type Job, type JobCommand } from '../model/job.js';
import { familyOf } from '../model/runtime-families.js';
import { readReport, shell, tail, timeoutMs } from '../run/common.js';
import { runChecks } from '../run/validate.js';

export const VALGRIND_MISSING = 'instructions not counted: valgrind missing (apt-get install valgrind)';

/** A run at another size than the job's own (a fit's smallest), with the values its checks see. */
export type CountedSize = { command: JobCommand; scope: Scope };

export interface ValgrindRunOptions {
  /** The tool and its options (arguments, quoted here), given the scratch folder its per-process files go to. */
  toolArgs: (dir: string) => readonly string[];
  /** How much longer than a timed run this one may take. */
  timeoutFactor: number;
  /** What a failure reason starts with ("counts unavailable"). */
  unavailable: string;
  size?: CountedSize;
  /** `taskset` over every core, replacing the placement's pinning (counts may run on every core at once). */
  pin?: string;
}

export type ValgrindFailure = { ok: false; reason: string; seconds: number };

/** The Valgrind command in front of the program: env settings, a fixed layout, children followed, one log per process. */
function valgrindWrap(
  tools: Tools,
  toolArgs: readonly string[],
  logDir: string,
  env: Readonly<Record<string, string>>,
): string {
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  const layout = tools.setarch ? `${shellQuote(tools.setarch)} -R ` : '';
  const valgrind = [
    shellQuote(tools.valgrind ?? 'valgrind'),
    ...toolArgs.map(shellQuote),
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

/**
 * How many instructions a run's count of this point may move by between runs of the very same
 * program, where its manifest declares it (`countsVary`); undefined: none declared.
 */
export function countsVaryOf(job: Pick<Job, 'variant'>): number | undefined {
  return job.variant.countsVary?.instructions;
}

/**
 * Why a point's counts are evidence, not a verdict, or undefined when they decide;
 * `codeChangesOnly` when that holds only between different program code (model/runtime-families.ts).
 */
export function evidenceOf(job: Job): { because: string; codeChangesOnly?: true } | undefined {
  if (job.evict) return { because: 'a cold-cache point: the kernel and the disk decide its cost' };
  const declared = job.variant.countsEvidence ?? job.experiment.manifest.countsEvidence;
  if (declared) return { because: declared };
  const family = familyOf(job.runtime);
  const e =
    job.variant.runtime === 'native' || job.variant.runtime === 'system' ? undefined : family?.counting?.evidence;
  const major = job.runtime.split('@')[1]?.split('.')[0];
  if (!e || (e.majors && (major === undefined || !e.majors.includes(major)))) return undefined;
  return { because: e.because, ...(e.codeChangesOnly ? { codeChangesOnly: true as const } : {}) };
}

/** Why a point's counts are evidence in a comparison of program code, or undefined when they decide. */
export const evidenceBecause = (job: Job): string | undefined => evidenceOf(job)?.because;

/**
 * Runs the job once under the tool and checks its answer; `read` turns the scratch folder (the
 * tool's files and Valgrind's logs, `vg.<pid>.log`) into the result before the folder is removed.
 */
export async function runUnderValgrind<T>(
  job: Job,
  tools: Tools,
  opts: ValgrindRunOptions,
  read: (dir: string, fields: Record<string, number>, seconds: number) => T | ValgrindFailure,
): Promise<T | ValgrindFailure> {
  if (!tools.valgrind) return { ok: false, reason: VALGRIND_MISSING, seconds: 0 };
  if (!job.counting)
    return { ok: false, reason: `${job.runtime} has no deterministic settings to count with`, seconds: 0 };
  const dir = mkdtempSync(join(tmpdir(), 'jsio-counts-'));
  // The counted run writes where its {scratch} says: a folder of its own, made fresh and removed.
  rmSync(job.counting.scratch, { recursive: true, force: true });
  mkdirSync(job.counting.scratch, { recursive: true });
  try {
    const own = opts.size?.command ?? job.counting.command;
    const cmd = opts.pin === undefined ? own : { ...own, pin: opts.pin, generatorPin: opts.pin };
    const wrap = valgrindWrap(tools, opts.toolArgs(dir), dir, job.counting.env);
    const r = await shell(job, commandLine({ command: cmd }, wrap), opts.timeoutFactor, dir);
    const failed = (why: string): ValgrindFailure => ({
      ok: false,
      reason: `${opts.unavailable}: ${why}`,
      seconds: r.seconds,
    });
    if (r.code !== 0 || r.timedOut || r.signal)
      return failed(
        logsText(dir).includes('unhandled instruction bytes')
          ? 'the run under valgrind hit an instruction valgrind cannot decode (a binary built with -march=native on a newer CPU than valgrind knows?)'
          : `the run under valgrind ${describeExit(r, timeoutMs(job, opts.timeoutFactor))}: ${tail(r.stderr)}`,
      );
    const report = readReport(job, r.stdout);
    if (!report.ok) return failed(report.reason);
    const validation = runChecks(job.checks, job.variant, report.fields, opts.size?.scope ?? job.scope);
    if (!validation.ok) return failed(`wrong result under valgrind: ${validation.message}`);
    return read(dir, report.fields, r.seconds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(job.counting.scratch, { recursive: true, force: true });
  }
}
