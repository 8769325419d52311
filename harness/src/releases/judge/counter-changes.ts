/**
 * Exact counter changes between runtime releases: each suite point's deterministic counters
 * (syscalls by name) along a line, release by release in version order. Counts need no
 * statistics: a counter changed between two consecutive releases when every trace of each
 * release gave one count and the two counts differ. A count the traces of one release disagree
 * on (futex of a threaded runtime) says nothing either way and is never called a change; nor is a
 * release traced once. Pure.
 */

import type { ReleaseEntry } from '../../formats/release-store-format.js';
import { SYSCALL_PREFIX } from '../../model/metrics.js';
import { compareVersions } from '../../model/runtime-release.js';
import { type BisectStep, narrowStep, type SeriesKey } from './changes.js';

/** Traces a release needs before its counts are called exact. */
const MIN_TRACES = 2;

/** The sum of the others: a change in it is always one of a named call's, which says more. */
const SUMMARY_COUNTERS = new Set([`${SYSCALL_PREFIX}total`]);

export interface CounterSeries extends SeriesKey {
  points: { version: string; traces: number[] }[];
}

export interface CounterCandidate {
  series: CounterSeries;
  from: string;
  to: string;
  /** The count per run before and after. */
  before: number;
  after: number;
}

/** The one count every trace gave, or undefined (traced too few times, or the traces disagree). */
export function exactCount(traces: readonly number[]): number | undefined {
  if (traces.length < MIN_TRACES) return undefined;
  return traces.every((t) => t === traces[0]) ? traces[0] : undefined;
}

const pointKey = (line: string, p: { experiment: string; variant: string; params: object }) =>
  `${line}|${p.experiment}|${p.variant}|${JSON.stringify(p.params)}`;

/**
 * The JavaScript points' counters of a profile's releases as one series per counter, in version
 * order. strace lists only the calls made: where a point was traced in a release, a counter it
 * lacks there was 0 in every trace.
 */
export function counterSeries(entries: readonly ReleaseEntry[], profile: string): CounterSeries[] {
  const points = new Map<string, { e: ReleaseEntry; c: NonNullable<ReleaseEntry['counters']>[number] }[]>();
  for (const e of entries) {
    if (e.profile !== profile) continue;
    for (const c of e.counters ?? []) {
      if (c.reference) continue;
      const k = pointKey(e.line, c);
      points.set(k, [...(points.get(k) ?? []), { e, c }]);
    }
  }
  const out: CounterSeries[] = [];
  for (const list of points.values()) {
    list.sort((a, b) => compareVersions(a.e.version, b.e.version));
    const names = [...new Set(list.flatMap(({ c }) => Object.keys(c.counts)))].sort();
    const { e: first, c: point } = list[0]!;
    for (const metric of names) {
      if (SUMMARY_COUNTERS.has(metric)) continue;
      out.push({
        family: first.family,
        line: first.line,
        experiment: point.experiment,
        variant: point.variant,
        params: point.params,
        metric,
        points: list.map(({ e, c }) => ({
          version: e.version,
          traces: c.counts[metric] ?? (Object.values(c.counts)[0] ?? []).map(() => 0),
        })),
      });
    }
  }
  return out;
}

/** Every pair of consecutive releases whose exact counts differ. */
export function detectCounterChanges(series: readonly CounterSeries[]): CounterCandidate[] {
  const out: CounterCandidate[] = [];
  for (const s of series) {
    for (let i = 1; i < s.points.length; i++) {
      const a = exactCount(s.points[i - 1]!.traces);
      const b = exactCount(s.points[i]!.traces);
      if (a === undefined || b === undefined || a === b) continue;
      out.push({ series: s, from: s.points[i - 1]!.version, to: s.points[i]!.version, before: a, after: b });
    }
  }
  return out;
}

/**
 * Bisection's step for a counter change: an intermediate build whose every trace still gives the
 * old count is "before"; any other (a new count, or traces that disagree) is where it changed. A
 * build measured without enough traces cannot say, and is passed over.
 */
export function counterBisectStep(
  c: Pick<CounterCandidate, 'from' | 'to' | 'before'>,
  between: readonly string[],
  measured: ReadonlyMap<string, readonly number[]>,
): BisectStep {
  return narrowStep(c, between, measured, (traces) =>
    traces.length < MIN_TRACES ? undefined : exactCount(traces) === c.before,
  );
}

/** "syscalls.openat: 40 → 44 per run" */
export function counterText(metric: string, before: number, after: number): string {
  return `${metric}: ${before} → ${after} per run`;
}
