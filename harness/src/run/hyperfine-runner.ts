/**
 * run: measures one point. An untimed run first checks the answer (and takes max RSS with
 * GNU time); only a correct program is timed with hyperfine; a separate untimed run under
 * strace counts syscalls, so tracing never distorts timing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describeExit, runProcess } from '../lib/exec.js';
import { evaluate, fillTemplate, type Scope } from '../lib/expr.js';
import { GNU_TIME_FORMAT, parseGnuTime, type GnuTime } from './parse-gnu-time.js';
import { parseHyperfineJson, type HyperfineRun } from './parse-hyperfine.js';
import { parseStraceSummary, type SyscallCounts } from './parse-strace.js';
import type { Point } from '../plan/plan.js';
import type { Validation } from '../model/results.js';
import { parseReport, runChecks } from './validate.js';
import { evictPlan, verifyEviction } from './evict.js';
import type { Batches } from './self-runner.js';

export interface Tools {
  hyperfine?: string;
  strace?: string;
  gnuTime?: string;
  /** harness/tools/evict, built with gcc, for cold-cache points. */
  evict?: string;
  /** taskset and the CPU list measured programs are pinned to, when pinning. */
  pin?: { taskset: string; cpus: string };
}

export interface Measurement {
  command: string;
  status: 'ok' | 'failed' | 'skipped';
  reason?: string;
  validation?: Validation;
  reported: Record<string, number>;
  hyperfine?: HyperfineRun;
  gnuTime?: GnuTime;
  syscalls?: SyscallCounts;
  notes: string[];
  /** Seconds spent in processes that ran the measured command. */
  measuredSeconds: number;
  /** Bytes one run processes (for throughput), when the manifest says. */
  throughputBytes?: number;
  /** Runner "self": what each timed run reported (see run/self-reported.ts). */
  batches?: Batches;
  /** Units one run processes, per manifest `rates` entry (e.g. lines), with the rate's unit. */
  rates?: Record<string, { per: number; unit: string }>;
}

const q = (s: string) => quote([s]);
const tail = (s: string) => s.trim().split('\n').slice(-5).join(' | ').slice(0, 400);

/** The shell command for a point: generator pipe (if any) into the variant's command. */
export function composeCommand(point: Point, scope: Scope, wrap = '', pin?: Tools['pin']): string {
  const m = point.experiment.manifest;
  const program = fillTemplate(point.variant.command, scope, q);
  // Only the program is pinned: the generator stays with the harness, off the measured CPUs.
  const pinned = pin && m.pin ? `${q(pin.taskset)} -c ${pin.cpus} ` : '';
  // Leading VAR=value assignments must stay in front of any wrapper to reach the program.
  const [, assignments = '', rest = program] = /^((?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*)([\s\S]*)$/.exec(program) ?? [];
  const wrapped = `${assignments}${pinned}${wrap ? `${wrap} ` : ''}${rest}`;
  return m.input ? `${fillTemplate(m.input.pipe, scope, q)} | ${wrapped}` : wrapped;
}

export async function measurePoint(point: Point, scope: Scope, tools: Tools): Promise<Measurement> {
  const settings = point.settings;
  const timeoutMs = settings.timeout * 1000;
  const command = composeCommand(point, scope, '', tools.pin);
  const notes: string[] = [];
  const work = mkdtempSync(join(tmpdir(), 'jsio-run-'));
  const bash = (cmd: string, t = timeoutMs) => runProcess(['bash', '-c', `set -o pipefail; ${cmd}`], { timeoutMs: t, cwd: point.experiment.dir });
  let measuredSeconds = 0;
  const result = (r: Partial<Measurement> & Pick<Measurement, 'status'>): Measurement => ({ command, reported: {}, notes, measuredSeconds, ...r });
  const m = point.experiment.manifest;
  const evict = evictPlan(point, scope, tools.evict);
  const evictCmd = evict.kind === 'evict' ? evict.command : '';
  try {
    if (evict.kind === 'unavailable') return result({ status: 'skipped', reason: evict.reason });
    if (evictCmd) {
      // Verify eviction works here before any cold number is taken.
      const skip = await verifyEviction(evictCmd, bash);
      if (skip) return result({ status: 'skipped', reason: skip });
    }
    // 1. Correctness (and max RSS of the program alone, not the pipeline).
    const timeFile = join(work, 'time.txt');
    const timeWrap = tools.gnuTime ? `${q(tools.gnuTime)} -f ${q(GNU_TIME_FORMAT.replace(/\\n/g, '\n'))} -o ${q(timeFile)}` : '';
    const check = await bash(composeCommand(point, scope, timeWrap, tools.pin));
    measuredSeconds += check.seconds;
    if (check.code !== 0 || check.timedOut || check.signal) {
      return result({ status: 'failed', reason: `${describeExit(check, timeoutMs)}${check.stderr.trim() ? `: ${tail(check.stderr)}` : ''}` });
    }
    const report = parseReport(point.variant, check.stdout);
    if (!report.ok) return result({ status: 'failed', reason: report.reason });
    const validation = runChecks(point.experiment.manifest.validate, point.variant, report.fields, scope);
    if (!validation.ok) return result({ status: 'failed', reason: `wrong result: ${validation.message}`, validation, reported: report.fields });
    let gnuTime: GnuTime | undefined;
    if (tools.gnuTime) {
      try {
        gnuTime = parseGnuTime(readFileSync(timeFile, 'utf8'));
      } catch (e) {
        notes.push(`max RSS unavailable: ${(e as Error).message}`);
      }
    } else notes.push('max RSS not measured: GNU time missing (apt-get install time)');

    // 2. Timing.
    if (!tools.hyperfine) return result({ status: 'failed', reason: 'hyperfine is not installed (apt-get install hyperfine)', validation, reported: report.fields });
    const jsonFile = join(work, 'hyperfine.json');
    const hfArgs = [
      tools.hyperfine,
      '--shell=bash',
      '--style=none',
      `--runs=${settings.runs}`,
      `--warmup=${settings.warmup}`,
      `--export-json=${jsonFile}`,
      ...(evictCmd ? [`--prepare=${evictCmd}`] : []),
      `set -o pipefail; ${command}`,
    ];
    // hyperfine has no per-run timeout: bound the whole invocation instead.
    const hfTimeout = timeoutMs * (settings.runs + settings.warmup) + 60_000;
    const hf = await runProcess(hfArgs, { timeoutMs: hfTimeout, cwd: point.experiment.dir });
    measuredSeconds += hf.seconds;
    if (hf.code !== 0) {
      return result({ status: 'failed', reason: `hyperfine: ${describeExit(hf, hfTimeout)}: ${tail(hf.stderr)}`, validation, reported: report.fields, ...(gnuTime ? { gnuTime } : {}) });
    }
    const [timed] = parseHyperfineJson(jsonFile, readFileSync(jsonFile, 'utf8'));

    // 3. Syscalls, untimed.
    let syscalls: SyscallCounts | undefined;
    if (tools.strace) {
      const straceFile = join(work, 'strace.txt');
      if (evictCmd) await bash(evictCmd);
      const traced = await bash(composeCommand(point, scope, `${q(tools.strace)} -c -f -U name,calls,errors -S calls -o ${q(straceFile)}`, tools.pin), timeoutMs * 4);
      measuredSeconds += traced.seconds;
      if (traced.code === 0) syscalls = parseStraceSummary(readFileSync(straceFile, 'utf8'));
      else notes.push(`syscall counts unavailable: strace run ${describeExit(traced, timeoutMs * 4)}: ${tail(traced.stderr)}`);
    } else notes.push('syscalls not counted: strace missing (apt-get install strace)');

    const throughputBytes = m.throughputBytes ? evaluate(m.throughputBytes, scope) : undefined;
    const rates = Object.fromEntries(Object.entries(m.rates).map(([name, r]) => [name, { per: evaluate(r.per, scope), unit: r.unit }]));
    return result({
      status: 'ok',
      ...(throughputBytes !== undefined ? { throughputBytes } : {}),
      ...(Object.keys(rates).length ? { rates } : {}),
      validation,
      reported: report.fields,
      ...(timed ? { hyperfine: timed } : {}),
      ...(gnuTime ? { gnuTime } : {}),
      ...(syscalls ? { syscalls } : {}),
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
