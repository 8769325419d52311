/**
 * What both runners do the same way: run a job's command (in its folder, with its timeout), wrap
 * the program in GNU time, check a run's answer, verify that eviction works before a cold job is
 * timed, count syscalls in an untimed strace run, and assemble the raw samples.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Validation } from '../formats/results-format.js';
import { describeExit, type ProcessResult, runProcess, shellQuote } from '../lib/exec.js';
import { failureDetail } from '../lib/first-error-line.js';
import { POINT_LABEL, sandboxCommand } from '../machine/sandbox/argv.js';
import type { Tools } from '../machine/tools.js';
import { commandLine, type Job } from '../model/job.js';
import { emptyScratch } from './empty-scratch.js';
import { GNU_TIME_FORMAT, parseGnuTime } from './parse-gnu-time.js';
import { parseStraceSummary, type SyscallCounts } from './parse-strace.js';
import { programEnv } from './program-env.js';
import type { RawSamples } from './runner.js';
import { parseReport, runChecks, splitSamples } from './validate.js';

/** The last lines of a tool's output, short enough for a failure reason. */
export const tail = (s: string) => s.trim().split('\n').slice(-5).join(' | ').slice(0, 400);

export const timeoutMs = (job: Pick<Job, 'settings'>, factor = 1) => job.settings.timeout * 1000 * factor;

/**
 * Runs a shell command line for a job: in its folder, bounded by its timeout, in the programs'
 * environment; inside the job's sandbox when it has one, where `work` (the run's own files: GNU
 * time's and strace's reports, Valgrind's logs) is writable too.
 */
export function shell(job: Job, command: string, factor = 1, work?: string): Promise<ProcessResult> {
  return runInJob(job, ['bash', '-c', `set -o pipefail; ${command}`], timeoutMs(job, factor), work);
}

/**
 * Runs `argv` for a job, its scratch emptied first: in its sandbox (paths translated), or in its
 * folder with the programs' environment.
 */
export function runInJob(
  job: Pick<Job, 'id' | 'cwd' | 'sandbox' | 'scratch'>,
  argv: readonly string[],
  timeout: number,
  work?: string,
): Promise<ProcessResult> {
  emptyScratch(job.scratch);
  if (!job.sandbox) return runProcess(argv, { cwd: job.cwd, timeoutMs: timeout, env: programEnv() });
  // The label is bwrap's alone (it clears the environment inside): a recording of the harness
  // (pairs/harness-shift) tells by it which point each start served.
  return runProcess(sandboxCommand(job.sandbox, job.cwd, argv, work), {
    timeoutMs: timeout,
    env: { [POINT_LABEL]: job.id },
  });
}

/**
 * GNU time in front of the program (not the pipeline): max RSS of the program alone. With
 * `fixedLayout` (an untimed run) and setarch usable here, address-space randomization is off for
 * the program: where its pages fall moves its max RSS by several % from run to run otherwise.
 */
export function gnuTimeWrap(tools: Tools, file: string, fixedLayout = false): string {
  if (!tools.gnuTime) return '';
  const time = `${shellQuote(tools.gnuTime)} -f ${shellQuote(GNU_TIME_FORMAT.replace(/\\n/g, '\n'))} -o ${shellQuote(file)}`;
  return fixedLayout && tools.setarch ? `${shellQuote(tools.setarch)} -R ${time}` : time;
}

export const RSS_UNMEASURED = 'max RSS not measured: GNU time missing (apt-get install time)';

/** Collects a job's raw samples; `done` closes them with a status. */
export function collector(job: Job, timer: RawSamples['timer'], command = commandLine(job)) {
  const raw: RawSamples = { status: 'ok', command, timer, report: {}, runs: [], notes: [], measuredSeconds: 0 };
  return {
    raw,
    spent(seconds: number) {
      raw.measuredSeconds += seconds;
    },
    note(text: string) {
      raw.notes.push(text);
    },
    done(status: RawSamples['status'], extra: Partial<RawSamples> = {}): RawSamples {
      return { ...raw, ...extra, status };
    },
  };
}

/**
 * Evicts the cold job's pages once and verifies it (evict exits 3 when mincore still sees
 * resident pages): returns why the job must be skipped, or undefined when eviction works here.
 */
export async function verifyEviction(job: Job): Promise<string | undefined> {
  if (!job.evict) return undefined;
  const ev = await shell(job, job.evict);
  if (ev.code === 3) return `cold cache: eviction could not be verified (${residentPages(ev.stdout)})`;
  if (ev.code !== 0) return `cold cache: eviction failed: ${tail(ev.stderr) || `exit status ${ev.code ?? ev.signal}`}`;
  return undefined;
}

/**
 * The evictor's line ({"files","pages","resident","attempts"}) in words: "2 of 641 pages stayed
 * resident after 5 attempts". Pure.
 */
export function residentPages(line: string): string {
  try {
    const r = JSON.parse(line.trim()) as { pages?: number; resident?: number; attempts?: number };
    if (typeof r.resident === 'number' && typeof r.pages === 'number')
      return `${r.resident} of ${r.pages} pages stayed resident${r.attempts ? ` after ${r.attempts} attempts` : ''}`;
  } catch {
    // Not the evictor's line: quote it as it is.
  }
  return `pages still resident: ${line.trim()}`;
}

/** A run's report line: its scalar fields, and a "self" runner's sample arrays taken out first. */
export function readReport(
  job: Job,
  stdout: string,
): { ok: true; fields: Record<string, number>; items: Record<string, number[]> } | { ok: false; reason: string } {
  const sampleFields = Object.entries(job.experiment.manifest.reports)
    .filter(([, s]) => s.samples)
    .map(([f]) => f);
  let line = stdout;
  let items: Record<string, number[]> = {};
  if (sampleFields.length) {
    const split = splitSamples(stdout, sampleFields);
    if (!split.ok) return split;
    line = split.scalarsLine;
    items = split.samples;
  }
  const report = parseReport(job.variant, line);
  return report.ok ? { ok: true, fields: report.fields, items } : report;
}

export type CheckedRun =
  | {
      ok: true;
      fields: Record<string, number>;
      items: Record<string, number[]>;
      validation: Validation;
      maxRssBytes?: number;
      rssNote?: string;
      seconds: number;
      /** What the program printed (its report line) and GNU time's report, as written. */
      stdout: string;
      time?: string;
    }
  | { ok: false; reason: string; validation?: Validation; fields?: Record<string, number>; seconds: number };

/**
 * Runs the job once, wrapped in GNU time, and checks its answer: the report line is parsed
 * (sample arrays taken out for runner "self") and validated against what was sent.
 * `label` names the run in failure reasons ("run 2 of 5"); `untimed` (a check before timing) reads
 * max RSS with the address-space layout fixed (gnuTimeWrap), a timed run keeps the usual one.
 */
export async function checkedRun(
  job: Job,
  tools: Tools,
  work: string,
  label?: string,
  size: Pick<Job, 'command' | 'scope'> = job,
  untimed = false,
): Promise<CheckedRun> {
  const timeFile = join(work, 'time.txt');
  // The last run's report goes first: it cannot pass for this run's, and every run of a job starts
  // with the same folder (a recording plays back a sandbox started again unchanged: sandbox-replay.c).
  rmSync(timeFile, { force: true });
  const r = await shell(job, commandLine(size, gnuTimeWrap(tools, timeFile, untimed)), 1, work);
  const prefix = label ? `${label}: ` : '';
  // The generator died of SIGPIPE (exit 141 under pipefail): the program stopped reading and
  // exited. Its answer says what went wrong; the generator's signal does not.
  const earlyExit = job.command.generator !== undefined && r.code === 128 + 13 && !r.timedOut;
  if (earlyExit) {
    const early = parseReport(job.variant, r.stdout);
    const validation = early.ok ? runChecks(job.checks, job.variant, early.fields, size.scope) : undefined;
    const answer =
      validation && !validation.ok ? `wrong result${label ? ` in ${label}` : ''}: ${validation.message}; ` : prefix;
    return {
      ok: false,
      reason: `${answer}the program exited before its input ended (its input generator was killed by SIGPIPE)`,
      ...(validation ? { validation } : {}),
      ...(early.ok ? { fields: early.fields } : {}),
      seconds: r.seconds,
    };
  }
  if (r.code !== 0 || r.timedOut || r.signal) {
    return {
      ok: false,
      reason: `${prefix}${describeExit(r, timeoutMs(job))}${r.stderr.trim() ? `: ${failureDetail(r.stderr, tail)}` : ''}`,
      seconds: r.seconds,
    };
  }
  const report = readReport(job, r.stdout);
  if (!report.ok) return { ok: false, reason: `${prefix}${report.reason}`, seconds: r.seconds };
  const items = report.items;
  const validation = runChecks(job.checks, job.variant, report.fields, size.scope);
  if (!validation.ok)
    return {
      ok: false,
      reason: `wrong result${label ? ` in ${label}` : ''}: ${validation.message}`,
      validation,
      fields: report.fields,
      seconds: r.seconds,
    };
  const read = { ok: true as const, fields: report.fields, items, validation, seconds: r.seconds, stdout: r.stdout };
  if (!tools.gnuTime) return read;
  let time: string | undefined;
  try {
    time = readFileSync(timeFile, 'utf8');
    return { ...read, time, maxRssBytes: parseGnuTime(time).maxRssBytes };
  } catch (e) {
    return {
      ...read,
      ...(time !== undefined ? { time } : {}),
      rssNote: `max RSS unavailable: ${(e as Error).message}`,
    };
  }
}

/** Counts syscalls in one untimed run under strace -c -f (evicting first for a cold job). */
export async function countSyscalls(
  job: Job,
  tools: Tools,
  work: string,
): Promise<{ syscalls?: SyscallCounts; fields?: Record<string, number>; note?: string; seconds: number }> {
  if (!tools.strace) return { note: 'syscalls not counted: strace missing (apt-get install strace)', seconds: 0 };
  const file = join(work, 'strace.txt');
  if (job.evict) await shell(job, job.evict);
  const traced = await shell(
    job,
    commandLine(job, `${shellQuote(tools.strace)} -c -f -U name,calls,errors -S calls -o ${shellQuote(file)}`),
    4,
    work,
  );
  if (traced.code !== 0)
    return {
      note: `syscall counts unavailable: strace run ${describeExit(traced, timeoutMs(job, 4))}: ${tail(traced.stderr)}`,
      seconds: traced.seconds,
    };
  // The traced run's own report: a count the program reports can vary from run to run too.
  const report = readReport(job, traced.stdout);
  return {
    syscalls: parseStraceSummary(readFileSync(file, 'utf8')),
    ...(report.ok ? { fields: report.fields } : {}),
    seconds: traced.seconds,
  };
}
