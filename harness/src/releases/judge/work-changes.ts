/**
 * Changes of counted work between runtime releases: each suite point's instructions, counted under
 * Valgrind with the runtime's deterministic settings, release by release in version order along
 * a line. Two consecutive releases' counts are compared as a paired diff compares two sides'
 * (counts/count-verdict.ts compareCounts): each release's own counts must agree within
 * the one tolerance of counted work, and the two must differ beyond it. A release whose counts
 * disagree says nothing either way and is never called a change; nor is a point whose counts are
 * evidence (threads, the kernel or a cold cache decide its cost), nor the native reference. Pure.
 */

import { median } from '../../analysis/two-sample.js';
import { COUNT_TOLERANCE, type CountedRun, relSpread } from '../../counts/count-rule.js';
import { compareCounts } from '../../counts/count-verdict.js';
import type { ReleaseEntry, WorkPoint } from '../../formats/release-store-format.js';
import { groupDigits } from '../../lib/format.js';
import { compareVersions } from '../../model/runtime-release.js';
import { type BisectStep, narrowStep, type SeriesKey } from './changes.js';

/** What a point's work is compared on: per operation where it is a fit (start-up cancelled), else per run. */
export type WorkMetric = 'instructions_per_op' | 'instructions';

export interface WorkSeries extends SeriesKey {
  metric: WorkMetric;
  /** One entry per release whose point was counted: the counts its repeats gave (empty: counted, not comparable). */
  points: { version: string; counts: number[] }[];
}

export interface WorkCandidate {
  series: WorkSeries;
  from: string;
  to: string;
  /** The counts of the release before, which bisection holds every build against. */
  fromCounts: number[];
  /** The typical count before and after (medians), and after / before - 1. */
  before: number;
  after: number;
  change: number;
}

/** A release whose counts of a point were not compared: its repeats disagreed beyond the tolerance. */
export interface WorkUndecided {
  series: WorkSeries;
  version: string;
  spread: number;
}

/**
 * The counts one release's runs give, one per repeat at the point's own size: per operation for a
 * fit (each own-size count less the smallest size's, over the operations between them), else per
 * run. A fit's smallest size is counted once, so its own variation is not in the spread; the
 * repeats at the own size are.
 */
export function workCounts(runs: readonly CountedRun[]): { metric: WorkMetric; counts: number[] } {
  // A fit's larger counted size ('large'; 'own' in entries counted before the span was its own).
  const small = runs.filter((r) => r.size === 'small');
  const own = runs.filter((r) => r.size === 'large' || r.size === 'own');
  const xSmall = small[0]?.x;
  const base = small.length ? median(small.map((r) => r.instructions)) : undefined;
  const perOp = own.map((r) =>
    base !== undefined && xSmall !== undefined && r.x !== undefined && r.x > xSmall
      ? (r.instructions - base) / (r.x - xSmall)
      : undefined,
  );
  if (own.length && perOp.every((p): p is number => p !== undefined && p > 0))
    return { metric: 'instructions_per_op', counts: perOp };
  return { metric: 'instructions', counts: own.map((r) => r.instructions) };
}

/** Whether a point's counts may be called: counted, and deciding (not evidence). */
const decides = (w: WorkPoint): w is WorkPoint & { counts: { status: 'ok' } } =>
  w.counts.status === 'ok' && w.counts.role === 'decides';

const pointKey = (line: string, p: { experiment: string; variant: string; params: object }, metric: string) =>
  `${line}|${p.experiment}|${p.variant}|${JSON.stringify(p.params)}|${metric}`;

/** The JavaScript points' counted work of a profile's releases as one series per point, in version order. */
export function workSeries(entries: readonly ReleaseEntry[], profile: string): WorkSeries[] {
  const out = new Map<string, WorkSeries>();
  for (const e of entries) {
    if (e.profile !== profile) continue;
    for (const w of e.work ?? []) {
      if (w.reference || !decides(w)) continue;
      const { metric, counts } = workCounts(w.counts.runs);
      const key = pointKey(e.line, w, metric);
      const s = out.get(key) ?? {
        family: e.family,
        line: e.line,
        experiment: w.experiment,
        variant: w.variant,
        params: w.params,
        metric,
        points: [],
      };
      s.points.push({ version: e.version, counts });
      out.set(key, s);
    }
  }
  for (const s of out.values()) s.points.sort((a, b) => compareVersions(a.version, b.version));
  return [...out.values()];
}

/**
 * Every pair of consecutive releases whose counts differ beyond the tolerance, and the releases
 * whose own counts disagreed. Such a release says nothing, and hides nothing either: it is passed
 * over, and the releases either side of it are compared with each other (a bisection build that
 * did not repeat its count leaves the change where it was found).
 */
export function detectWorkChanges(series: readonly WorkSeries[]): {
  changes: WorkCandidate[];
  undecided: WorkUndecided[];
} {
  const changes: WorkCandidate[] = [];
  const undecided: WorkUndecided[] = [];
  for (const s of series) {
    let before: WorkSeries['points'][number] | undefined;
    for (const p of s.points) {
      if (!p.counts.length) continue;
      const spread = relSpread(p.counts);
      if (spread > COUNT_TOLERANCE) {
        undecided.push({ series: s, version: p.version, spread });
        continue;
      }
      const v = before && compareCounts(before.counts, p.counts);
      if (before && v?.kind === 'changed')
        changes.push({
          series: s,
          from: before.version,
          to: p.version,
          fromCounts: before.counts,
          before: v.base,
          after: v.head,
          change: v.change,
        });
      before = p;
    }
  }
  return { changes, undecided };
}

/**
 * Bisection's step for a work change: an intermediate build whose counts are the same work as the
 * release before (within the tolerance) is "before"; one whose counts changed beyond it is "after";
 * one whose own counts disagree, or that has none, cannot say and is passed over.
 */
export function workBisectStep(
  c: Pick<WorkCandidate, 'from' | 'to' | 'fromCounts'>,
  between: readonly string[],
  measured: ReadonlyMap<string, readonly number[]>,
): BisectStep {
  return narrowStep(c, between, measured, (counts) => {
    if (!counts.length) return undefined;
    const v = compareCounts(c.fromCounts, counts);
    return v.kind === 'not-deterministic' ? undefined : v.kind === 'same';
  });
}

/** A count as people read it: whole instructions grouped ("15,243"), small ones to a tenth ("17.0"). */
export function countText(n: number): string {
  return Math.abs(n) >= 100 ? groupDigits(Math.round(n)) : n.toFixed(1);
}

/**
 * after / before as a signed percentage, to a hundredth under 1%: a work change is at least the
 * tolerance (1%), and "-1.0%" beside "agree within 1.0%" would not say it is beyond it.
 */
export function workPercent(ratio: number): string {
  const p = (ratio - 1) * 100;
  return `${p >= 0 ? '+' : ''}${p.toFixed(Math.abs(p) < 1 ? 2 : 1)}%`;
}

/** "instructions per read" (a fit's operations are its x, in the plural: "reads"), "instructions per run". */
export function workLabel(metric: WorkMetric, operations?: string): string {
  if (metric === 'instructions') return 'instructions per run';
  return `instructions per ${operations ? operations.replace(/s$/, '') : 'operation'}`;
}
