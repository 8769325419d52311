/**
 * normalize, fit experiments: the start-up-free metrics of a job measured at several sizes (a
 * line through each run's wall time against the operations it made).
 */
import { describe } from '../analysis/describe.js';
import { fitSizes } from '../analysis/fit.js';
import type { Metric } from '../formats/results-format.js';
import type { Job } from '../model/job.js';
import { FIT_METRICS } from '../model/metrics.js';
import type { RawSamples } from './runner.js';

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
export function fitMetrics(job: Job, raw: RawSamples): Record<string, Metric> {
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
      unit: FIT_METRICS.cost.unit,
      direction: FIT_METRICS.cost.direction,
      value: fit.slope * 1e9,
      samples,
      stats: describe(samples),
      deterministic: false,
      source: 'fit',
      fit: meta(1e9, fit.ci),
    };
    out[spec.startup] = {
      unit: FIT_METRICS.startup.unit,
      direction: FIT_METRICS.startup.direction,
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
        unit: FIT_METRICS.throughput.unit,
        direction: FIT_METRICS.throughput.direction,
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
