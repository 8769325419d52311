/**
 * Slope analysis: how a metric grows with a numeric parameter (e.g. time per added transform).
 * A least-squares line through the metric's value at each x, one per variant and combination of
 * the other parameters; pure, so it is tested on synthetic data.
 */
import { linearRegression, rSquared } from 'simple-statistics';
import type { Benchmark, Params, SlopeFit } from '../formats/results-format.js';

export interface SlopeSpec {
  x: string;
  metric: string;
  /** A derived value to divide the slope by (e.g. input_lines): recorded as the fit's `per`. */
  per?: { value: string };
}

export function fitLine(points: readonly [number, number][]): { slope: number; intercept: number; r2: number } {
  const pts = points.map(([x, y]) => [x, y]);
  const { m, b } = linearRegression(pts);
  // rSquared of a perfect (or flat) fit is NaN when y has no variance; call that a perfect fit.
  const r2 = rSquared(pts, (x) => m * x + b);
  return { slope: m, intercept: b, r2: Number.isFinite(r2) ? r2 : 1 };
}

/** One fit per (variant, other parameters) group with at least two distinct x values. */
export function slopes(experiment: string, spec: SlopeSpec, benchmarks: readonly Benchmark[]): SlopeFit[] {
  const groups = new Map<
    string,
    { variant: string; params: Params; unit: string; per?: number; pts: [number, number][] }
  >();
  for (const b of benchmarks) {
    const metric = b.metrics[spec.metric];
    const x = b.params[spec.x];
    if (b.experiment !== experiment || b.status !== 'ok' || !metric || typeof x !== 'number') continue;
    const params = Object.fromEntries(Object.entries(b.params).filter(([k]) => k !== spec.x));
    const key = `${b.variant}|${JSON.stringify(Object.entries(params).sort(([a], [c]) => a.localeCompare(c)))}`;
    const per = spec.per ? b.derived[spec.per.value] : undefined;
    const g = groups.get(key) ?? {
      variant: b.variant,
      params,
      unit: metric.unit,
      ...(per !== undefined ? { per } : {}),
      pts: [],
    };
    g.pts.push([x, metric.value]);
    groups.set(key, g);
  }
  const fits: SlopeFit[] = [];
  for (const g of groups.values()) {
    if (new Set(g.pts.map(([x]) => x)).size < 2) continue;
    g.pts.sort(([a], [b]) => a - b);
    fits.push({
      experiment,
      kind: 'slope',
      x: spec.x,
      metric: spec.metric,
      unit: g.unit,
      variant: g.variant,
      params: g.params,
      points: g.pts.length,
      xs: g.pts.map(([x]) => x),
      ...(g.per !== undefined ? { per: g.per } : {}),
      ...fitLine(g.pts),
    });
  }
  return fits;
}

/** Every slope analysis the experiments declare, over a run's benchmarks. */
export function runAnalyses(
  experiments: readonly { id: string; manifest: { analyses: readonly SlopeSpec[] } }[],
  benchmarks: readonly Benchmark[],
): SlopeFit[] {
  return experiments.flatMap((e) => e.manifest.analyses.flatMap((a) => slopes(e.id, a, benchmarks)));
}
