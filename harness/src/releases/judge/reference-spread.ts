/**
 * How steady the reference is over a sweep: the native variants measured beside every release do
 * not change between releases, so their spread across releases is the machine's and the
 * measurement's, the floor under any change the release axis can call. Per suite point and
 * metric: (max - min) / median of its per-release values. And what a release cost to measure.
 * Pure.
 */

import type { ReleaseEntry } from '../../formats/release-store-format.js';
import { paramText } from '../../model/select.js';

/** The most a reference may spread over a quiet sweep before the axis is noisier than its changes. */
export const STEADY_SPREAD = 0.1;
/** The fewest releases a sweep needs before its spread says anything about the reference. */
export const STEADY_RELEASES = 20;

export interface SpreadRow {
  experiment: string;
  variant: string;
  params: Record<string, number | string>;
  metric: string;
  unit: string;
  /** Releases with a value of this point and metric. */
  releases: number;
  min: number;
  median: number;
  max: number;
  /** (max - min) / median; undefined when the median is 0. */
  spread: number | undefined;
  /** The widest per-release interval relative to its value, where the values carry one. */
  widestInterval: number | undefined;
}

export interface SpreadFilter {
  profile: string;
  /** Only these release lines (default: all). */
  lines?: readonly string[];
  /** Only releases measured on or after this instant (ISO): one sweep out of a longer history. */
  measuredAfter?: string;
}

/** The entries a report covers. */
export function sweepEntries(entries: readonly ReleaseEntry[], f: SpreadFilter): ReleaseEntry[] {
  const after = f.measuredAfter === undefined ? undefined : Date.parse(f.measuredAfter);
  return entries.filter(
    (e) =>
      e.profile === f.profile &&
      (!f.lines?.length || f.lines.includes(e.line)) &&
      (after === undefined || Date.parse(e.measured) >= after),
  );
}

const median = (sorted: readonly number[]) => {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** One row per reference point and metric, in experiment, variant, parameters, metric order. */
export function referenceSpread(entries: readonly ReleaseEntry[]): SpreadRow[] {
  const groups = new Map<
    string,
    {
      row: Omit<SpreadRow, 'releases' | 'min' | 'median' | 'max' | 'spread' | 'widestInterval'>;
      values: number[];
      widths: number[];
    }
  >();
  for (const e of entries)
    for (const v of e.values) {
      if (!v.reference) continue;
      const params = Object.fromEntries(Object.entries(v.params).sort(([a], [b]) => a.localeCompare(b)));
      const key = JSON.stringify([v.experiment, v.variant, params, v.metric]);
      const g = groups.get(key) ?? {
        row: { experiment: v.experiment, variant: v.variant, params, metric: v.metric, unit: v.unit },
        values: [],
        widths: [],
      };
      g.values.push(v.value);
      if (v.interval && v.value !== 0) g.widths.push(Math.abs(v.interval[1] - v.interval[0]) / Math.abs(v.value));
      groups.set(key, g);
    }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, g]) => {
      const xs = [...g.values].sort((a, b) => a - b);
      const mid = median(xs);
      return {
        ...g.row,
        releases: xs.length,
        min: xs[0]!,
        median: mid,
        max: xs.at(-1)!,
        spread: mid === 0 ? undefined : (xs.at(-1)! - xs[0]!) / Math.abs(mid),
        widestInterval: g.widths.length ? Math.max(...g.widths) : undefined,
      };
    });
}

export interface SweepCost {
  /** Releases with a recorded cost (entries measured before costs were kept have none). */
  releases: number;
  median: number;
  max: number;
  total: number;
  /** Of it, counting instructions under Valgrind, over the releases that counted (absent: none did). */
  counting?: { releases: number; median: number; max: number };
}

/** What measuring a release cost, in wall seconds, over the entries that recorded it. */
export function sweepCost(entries: readonly ReleaseEntry[]): SweepCost | undefined {
  const xs = entries.flatMap((e) => (e.seconds === undefined ? [] : [e.seconds])).sort((a, b) => a - b);
  if (!xs.length) return undefined;
  const cs = entries.flatMap((e) => (e.countSeconds === undefined ? [] : [e.countSeconds])).sort((a, b) => a - b);
  return {
    releases: xs.length,
    median: median(xs),
    max: xs.at(-1)!,
    total: xs.reduce((a, b) => a + b, 0),
    ...(cs.length ? { counting: { releases: cs.length, median: median(cs), max: cs.at(-1)! } } : {}),
  };
}

/** "threadpool c-pool work read cache warm pool 4 latency_p50" */
export function rowName(r: Pick<SpreadRow, 'experiment' | 'variant' | 'params' | 'metric'>): string {
  return [r.experiment, r.variant, ...Object.entries(r.params).map(([k, v]) => paramText(k, v)), r.metric].join(' ');
}

/** Whether a row meets the bar: enough releases, and a spread within it. */
export function steady(r: SpreadRow): boolean {
  return r.releases >= STEADY_RELEASES && r.spread !== undefined && r.spread <= STEADY_SPREAD;
}
