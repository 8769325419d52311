/**
 * The Runtimes view's data shaping, pure: the store's release files (releases/<machine>/index.json
 * and changes.json, schemas in harness/src/releases/model/release-store.ts) -> one chart per experiment
 * point and runtime line, releases in version order, the C reference measured beside each, and
 * the confirmed changes on that line marked.
 */
import type { Direction } from '../../harness/src/model/metrics.js';
import { compareVersions } from '../../harness/src/model/runtime-release.js';
import type { ReleaseChange, ReleaseEntry } from '../../harness/src/releases/model/release-store.js';

export interface RuntimeChart {
  key: string;
  experiment: string;
  variant: string;
  params: Record<string, number | string>;
  line: string;
  metric: string;
  unit: string;
  direction: Direction;
  points: { version: string; date: string; value: number; reference: number | null }[];
  changes: ReleaseChange[];
}

const paramsKey = (p: Record<string, number | string>) =>
  Object.entries(p)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/** The chart's permalink key: experiment, variant, parameters, line. */
export function chartKey(experiment: string, variant: string, params: Record<string, number | string>, line: string) {
  return `${experiment}/${variant}/${paramsKey(params)}/${line}`;
}

/** Profiles the releases were measured at, richest first. */
export function releaseProfiles(entries: readonly ReleaseEntry[]): string[] {
  const order = ['standard', 'full', 'quick', 'smoke'];
  const rank = (p: string) => (order.includes(p) ? order.indexOf(p) : order.length);
  return [...new Set(entries.map((e) => e.profile))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Metrics with values per experiment (JavaScript points), in first-seen order. */
export function metricsOf(entries: readonly ReleaseEntry[], experiment: string): string[] {
  return [
    ...new Set(
      entries.flatMap((e) => e.values.filter((v) => v.experiment === experiment && !v.reference).map((v) => v.metric)),
    ),
  ];
}

export function runtimeCharts(
  entries: readonly ReleaseEntry[],
  changes: readonly ReleaseChange[],
  profile: string,
  experiment: string,
  metric: string,
): RuntimeChart[] {
  const charts = new Map<string, RuntimeChart>();
  const sorted = entries
    .filter((e) => e.profile === profile)
    .sort((a, b) => a.line.localeCompare(b.line, 'en', { numeric: true }) || compareVersions(a.version, b.version));
  for (const e of sorted) {
    for (const v of e.values) {
      if (v.reference || v.experiment !== experiment || v.metric !== metric) continue;
      const key = chartKey(experiment, v.variant, v.params, e.line);
      const chart = charts.get(key) ?? {
        key,
        experiment,
        variant: v.variant,
        params: v.params,
        line: e.line,
        metric,
        unit: v.unit,
        direction: v.direction,
        points: [],
        changes: changes.filter(
          (c) =>
            c.line === e.line &&
            c.experiment === experiment &&
            c.variant === v.variant &&
            c.metric === metric &&
            paramsKey(c.params) === paramsKey(v.params),
        ),
      };
      // C measured in the same run, at the same parameters: the reference for this release. A
      // variant without one of C's parameters (Bun's and Deno's thread pools have no size) takes
      // the one C point that agrees on every parameter it has.
      const refs = e.values.filter((r) => r.reference && r.experiment === experiment && r.metric === metric);
      const exact = refs.find((r) => paramsKey(r.params) === paramsKey(v.params));
      const within = refs.filter((r) => Object.entries(v.params).every(([k, x]) => r.params[k] === x));
      const ref = exact ?? (within.length === 1 ? within[0] : undefined);
      chart.points.push({ version: e.version, date: e.date, value: v.value, reference: ref?.value ?? null });
      charts.set(key, chart);
    }
  }
  return [...charts.values()];
}

/** Experiments with release values, sorted. */
export function releaseExperiments(entries: readonly ReleaseEntry[]): string[] {
  return [...new Set(entries.flatMap((e) => e.values.map((v) => v.experiment)))].sort();
}
