/**
 * normalize: raw measurements -> the results contract. Units are converted here, once:
 * seconds for time, bytes for memory, MB/s (10^6 bytes per second) for throughput.
 */
import type { BuildOutcome } from '../build/build.js';
import { definitionHash } from '../plan/definition.js';
import type { Point } from '../plan/plan.js';
import type { Benchmark, Metric } from '../model/results.js';
import type { Measurement } from '../run/hyperfine-runner.js';
import type { Batches } from '../run/self-runner.js';
import { PERCENTILE_NAMES, percentiles } from '../analysis/percentiles.js';
import { describe } from '../analysis/describe.js';

/** The metric catalogue: every metric the harness itself produces, with unit and direction. */
export const METRICS = {
  wall_time: { unit: 's', direction: 'smaller' },
  throughput: { unit: 'MB/s', direction: 'bigger' },
  max_rss: { unit: 'B', direction: 'smaller' },
  pipeline_max_rss: { unit: 'B', direction: 'smaller' },
  syscalls: { unit: 'calls', direction: 'smaller' },
} as const;

function sampled(name: keyof typeof METRICS, raw: number[], source: string): Metric {
  // JSON has no Infinity/NaN: a non-finite sample would be written as null and break readers.
  const samples = raw.filter((x) => Number.isFinite(x));
  const stats = describe(samples);
  return { ...METRICS[name], value: stats.median, samples, stats, deterministic: false, source };
}

function counter(unit: string, direction: 'smaller' | 'bigger', value: number, source: string): Metric {
  return { unit, direction, value, deterministic: true, source };
}

/**
 * Runner "self": wall time and throughput per run, scalar fields as per-run samples, and each
 * samples field as percentiles of the values pooled over runs. A percentile metric's samples
 * are that percentile within each run, so its spread across runs is kept for comparisons.
 */
function batchMetrics(point: Point, b: Batches, throughputBytes: number | undefined): Record<string, Metric> {
  const out: Record<string, Metric> = {};
  const reports = point.experiment.manifest.reports;
  if (b.wall.length) {
    out.wall_time = { ...sampled('wall_time', b.wall, 'harness'), source: 'harness' };
    if (throughputBytes !== undefined && throughputBytes > 0 && b.wall.some((t) => t > 0)) out.throughput = sampled('throughput', b.wall.filter((t) => t > 0).map((t) => throughputBytes / t / 1e6), 'derived');
  }
  if (b.maxRssBytes !== undefined) out.max_rss = counter(METRICS.max_rss.unit, 'smaller', b.maxRssBytes, 'time');
  for (const [field, xs] of Object.entries(b.scalars)) {
    const spec = reports[field];
    if (!spec?.metric || !xs.length) continue;
    const stats = describe(xs);
    const deterministic = xs.every((x) => x === xs[0]);
    out[field] = deterministic
      ? counter(spec.unit, spec.direction, xs[0] as number, 'program')
      : { unit: spec.unit, direction: spec.direction, value: stats.median, samples: xs, stats, deterministic: false, source: 'program' };
  }
  for (const [field, { pooled, perRun }] of Object.entries(b.samples)) {
    const spec = reports[field];
    if (!spec?.metric || !pooled.length) continue;
    const all = percentiles(pooled);
    const each = perRun.map((xs) => percentiles(xs));
    for (const name of PERCENTILE_NAMES) {
      const samples = each.map((p) => p[name]);
      out[`${field}_${name}`] = { unit: spec.unit, direction: spec.direction, value: all[name], samples, stats: describe(samples), deterministic: false, source: 'program' };
    }
  }
  return out;
}

export function metricsOf(point: Point, m: Measurement): Record<string, Metric> {
  if (m.batches) return batchMetrics(point, m.batches, m.throughputBytes);
  const out: Record<string, Metric> = {};
  const hf = m.hyperfine;
  if (hf) {
    out.wall_time = sampled('wall_time', hf.times, 'hyperfine');
    const bytes = m.throughputBytes;
    // hyperfine subtracts its shell's start-up time: a very fast command can come out at <= 0 s,
    // which has no throughput.
    const positive = hf.times.filter((t) => t > 0);
    if (bytes !== undefined && bytes > 0 && positive.length) out.throughput = sampled('throughput', positive.map((t) => bytes / t / 1e6), 'derived');
    for (const [name, r] of Object.entries(m.rates ?? {})) {
      if (r.per <= 0) continue;
      const samples = hf.times.filter((t) => t > 0).map((t) => r.per / t);
      if (!samples.length) continue;
      const stats = describe(samples);
      out[name] = { unit: r.unit, direction: 'bigger', value: stats.median, samples, stats, deterministic: false, source: 'derived' };
    }
    if (hf.memoryBytes?.length) out.pipeline_max_rss = sampled('pipeline_max_rss', hf.memoryBytes, 'hyperfine');
  }
  if (m.gnuTime) out.max_rss = counter(METRICS.max_rss.unit, 'smaller', m.gnuTime.maxRssBytes, 'time');
  for (const [field, spec] of Object.entries(point.experiment.manifest.reports)) {
    const v = m.reported[field];
    if (spec.metric && v !== undefined) out[field] = counter(spec.unit, spec.direction, v, 'program');
  }
  if (m.syscalls) {
    for (const [name, calls] of Object.entries(m.syscalls.calls)) out[`syscalls.${name}`] = counter('calls', 'smaller', calls, 'strace');
    out['syscalls.total'] = counter('calls', 'smaller', m.syscalls.total, 'strace');
  }
  return out;
}

function base(point: Point): Pick<Benchmark, 'id' | 'experiment' | 'variant' | 'params' | 'derived' | 'definition'> {
  return {
    id: point.id,
    experiment: point.experiment.id,
    variant: point.variant.id,
    params: point.params,
    derived: point.derived,
    definition: definitionHash(point.experiment, point.variant),
  };
}

export function skippedBenchmark(point: Point, reason: string, hint?: string): Benchmark {
  return { ...base(point), status: 'skipped', reason, ...(hint ? { hint } : {}), metrics: {} };
}

export function failedBenchmark(point: Point, reason: string, build?: BuildOutcome): Benchmark {
  return { ...base(point), status: 'failed', reason, metrics: {}, ...(build?.ok ? { build: build.info } : {}) };
}

export function measuredBenchmark(point: Point, m: Measurement, build?: BuildOutcome): Benchmark {
  if (m.status === 'skipped') return skippedBenchmark(point, m.reason ?? 'skipped');
  const notes = m.notes.length ? m.notes.join('; ') : undefined;
  const reason = m.status === 'failed' ? m.reason : notes;
  return {
    ...base(point),
    status: m.status,
    ...(reason ? { reason } : {}),
    command: m.command,
    ...(m.validation ? { validation: m.validation } : {}),
    metrics: m.status === 'ok' ? metricsOf(point, m) : {},
    ...(build?.ok ? { build: build.info } : {}),
  };
}
