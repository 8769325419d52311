/**
 * normalize: a job and its raw samples -> one benchmark of the results contract. A pure function:
 * units are converted here, once (seconds for time, bytes for memory, MB/s = 10^6 bytes per second
 * for throughput), and statistics are taken here, for both runners alike.
 */
import { describe } from '../analysis/describe.js';
import { PERCENTILE_NAMES, percentiles } from '../analysis/percentiles.js';
import type { Benchmark, BuildInfo, Metric } from '../formats/results-format.js';
import type { Job } from '../model/job.js';
import { type Direction, HARNESS_METRICS as M, SYSCALL_PREFIX, syscallMetric } from '../model/metrics.js';
import { fitMetrics, fitUnresolved } from './fit-metrics.js';
import type { SyscallCounts } from './parse-strace.js';
import type { RawRun, RawSamples } from './runner.js';

/** A sampled metric; JSON has no Infinity/NaN, so non-finite samples are dropped, never written as null. */
function sampled(unit: string, direction: Direction, raw: readonly number[], source: string): Metric {
  const samples = raw.filter((x) => Number.isFinite(x));
  const stats = describe(samples);
  return { unit, direction, value: stats.median, samples, stats, deterministic: false, source };
}

function counter(unit: string, direction: Direction, value: number, source: string): Metric {
  return { unit, direction, value, deterministic: true, source };
}

/**
 * Units per second of wall time (throughput, manifest rates). hyperfine subtracts its shell's
 * start-up, so a very fast command can be timed at <= 0 s: such a run has no rate.
 */
function rate(unit: string, per: number | undefined, walls: readonly number[]): Metric | undefined {
  if (per === undefined || per <= 0) return undefined;
  const positive = walls.filter((t) => t > 0);
  return positive.length
    ? sampled(
        unit,
        'bigger',
        positive.map((t) => per / t),
        'derived',
      )
    : undefined;
}

/** Wall time and the rates over it (or over each run's own timer). */
function timeMetrics(job: Job, runs: readonly RawRun[], timer: RawSamples['timer']): Record<string, Metric> {
  const out: Record<string, Metric> = {};
  const walls = runs.map((r) => r.wall);
  if (!walls.length) return out;
  out.wall_time = sampled(M.wall_time.unit, M.wall_time.direction, walls, timer);
  const bytes = job.throughputBytes;
  const tp = rate(M.throughput.unit, bytes === undefined ? undefined : bytes / 1e6, walls);
  if (tp) out.throughput = tp;
  for (const r of job.rates) {
    // Over each run's own timer (a reported field) when the manifest says, else over wall time.
    const times = r.time
      ? runs.flatMap((run) => (run.report?.[r.time!] === undefined ? [] : [run.report[r.time!]!]))
      : walls;
    const m = rate(r.unit, r.per, times);
    if (m) out[r.name] = r.time ? { ...m, source: 'program' } : m;
  }
  return out;
}

function memoryMetrics(runs: readonly RawRun[], timer: RawSamples['timer']): Record<string, Metric> {
  const memory = runs.flatMap((r) => (r.memoryBytes === undefined ? [] : [r.memoryBytes]));
  const spec = M.pipeline_max_rss;
  return memory.length ? { pipeline_max_rss: sampled(spec.unit, spec.direction, memory, timer) } : {};
}

/** The program's fields of every timed run, when the runner read every run's line (else none). */
function perRunReports(job: Job, runs: readonly RawRun[]): Record<string, Metric> {
  const out: Record<string, Metric> = {};
  if (!runs.length || !runs.every((r) => r.report)) return out;
  for (const [field, spec] of Object.entries(job.experiment.manifest.reports)) {
    if (!spec.metric || spec.samples) continue;
    const xs = runs.flatMap((r) => (r.report?.[field] === undefined ? [] : [r.report[field]]));
    if (!xs.length) continue;
    out[field] = xs.every((x) => x === xs[0])
      ? counter(spec.unit, spec.direction, xs[0]!, 'program')
      : sampled(spec.unit, spec.direction, xs, 'program');
  }
  return out;
}

/**
 * Per-item values: percentiles of the values pooled over runs; each percentile's samples are
 * that percentile within each run, so its spread across runs is kept for comparisons.
 */
function itemPercentiles(job: Job, runs: readonly RawRun[]): Record<string, Metric> {
  const out: Record<string, Metric> = {};
  for (const [field, spec] of Object.entries(job.experiment.manifest.reports)) {
    if (!spec.metric || !spec.samples) continue;
    const each = runs.flatMap((r) => (r.items?.[field]?.length ? [r.items[field]] : []));
    if (!each.length) continue;
    const all = percentiles(each.flat());
    const per = each.map((xs) => percentiles(xs));
    for (const name of PERCENTILE_NAMES) {
      const samples = per.map((p) => p[name]);
      out[`${field}_${name}`] = {
        unit: spec.unit,
        direction: spec.direction,
        value: all[name],
        samples,
        stats: describe(samples),
        deterministic: false,
        source: 'program',
      };
    }
  }
  return out;
}

/** The program's fields from one checked report (the untimed check run), as counters. */
function reportCounters(job: Job, report: Readonly<Record<string, number>>): Record<string, Metric> {
  const out: Record<string, Metric> = {};
  for (const [field, spec] of Object.entries(job.experiment.manifest.reports))
    if (spec.metric && !spec.samples && report[field] !== undefined)
      out[field] = counter(spec.unit, spec.direction, report[field], 'program');
  return out;
}

function syscallCounters(syscalls: SyscallCounts): Record<string, Metric> {
  const out: Record<string, Metric> = {};
  for (const [name, calls] of Object.entries(syscalls.calls)) {
    const spec = syscallMetric(name);
    out[`${SYSCALL_PREFIX}${name}`] = counter(spec.unit, spec.direction, calls, 'strace');
  }
  const total = M['syscalls.total'];
  out['syscalls.total'] = counter(total.unit, total.direction, syscalls.total, 'strace');
  return out;
}

/** Every metric of a measured job. */
export function metricsOf(job: Job, raw: RawSamples): Record<string, Metric> {
  const perRun = raw.runs.length > 0 && raw.runs.every((r) => r.report);
  return {
    ...timeMetrics(job, raw.runs, raw.timer),
    ...fitMetrics(job, raw),
    ...memoryMetrics(raw.runs, raw.timer),
    ...(raw.maxRssBytes !== undefined
      ? { max_rss: counter(M.max_rss.unit, M.max_rss.direction, raw.maxRssBytes, 'time') }
      : {}),
    // The program's fields: per timed run when the runner read every run's line, else the check run's.
    ...(perRun ? perRunReports(job, raw.runs) : reportCounters(job, raw.report)),
    ...itemPercentiles(job, raw.runs),
    ...(raw.syscalls ? syscallCounters(raw.syscalls) : {}),
  };
}

/**
 * The per-run entry point (the paired diff): the metrics of ONE timed run of the job, exactly as
 * metricsOf makes them for a run among many (the same units, rates and percentiles).
 */
export function runMetrics(job: Job, run: RawRun): Record<string, Metric> {
  const timer = job.runner === 'self' ? 'harness' : 'hyperfine';
  return {
    ...timeMetrics(job, [run], timer),
    ...memoryMetrics([run], timer),
    ...perRunReports(job, [run]),
    ...itemPercentiles(job, [run]),
  };
}

/**
 * The counters of one untimed run of the job (a paired diff's trace): the program's
 * reported fields (a self-timed program's fields are per run, so none) and the syscall counts.
 */
export function checkCounters(
  job: Job,
  fields: Readonly<Record<string, number>>,
  syscalls?: SyscallCounts,
): Record<string, Metric> {
  return {
    ...(job.runner === 'self' ? {} : reportCounters(job, fields)),
    ...(syscalls ? syscallCounters(syscalls) : {}),
  };
}

function identity(
  job: Job,
): Pick<Benchmark, 'id' | 'experiment' | 'variant' | 'params' | 'derived' | 'definition' | 'workload' | 'placement'> {
  return {
    id: job.id,
    experiment: job.experiment.id,
    variant: job.variant.id,
    params: job.params,
    derived: job.derived,
    definition: job.definition,
    workload: job.workload,
    placement: job.placement,
  };
}

/** A job that was not run: its runtime, input or tool is missing, or its build failed. */
export function notRun(
  job: Job,
  status: 'skipped' | 'failed',
  reason: string,
  hint?: string,
  build?: BuildInfo,
): Benchmark {
  return { ...identity(job), status, reason, ...(hint ? { hint } : {}), metrics: {}, ...(build ? { build } : {}) };
}

export function normalize(job: Job, raw: RawSamples, build?: BuildInfo): Benchmark {
  if (raw.status === 'skipped') return notRun(job, 'skipped', raw.reason ?? 'skipped');
  const unresolved = raw.status === 'ok' ? fitUnresolved(job, raw) : undefined;
  const all = unresolved ? [...raw.notes, unresolved] : raw.notes;
  const notes = all.length ? all.join('; ') : undefined;
  const reason = raw.status === 'failed' ? raw.reason : notes;
  return {
    ...identity(job),
    status: raw.status,
    ...(reason ? { reason } : {}),
    command: raw.command,
    ...(raw.validation ? { validation: raw.validation } : {}),
    metrics: raw.status === 'ok' ? metricsOf(job, raw) : {},
    ...(build ? { build } : {}),
  };
}
