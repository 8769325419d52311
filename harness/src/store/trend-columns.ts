/**
 * Trend columns: a shard (one metric of one experiment over one window) holds, per series, one
 * value per commit. A commit's column is always recomputed from its merged run, so publishing is
 * idempotent and a benchmark that failed when measured again leaves a gap, not its old value. A
 * counted-work metric's series also keeps, per commit, what its count was (its `counts` record):
 * the site must tell a count to act on from one that is evidence or did not repeat. Pure.
 */

import {
  type CountFacts,
  decodePrograms,
  decodeRuns,
  encodePrograms,
  encodeRuns,
  roundSpread,
  roundValue,
  STORE_SCHEMA,
  sameFacts,
  seriesKey,
  UNRECORDED_WORKLOAD,
} from '../formats/parts/store-layout.js';
import type { Benchmark } from '../formats/results-format.js';
import type { ShardFile } from '../formats/trend-store-format.js';
import { compareText } from '../lib/compare-text.js';
import { harnessMetric } from '../model/metrics.js';

/** Metrics worth a trend line (the catalogue's rule): the full syscall breakdown stays in the run file. */
export { trended } from '../model/metrics.js';

/** A series being rebuilt: its columns decoded. */
type Open = Omit<ShardFile['series'][string], 'counts'> & {
  programColumn: (string | null)[];
  countsColumn: (CountFacts | null)[];
};

/** What a benchmark's count was, from its `counts` record; null when it has none that counted. */
function factsOf(b: Pick<Benchmark, 'counts'>): CountFacts | null {
  const c = b.counts;
  if (c?.status !== 'ok') return null;
  return {
    role: c.role,
    ...(c.because ? { because: c.because } : {}),
    deterministic: c.deterministic,
    settings: c.settings,
  };
}

/** The benchmark's metric for the shard's column, or undefined when it puts no value there. */
function columnMetric(b: Benchmark, place: ShardPlace): Benchmark['metrics'][string] | undefined {
  const m = b.metrics[place.metric];
  if (b.status !== 'ok' || b.experiment !== place.experiment || !m || !Number.isFinite(m.value)) return undefined;
  // A count per operation that is not positive (a run from before the rule of docs/counts.md,
  // "not measurable at this span") is no cost: a gap in the trend, never a negative point.
  if (place.metric === 'instructions_per_op' && m.value <= 0) return undefined;
  return m;
}

export interface ShardPlace {
  profile: string;
  window: string;
  experiment: string;
  metric: string;
}

/**
 * The shard with `sha`'s column set from `benchmarks` (the commit's merged run, this experiment's
 * points). `rank` orders commits (the window's order) so columns stay chronological.
 */
export function projectColumn(
  prev: ShardFile | undefined,
  place: ShardPlace,
  sha: string,
  rank: (sha: string) => number,
  benchmarks: readonly Benchmark[],
): ShardFile {
  const work = harnessMetric(place.metric)?.kind === 'work';
  const commits = [...(prev?.commits ?? [])];
  let col = commits.indexOf(sha);
  const inserted = col < 0;
  if (inserted) {
    col = commits.findIndex((c) => rank(c) > rank(sha));
    if (col < 0) col = commits.length;
    commits.splice(col, 0, sha);
  }
  const n = commits.length;
  // Decoded and widened to the new commit list; the commit's column cleared.
  const open = new Map<string, Open>();
  for (const [key, { counts, ...s }] of Object.entries(prev?.series ?? {})) {
    const programColumn = decodePrograms(s.programs, n - (inserted ? 1 : 0));
    const countsColumn = counts
      ? decodeRuns(counts, n - (inserted ? 1 : 0))
      : new Array<CountFacts | null>(n - (inserted ? 1 : 0)).fill(null);
    const values = [...s.values];
    const ranges = [...s.ranges];
    if (inserted) {
      values.splice(col, 0, null);
      ranges.splice(col, 0, null);
      programColumn.splice(col, 0, null);
      countsColumn.splice(col, 0, null);
    }
    values[col] = null;
    ranges[col] = null;
    programColumn[col] = null;
    countsColumn[col] = null;
    open.set(key, { ...s, values, ranges, programColumn, countsColumn });
  }
  for (const b of benchmarks) {
    const m = columnMetric(b, place);
    if (!m) continue;
    const workload = b.workload ?? UNRECORDED_WORKLOAD;
    const key = seriesKey(b.id, workload, m.unit);
    let s = open.get(key);
    if (!s) {
      s = {
        id: b.id,
        variant: b.variant,
        params: b.params,
        workload,
        unit: m.unit,
        direction: m.direction,
        values: Array.from({ length: n }, () => null),
        ranges: Array.from({ length: n }, () => null),
        programs: [],
        programColumn: Array.from({ length: n }, () => null),
        countsColumn: Array.from({ length: n }, () => null),
      };
      open.set(key, s);
    }
    s.values[col] = roundValue(m.value);
    s.ranges[col] = m.stats && m.stats.n > 1 ? roundSpread(m.stats.stddev) : null;
    s.programColumn[col] = b.definition ?? null;
    s.countsColumn[col] = work ? factsOf(b) : null;
  }
  const series: ShardFile['series'] = {};
  for (const [key, { programColumn, countsColumn, ...s }] of [...open].sort(([a], [b]) => compareText(a, b))) {
    // A series with no value left in this window (its benchmark now fails, or moved to another workload) is dropped here.
    if (s.values.every((v) => v === null)) continue;
    series[key] = {
      ...s,
      programs: encodePrograms(programColumn),
      ...(countsColumn.some((f) => f !== null) ? { counts: encodeRuns(countsColumn, sameFacts) } : {}),
    };
  }
  return {
    schema: STORE_SCHEMA,
    profile: place.profile,
    window: place.window,
    experiment: place.experiment,
    metric: place.metric,
    commits,
    series,
  };
}
