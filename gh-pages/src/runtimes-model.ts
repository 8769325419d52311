/**
 * The Runtimes view's data shaping, pure: the store's release files (releases/<machine>/index.json
 * and changes.json, schemas in harness/src/formats/release-store-format.ts) -> one chart per experiment
 * point and runtime line, releases in version order, the C reference measured beside each, and
 * the confirmed changes on that line marked.
 */

import type { ReleaseChange, ReleaseEntry } from '../../harness/src/formats/release-store-format.js';
import type { Direction } from '../../harness/src/model/metrics.js';
import { compareVersions } from '../../harness/src/model/runtime-release.js';

export interface RuntimeChart {
  key: string;
  experiment: string;
  variant: string;
  params: Record<string, number | string>;
  line: string;
  metric: string;
  unit: string;
  direction: Direction;
  /** Dated by the project's changelog where it gives a date, else by the registry (`dateSource`). */
  points: {
    version: string;
    date: string;
    dateSource: 'changelog' | 'registry';
    value: number;
    /** The value's 95% interval, where the release carries one. */
    interval?: [number, number];
    reference: number | null;
    referenceInterval?: [number, number];
  }[];
  /** Timing changes on this point and metric (and, on a chart of counted work, its work changes). */
  changes: ReleaseChange[];
  /** Counter changes on this point (any counter). */
  counterChanges: ReleaseChange[];
  /** Releases of the line measured at the profile that have no value here, and why. */
  missing: { version: string; why: string }[];
}

const paramsKey = (p: Record<string, number | string>) =>
  Object.entries(p)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/** The chart's permalink key: experiment, variant, parameters, line. */
function chartKey(experiment: string, variant: string, params: Record<string, number | string>, line: string) {
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
        changes: changes.filter((c) => c.kind !== 'counter' && c.metric === metric && onPoint(c, e.line, v)),
        counterChanges: changes.filter((c) => c.kind === 'counter' && onPoint(c, e.line, v)),
        missing: [],
      };
      // C measured in the same run, at the same parameters: the reference for this release. A
      // variant without one of C's parameters (Bun's and Deno's thread pools have no size) takes
      // the one C point that agrees on every parameter it has.
      const refs = e.values.filter((r) => r.reference && r.experiment === experiment && r.metric === metric);
      const exact = refs.find((r) => paramsKey(r.params) === paramsKey(v.params));
      const within = refs.filter((r) => Object.entries(v.params).every(([k, x]) => r.params[k] === x));
      const ref = exact ?? (within.length === 1 ? within[0] : undefined);
      chart.points.push({
        version: e.version,
        date: e.released ?? e.date.slice(0, 10),
        dateSource: e.released ? 'changelog' : 'registry',
        value: v.value,
        ...(v.interval ? { interval: v.interval } : {}),
        reference: ref?.value ?? null,
        ...(ref?.interval ? { referenceInterval: ref.interval } : {}),
      });
      charts.set(key, chart);
    }
  }
  for (const chart of charts.values()) {
    const drawn = new Set(chart.points.map((p) => p.version));
    chart.missing = sorted
      .filter((e) => e.line === chart.line && !drawn.has(e.version))
      .map((e) => ({ version: e.version, why: whyMissing(e, chart) }));
  }
  return [...charts.values()];
}

type Point = { experiment: string; variant: string; params: Record<string, number | string> };

const onPoint = (c: ReleaseChange, line: string, v: Point) =>
  c.line === line &&
  c.experiment === v.experiment &&
  c.variant === v.variant &&
  paramsKey(c.params) === paramsKey(v.params);

/**
 * Why a measured release has no value on a chart: the sweep's own problem line for the point
 * (its benchmark id names experiment, variant and parameters), the experiment not measured with
 * it, or a run that succeeded without this metric.
 */
function whyMissing(e: ReleaseEntry, c: Pick<RuntimeChart, 'experiment' | 'variant' | 'params'>): string {
  if (!e.experiments.includes(c.experiment)) return `${c.experiment} was not measured with this release`;
  const params = Object.entries(c.params).map(([k, v]) => `${k}=${v}`);
  const problem = e.problems.find(
    (p) => p.startsWith(`${c.experiment}/${c.variant}/`) && params.every((kv) => p.split(':')[0]!.includes(kv)),
  );
  if (problem) return problem.slice(problem.indexOf(':') + 1).trim();
  return 'the run has no value for this metric (a fit too poor to report is withheld)';
}

/** Experiments with release values, sorted. */
export function releaseExperiments(entries: readonly ReleaseEntry[]): string[] {
  return [...new Set(entries.flatMap((e) => e.values.map((v) => v.experiment)))].sort();
}
