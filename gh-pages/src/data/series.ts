/** Series into charts and lines: labels and chart keys, pure (unit-tested). */

import type { JoinedSeries } from '../../../harness/src/formats/parts/store-layout.js';
import { compareText } from '../../../harness/src/lib/compare-text.js';
import { labelWith, RUNTIME_PARAM } from '../../../harness/src/model/select.js';

/** Label of a series line: the variant plus any parameter not on the chart's axis/point. */
export function lineLabel(variant: string, params: Record<string, number | string>, fixed: readonly string[]): string {
  // A parameter the variant does not take (Bun has no UV_THREADPOOL_SIZE) is labelled as such.
  const notApplicable = fixed.filter((k) => !(k in params) && k !== RUNTIME_PARAM).map((k) => `${k} n/a`);
  return labelWith(
    variant,
    Object.entries(params).filter(([k]) => !fixed.includes(k)),
    notApplicable,
  );
}

/** The Trends view's chart of a series (its permalink's `chart`): metric and parameters but the lines'. */
export function trendChartKey(
  metric: string,
  params: Record<string, number | string>,
  unit?: string,
  lineParams: readonly string[] = [RUNTIME_PARAM],
): string {
  const point = Object.entries(params)
    .filter(([k]) => !lineParams.includes(k))
    .sort(([a], [b]) => compareText(a, b));
  return `${metric}|${point.map(([k, v]) => `${k}=${v}`).join(',')}${unit ? `|${unit}` : ''}`;
}

export interface TrendChartSpec {
  key: string;
  point: Record<string, number | string>;
  lines: { label: string; key: string }[];
}

/**
 * Groups series into charts: one per metric, parameter point and unit (runtime versions become
 * lines). A benchmark whose workload changed has one series per workload: each is its own line,
 * labelled with its workload, so values of different workloads are never joined.
 */
export function trendCharts(
  series: Record<string, JoinedSeries>,
  metric: string,
  lineParams: readonly string[] = [RUNTIME_PARAM],
): TrendChartSpec[] {
  const charts = new Map<string, TrendChartSpec>();
  const workloads = new Map<string, Set<string>>();
  for (const s of Object.values(series)) workloads.set(s.id, (workloads.get(s.id) ?? new Set()).add(s.workload));
  // One unit per chart: a metric recorded in two units (a changed definition) gets a chart per unit.
  const units = new Set(Object.values(series).map((s) => s.unit));
  for (const [key, s] of Object.entries(series)) {
    const point = Object.fromEntries(Object.entries(s.params).filter(([k]) => !lineParams.includes(k)));
    const chartKey = trendChartKey(metric, s.params, units.size > 1 ? s.unit : undefined, lineParams);
    const c = charts.get(chartKey) ?? { key: chartKey, point, lines: [] };
    const several = (workloads.get(s.id)?.size ?? 0) > 1;
    c.lines.push({
      label: `${lineLabel(s.variant, s.params, Object.keys(point))}${several ? ` [workload ${s.workload.slice(0, 8)}]` : ''}`,
      key,
    });
    charts.set(chartKey, c);
  }
  const num = (v: unknown) => (typeof v === 'number' ? v : Number.NaN);
  for (const c of charts.values()) c.lines.sort((a, b) => compareText(a.label, b.label));
  return [...charts.values()].sort((a, b) => {
    const ka = Object.values(a.point).map(num);
    const kb = Object.values(b.point).map(num);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i] ?? 0) - (kb[i] ?? 0);
    return compareText(a.key, b.key);
  });
}
