/**
 * normalize: a job and its raw samples -> one benchmark of the results contract. A pure function:
 * units are converted here, once (seconds for time, bytes for memory, MB/s = 10^6 bytes per second
 * for throughput), and statistics are taken here, for both runners alike.
 */
import { describe } from '../analysis/describe.js';
import { fitSizes } from '../analysis/fit.js';
import { PERCENTILE_NAMES, percentiles } from '../analysis/percentiles.js';
import type { Job } from '../model/job.js';
import type { Benchmark, BuildInfo, Metric } from '../model/results.js';
import type { RawSamples } from '../run/runner.js';

/** The metric catalogue: every metric the harness itself produces, with unit and direction. */
export const METRICS = {
  wall_time: { unit: 's', direction: 'smaller' },
  throughput: { unit: 'MB/s', direction: 'bigger' },
  max_rss: { unit: 'B', direction: 'smaller' },
  pipeline_max_rss: { unit: 'B', direction: 'smaller' },
  syscalls: { unit: 'calls', direction: 'smaller' },
} as const;

type Direction = Metric['direction'];

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

/**
 * Why a fit experiment's line gives no cost: a slope that is not positive means start-up noise
 * exceeds the time the extra operations take at these sizes (a small profile). Then no cost,
 * start-up or steady throughput is reported at all, rather than a negative cost.
 */
export function fitUnresolved(job: Job, raw: RawSamples): string | undefined {
  if (!job.experiment.manifest.fit || !raw.sizes || raw.sizes.length < 2) return undefined;
  const { fit } = fitSizes(raw.sizes.map((s) => ({ x: s.x, times: s.runs.map((r) => r.wall) })));
  return fit.slope > 0
    ? undefined
    : 'no cost per operation: the runs at the larger size were not slower than at the smaller one (start-up noise exceeds the reads; use a larger profile)';
}

/**
 * The start-up-free metrics of a fit experiment: cost per operation (ns), start-up (s), and
 * steady throughput (MB/s), each with every run's own value as its samples.
 */
function fitMetrics(job: Job, raw: RawSamples): Record<string, Metric> {
  const spec = job.experiment.manifest.fit;
  if (!spec || !raw.sizes || raw.sizes.length < 2) return {};
  if (fitUnresolved(job, raw)) return {};
  const scales = raw.sizes.map((s) => s.scale);
  const over = (xs: number[]) => raw.sizes!.map((s, i) => ({ x: xs[i]!, times: s.runs.map((r) => r.wall) }));
  const xs = raw.sizes.map((s) => s.x);
  const { fit, slopes, intercepts } = fitSizes(over(xs));
  const meta = (scale: number, ci?: [number, number]) => ({
    x: spec.x,
    xs,
    scales,
    r2: fit.r2,
    n: fit.n,
    ...(ci ? { ci: ci.map((v) => v * scale) as [number, number] } : {}),
  });
  const out: Record<string, Metric> = {};
  if (Number.isFinite(fit.slope) && slopes.length) {
    const samples = slopes.map((b) => b * 1e9);
    out[spec.cost] = {
      unit: 'ns',
      direction: 'smaller',
      value: fit.slope * 1e9,
      samples,
      stats: describe(samples),
      deterministic: false,
      source: 'fit',
      fit: meta(1e9, fit.ci),
    };
    out[spec.startup] = {
      unit: 's',
      direction: 'smaller',
      value: fit.intercept,
      samples: intercepts,
      stats: describe(intercepts),
      deterministic: false,
      source: 'fit',
      fit: meta(1),
    };
  }
  const bytes = raw.sizes.map((s) => s.bytes);
  if (bytes.every((b): b is number => b !== undefined)) {
    const byBytes = fitSizes(over(bytes));
    const mbps = (secondsPerByte: number) => 1 / secondsPerByte / 1e6;
    const samples = byBytes.slopes.filter((b) => b > 0).map(mbps);
    if (byBytes.fit.slope > 0 && samples.length) {
      const ci =
        byBytes.fit.ci && byBytes.fit.ci[0] > 0
          ? ([mbps(byBytes.fit.ci[1]), mbps(byBytes.fit.ci[0])] as [number, number])
          : undefined;
      out[spec.throughput] = {
        unit: 'MB/s',
        direction: 'bigger',
        value: mbps(byBytes.fit.slope),
        samples,
        stats: describe(samples),
        deterministic: false,
        source: 'fit',
        fit: { x: 'bytes', xs: bytes, scales, r2: byBytes.fit.r2, n: byBytes.fit.n, ...(ci ? { ci } : {}) },
      };
    }
  }
  return out;
}

/** Every metric of a measured job. */
export function metricsOf(job: Job, raw: RawSamples): Record<string, Metric> {
  const out: Record<string, Metric> = {};
  const reports = job.experiment.manifest.reports;
  const walls = raw.runs.map((r) => r.wall);
  if (walls.length) {
    out.wall_time = sampled(METRICS.wall_time.unit, 'smaller', walls, raw.timer);
    const bytes = job.throughputBytes;
    const tp = rate(METRICS.throughput.unit, bytes === undefined ? undefined : bytes / 1e6, walls);
    if (tp) out.throughput = tp;
    for (const r of job.rates) {
      // Over each run's own timer (a reported field) when the manifest says, else over wall time.
      const times = r.time
        ? raw.runs.flatMap((run) => (run.report?.[r.time!] === undefined ? [] : [run.report[r.time!]!]))
        : walls;
      const m = rate(r.unit, r.per, times);
      if (m) out[r.name] = r.time ? { ...m, source: 'program' } : m;
    }
  }
  Object.assign(out, fitMetrics(job, raw));
  const memory = raw.runs.flatMap((r) => (r.memoryBytes === undefined ? [] : [r.memoryBytes]));
  if (memory.length) out.pipeline_max_rss = sampled(METRICS.pipeline_max_rss.unit, 'smaller', memory, raw.timer);
  if (raw.maxRssBytes !== undefined) out.max_rss = counter(METRICS.max_rss.unit, 'smaller', raw.maxRssBytes, 'time');

  // The program's fields: per timed run when the runner read every run's line, else the check run's.
  const perRun = raw.runs.every((r) => r.report) && raw.runs.length > 0;
  for (const [field, spec] of Object.entries(reports)) {
    if (!spec.metric || spec.samples) continue;
    if (perRun) {
      const xs = raw.runs.flatMap((r) => (r.report?.[field] === undefined ? [] : [r.report[field]]));
      if (!xs.length) continue;
      out[field] = xs.every((x) => x === xs[0])
        ? counter(spec.unit, spec.direction, xs[0]!, 'program')
        : sampled(spec.unit, spec.direction, xs, 'program');
    } else if (raw.report[field] !== undefined)
      out[field] = counter(spec.unit, spec.direction, raw.report[field], 'program');
  }
  // Per-item values: percentiles of the values pooled over runs; each percentile's samples are
  // that percentile within each run, so its spread across runs is kept for comparisons.
  for (const [field, spec] of Object.entries(reports)) {
    if (!spec.metric || !spec.samples) continue;
    const each = raw.runs.flatMap((r) => (r.items?.[field]?.length ? [r.items[field]] : []));
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
  if (raw.syscalls) {
    for (const [name, calls] of Object.entries(raw.syscalls.calls))
      out[`syscalls.${name}`] = counter('calls', 'smaller', calls, 'strace');
    out['syscalls.total'] = counter('calls', 'smaller', raw.syscalls.total, 'strace');
  }
  return out;
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
