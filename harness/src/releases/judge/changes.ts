/**
 * Changes between runtime releases: the site's change-point detection (./changepoints.ts) run
 * over each line's releases in version order, one series per suite point and watched metric, and
 * bisection through the intermediate builds the registry has (Node patch releases between two
 * minors, Bun canaries) to narrow a change to two adjacent builds. Pure: measuring a build and the
 * paired confirmation are the pipeline's (releases/sweeps/find-changes.ts).
 */

import { detectChangePoints } from '../../analysis/changepoints.js';
import type { ReleaseEntry } from '../../formats/release-store-format.js';
import type { Direction } from '../../model/metrics.js';
import { compareVersions } from '../../model/runtime-release.js';

/**
 * How many times its noise a step between releases must be to become a candidate (the site's
 * commit trends use 4). Detection over releases is a screen, not the verdict: every candidate is
 * measured again in pairs before it is listed, so it can be more sensitive. A release's value on
 * the quick profile is noisy, and at 4 a real step the pairs confirm can go unseen; 3 lets it
 * through and leaves the pairs few candidates to judge (docs/releases.md).
 */
const RELEASE_NOISE_FACTOR = 3;

/** What names a series: one suite point's metric along one line (counter-changes.ts's too). */
export interface SeriesKey {
  family: ReleaseEntry['family'];
  line: string;
  experiment: string;
  variant: string;
  params: Record<string, number | string>;
  metric: string;
}

/** One suite point's values along a line, in version order. */
export interface ReleaseSeries extends SeriesKey {
  unit: string;
  direction: Direction;
  points: { version: string; date: string; value: number }[];
}

export interface Candidate {
  series: ReleaseSeries;
  /** The last release before the change and the first after it, as measured. */
  from: string;
  to: string;
  /** after / before, of the segment medians. */
  ratio: number;
  /** Typical values before and after (medians of the segments either side). */
  before: number;
  after: number;
}

const seriesKey = (e: ReleaseEntry, v: ReleaseEntry['values'][number]) =>
  `${e.line}|${v.experiment}|${v.variant}|${JSON.stringify(v.params)}|${v.metric}`;

/**
 * The JavaScript suite values of a profile's releases as series; only each experiment's watched
 * metrics (`watched(experiment)`: every metric of its suite) are followed.
 */
export function releaseSeries(
  entries: readonly ReleaseEntry[],
  profile: string,
  watched: (experiment: string) => readonly string[],
): ReleaseSeries[] {
  const out = new Map<string, ReleaseSeries>();
  for (const e of entries) {
    if (e.profile !== profile) continue;
    for (const v of e.values) {
      if (v.reference || !watched(v.experiment).includes(v.metric)) continue;
      const s = out.get(seriesKey(e, v)) ?? {
        family: e.family,
        line: e.line,
        experiment: v.experiment,
        variant: v.variant,
        params: v.params,
        metric: v.metric,
        unit: v.unit,
        direction: v.direction,
        points: [],
      };
      s.points.push({ version: e.version, date: e.date, value: v.value });
      out.set(seriesKey(e, v), s);
    }
  }
  for (const s of out.values()) s.points.sort((a, b) => compareVersions(a.version, b.version));
  return [...out.values()];
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Change points of every series, as ranges between two consecutive measured releases. */
export function detectReleaseChanges(series: readonly ReleaseSeries[]): Candidate[] {
  const out: Candidate[] = [];
  for (const s of series) {
    const values = s.points.map((p) => p.value);
    const cps = detectChangePoints(values, undefined, RELEASE_NOISE_FACTOR);
    cps.forEach((cp, i) => {
      const start = cps[i - 1]?.index ?? 0;
      const end = cps[i + 1]?.index ?? values.length;
      out.push({
        series: s,
        from: s.points[cp.index - 1]!.version,
        to: s.points[cp.index]!.version,
        ratio: cp.ratio,
        before: median(values.slice(start, cp.index)),
        after: median(values.slice(cp.index, end)),
      });
    });
  }
  return out;
}

export type BisectStep =
  | { kind: 'measure'; version: string }
  | { kind: 'narrowed'; from: string; to: string; steps: number };

/**
 * One step of bisection over the builds between a candidate's two releases. Each measured
 * intermediate build is classified by which level it is closer to (in log terms, so a step
 * means the same at any scale); the range shrinks to the last build like "before" and the first
 * like "after". If unmeasured builds remain strictly inside, the middle one is the next to
 * measure; otherwise the range is as narrow as the registry allows.
 */
export function bisectStep(
  c: Pick<Candidate, 'from' | 'to' | 'before' | 'after'>,
  between: readonly string[],
  measured: ReadonlyMap<string, number>,
): BisectStep {
  const lb = Math.log(c.before);
  const la = Math.log(c.after);
  return narrowStep(c, between, measured, (x) =>
    x > 0 ? Math.abs(Math.log(x) - lb) <= Math.abs(Math.log(x) - la) : undefined,
  );
}

/**
 * Bisection's step for any measured quantity: `isBefore` says whether a build's measurement is
 * still the "before" level (a counter: every trace still at the old count), undefined when it
 * cannot say (measured, but no usable value). Builds without a measurement are left to measure.
 */
export function narrowStep<T>(
  c: { from: string; to: string },
  between: readonly string[],
  measured: ReadonlyMap<string, T>,
  isBefore: (x: T) => boolean | undefined,
): BisectStep {
  const inside = [...between]
    .filter((v) => compareVersions(v, c.from) > 0 && compareVersions(v, c.to) < 0)
    .sort(compareVersions);
  let lo = c.from;
  let hi = c.to;
  let steps = 0;
  for (const v of inside) {
    const x = measured.get(v);
    const before = x === undefined ? undefined : isBefore(x);
    if (before === undefined) continue;
    steps++;
    if (before) lo = v;
    else {
      hi = v;
      break;
    }
  }
  const open = inside.filter((v) => compareVersions(v, lo) > 0 && compareVersions(v, hi) < 0 && !measured.has(v));
  if (open.length) return { kind: 'measure', version: open[(open.length - 1) >> 1]! };
  return { kind: 'narrowed', from: lo, to: hi, steps };
}

/** "+18%" / "-4.2%": a ratio as a signed percentage. */
export function percent(ratio: number): string {
  const p = (ratio - 1) * 100;
  const digits = Math.abs(p) < 10 ? 1 : 0;
  return `${p >= 0 ? '+' : ''}${p.toFixed(digits)}%`;
}
