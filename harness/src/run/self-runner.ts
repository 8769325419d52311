/**
 * Runner "self": for measurements hyperfine cannot make (latency of each file inside one
 * program run). The harness runs the command `warmup` times untimed, then `runs` times; each
 * run is one batch and prints ONE JSON line. Fields declared with `samples: true` are arrays
 * (per-item values) pooled over the timed runs; every other field is one sample per run.
 * Each run's line is validated like any result line; the harness times each run's wall clock.
 * Cold points evict (and verified eviction once) before EVERY run, warmups included.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describeExit, runProcess } from '../lib/exec.js';
import { evaluate, type Scope } from '../lib/expr.js';
import { GNU_TIME_FORMAT, parseGnuTime } from './parse-gnu-time.js';
import type { Point } from '../plan/plan.js';
import type { Validation } from '../model/results.js';
import { parseReport, runChecks } from './validate.js';
import { evictPlan, verifyEviction } from './evict.js';
import { composeCommand, type Measurement, type Tools } from './hyperfine-runner.js';

export interface Batches {
  /** Wall seconds of each timed run (process start to exit, as the harness saw it). */
  wall: number[];
  /** Each scalar field's value per timed run. */
  scalars: Record<string, number[]>;
  /** Each samples field: all values of all timed runs, and per run. */
  samples: Record<string, { pooled: number[]; perRun: number[][] }>;
  /** Largest max RSS over the runs, when GNU time is available. */
  maxRssBytes?: number;
}

export type SplitLine = { ok: true; scalarsLine: string; samples: Record<string, number[]> } | { ok: false; reason: string };

/**
 * Takes the declared sample arrays out of a program's last output line; the rest stays a JSON
 * line for the ordinary report parser and checks.
 */
export function splitSamples(stdout: string, sampleFields: readonly string[]): SplitLine {
  const last = stdout.trim().split('\n').filter((l) => l.trim() !== '').at(-1);
  if (last === undefined) return { ok: false, reason: 'the program printed no result line' };
  let obj: unknown;
  try {
    obj = JSON.parse(last);
  } catch {
    return { ok: false, reason: `garbled result line (not JSON): "${last.slice(0, 120)}"` };
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return { ok: false, reason: 'result line is not a JSON object' };
  const rest: Record<string, unknown> = { ...(obj as Record<string, unknown>) };
  const samples: Record<string, number[]> = {};
  for (const f of sampleFields) {
    const v = rest[f];
    delete rest[f];
    if (!Array.isArray(v) || v.length === 0) return { ok: false, reason: `result field "${f}" must be a non-empty array of numbers` };
    if (!v.every((x) => typeof x === 'number' && Number.isFinite(x))) return { ok: false, reason: `result field "${f}" holds a value that is not a finite number` };
    samples[f] = v as number[];
  }
  return { ok: true, scalarsLine: JSON.stringify(rest), samples };
}

const q = (s: string) => quote([s]);
const tail = (s: string) => s.trim().split('\n').slice(-5).join(' | ').slice(0, 400);

export async function measureSelfReported(point: Point, scope: Scope, tools: Tools): Promise<Measurement> {
  const m = point.experiment.manifest;
  const settings = point.settings;
  const timeoutMs = settings.timeout * 1000;
  const command = composeCommand(point, scope, '', tools.pin);
  const notes: string[] = [];
  let measuredSeconds = 0;
  const result = (r: Partial<Measurement> & Pick<Measurement, 'status'>): Measurement => ({ command, reported: {}, notes, measuredSeconds, ...r });
  const bash = (cmd: string) => runProcess(['bash', '-c', `set -o pipefail; ${cmd}`], { timeoutMs, cwd: point.experiment.dir });
  const sampleFields = Object.entries(m.reports).filter(([, s]) => s.samples).map(([f]) => f);
  const evict = evictPlan(point, scope, tools.evict);
  if (evict.kind === 'unavailable') return result({ status: 'skipped', reason: evict.reason });
  if (evict.kind === 'evict') {
    const skip = await verifyEviction(evict.command, bash);
    if (skip) return result({ status: 'skipped', reason: skip });
  }
  const work = mkdtempSync(join(tmpdir(), 'jsio-self-'));
  const timeFile = join(work, 'time.txt');
  const timeWrap = tools.gnuTime ? `${q(tools.gnuTime)} -f ${q(GNU_TIME_FORMAT.replace(/\\n/g, '\n'))} -o ${q(timeFile)}` : '';
  const runCommand = composeCommand(point, scope, timeWrap, tools.pin);
  const batches: Batches = { wall: [], scalars: {}, samples: Object.fromEntries(sampleFields.map((f) => [f, { pooled: [], perRun: [] }])) };
  let validation: Validation | undefined;
  let reported: Record<string, number> = {};
  try {
    for (let i = 0; i < settings.warmup + settings.runs; i++) {
      const timed = i >= settings.warmup;
      const label = timed ? `run ${i - settings.warmup + 1} of ${settings.runs}` : `warmup run ${i + 1}`;
      if (evict.kind === 'evict') {
        const ev = await bash(evict.command);
        // Verified once above; a later failure means this run would not be cold.
        if (ev.code !== 0) return result({ status: 'failed', reason: `cold cache: eviction before ${label} failed (exit ${ev.code}): ${tail(ev.stdout + ev.stderr)}` });
      }
      const r = await bash(runCommand);
      measuredSeconds += r.seconds;
      if (r.code !== 0 || r.timedOut || r.signal) {
        return result({ status: 'failed', reason: `${label}: ${describeExit(r, timeoutMs)}${r.stderr.trim() ? `: ${tail(r.stderr)}` : ''}` });
      }
      const split = splitSamples(r.stdout, sampleFields);
      if (!split.ok) return result({ status: 'failed', reason: `${label}: ${split.reason}` });
      const report = parseReport(point.variant, split.scalarsLine);
      if (!report.ok) return result({ status: 'failed', reason: `${label}: ${report.reason}` });
      const v = runChecks(m.validate, point.variant, report.fields, scope);
      if (!v.ok) return result({ status: 'failed', reason: `wrong result in ${label}: ${v.message}`, validation: v, reported: report.fields });
      validation = v;
      reported = report.fields;
      if (!timed) continue;
      batches.wall.push(r.seconds);
      for (const [k, x] of Object.entries(report.fields)) (batches.scalars[k] ??= []).push(x);
      for (const f of sampleFields) {
        const s = split.samples[f] as number[];
        const b = batches.samples[f] as Batches['samples'][string];
        b.pooled.push(...s);
        b.perRun.push(s);
      }
      if (tools.gnuTime) {
        try {
          const rss = parseGnuTime(readFileSync(timeFile, 'utf8')).maxRssBytes;
          batches.maxRssBytes = Math.max(batches.maxRssBytes ?? 0, rss);
        } catch (e) {
          notes.push(`max RSS unavailable: ${(e as Error).message}`);
        }
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!tools.gnuTime) notes.push('max RSS not measured: GNU time missing (apt-get install time)');
  notes.push('syscalls not counted (runner "self")');
  const throughputBytes = m.throughputBytes ? evaluate(m.throughputBytes, scope) : undefined;
  return result({ status: 'ok', reported, batches, ...(validation ? { validation } : {}), ...(throughputBytes !== undefined ? { throughputBytes } : {}) });
}
