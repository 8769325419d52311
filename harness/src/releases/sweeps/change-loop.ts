/**
 * What every kind of change between releases shares (timing, counters, counted work:
 * ./find-changes.ts, ./find-work-changes.ts): how a point is named, what a line's measured builds
 * hold, bisection by measuring the registry's builds between two releases, and the one loop that
 * narrows and records each candidate of a kind.
 */

import type { ReleaseChange, ReleaseIndexFile } from '../../formats/release-store-format.js';
import { registryReleases } from '../../machine/release-packages.js';
import { harnessMetric } from '../../model/metrics.js';
import type { Profile } from '../../model/profiles.js';
import { type Release, releasesBetween } from '../../model/release-catalog.js';
import { paramText } from '../../model/select.js';
import { type BisectStep, percent, type SeriesKey } from '../judge/changes.js';
import { readReleaseIndex } from '../release-files.js';
import { measureReleases, type SweepOptions } from './sweep.js';

export type Point = Pick<SeriesKey, 'experiment' | 'variant' | 'params'>;

/** "wc readsync bs 65536 read_cost" (the metric left out when not given) */
export function pointText(p: Point, metric?: string): string {
  const params = Object.entries(p.params).map(([k, v]) => paramText(k, v));
  return [p.experiment, p.variant, ...params, ...(metric ? [metric] : [])].join(' ');
}

export const samePoint = (a: Point, b: Point) =>
  a.experiment === b.experiment && a.variant === b.variant && JSON.stringify(a.params) === JSON.stringify(b.params);

/** A change record's name of its series: the line, the point, the metric (nothing else the series holds). */
export const named = (s: SeriesKey): SeriesKey => ({
  family: s.family,
  line: s.line,
  experiment: s.experiment,
  variant: s.variant,
  params: s.params,
  metric: s.metric,
});

/** A line's measured builds, version -> what bisection compares (a value, a counter's traces, counts). */
export type Measured<T> = (index: ReleaseIndexFile) => Map<string, T>;

/** A change as found: its series and the two releases around it (narrowed in place by bisection). */
export interface Range {
  series: Point & { family: string; line: string };
  from: string;
  to: string;
}

export type Span = { from: string; to: string };

/** What bisection needs: where to measure, at which profile, and how many builds per change. */
export interface LoopOptions {
  root: string;
  storeDir: string;
  profile: Profile;
  workDir: string;
  /** Intermediate builds measured per candidate at most (0: no bisection). */
  bisectSteps: number;
  /** Measures builds for bisection (default: the release sweep); tests pass a fake that publishes fixtures. */
  measure?: (opts: SweepOptions) => Promise<unknown>;
  /** The registry's builds of a family (default: the registry, asked once per run); tests pass saved answers. */
  releasesOf?: (family: string) => Promise<Release[]>;
  log?: (m: string) => void;
}

/** What every kind's loop works with: the options, this machine, the registry's builds per family. */
export interface Ctx<O extends LoopOptions = LoopOptions> {
  opts: O;
  machine: string;
  catalog: (family: string) => Promise<Release[]>;
}

/** The registry's builds of each family, asked once per run. */
export function catalogs(releasesOf: (family: string) => Promise<Release[]> = registryReleases) {
  const known = new Map<string, Release[]>();
  return async (family: string): Promise<Release[]> => {
    if (!known.has(family)) known.set(family, await releasesOf(family));
    return known.get(family)!;
  };
}

/** Narrows a change through the registry's builds between its releases, measuring them. */
async function bisect<T>(
  c: Range,
  catalog: readonly Release[],
  opts: LoopOptions,
  machine: string,
  measured: Measured<T>,
  step: (between: readonly string[], m: ReadonlyMap<string, T>) => BisectStep,
): Promise<Span | undefined> {
  const between = releasesBetween(catalog, c.series.line, c.from, c.to).map((r) => r.version);
  const measure = opts.measure ?? measureReleases;
  for (let i = 0; i <= opts.bisectSteps; i++) {
    const next = step(between, measured(readReleaseIndex(opts.storeDir, machine)));
    if (next.kind === 'narrowed') return { from: next.from, to: next.to };
    if (i === opts.bisectSteps) break;
    opts.log?.(`bisecting ${c.series.family} ${c.from} → ${c.to}: measuring ${next.version}`);
    await measure({
      root: opts.root,
      storeDir: opts.storeDir,
      profile: opts.profile,
      releases: catalog.filter((r) => r.version === next.version),
      experiments: [c.series.experiment],
      workDir: opts.workDir,
      ...(opts.log ? { log: opts.log } : {}),
    });
  }
  return undefined; // the step budget ran out: the range stays as detected
}

/** How a kind of change is narrowed: what bisection compares in each build, and its step. */
export interface Bisection<C extends Range, T> {
  measured: (c: C) => Measured<T>;
  step: (c: C, between: readonly string[], m: ReadonlyMap<string, T>) => BisectStep;
}

/**
 * The one loop over a kind's candidates: each bisected when asked (its range moved to the
 * narrowed one), then recorded with the range the detector saw.
 */
export async function eachChange<C extends Range, T>(
  candidates: readonly C[],
  bisection: Bisection<C, T>,
  record: (c: C, detected: Span, narrowed: Span | undefined) => Promise<ReleaseChange>,
  ctx: Ctx,
): Promise<ReleaseChange[]> {
  const out: ReleaseChange[] = [];
  for (const c of candidates) {
    const detected = { from: c.from, to: c.to };
    const narrowed =
      ctx.opts.bisectSteps > 0
        ? await bisect(c, await ctx.catalog(c.series.family), ctx.opts, ctx.machine, bisection.measured(c), (b, m) =>
            bisection.step(c, b, m),
          )
        : undefined;
    if (narrowed) Object.assign(c, narrowed);
    out.push(await record(c, detected, narrowed));
    ctx.opts.log?.(out.at(-1)!.text);
  }
  return out;
}

/**
 * The suite's timed metrics of a change's point under its two releases: what the change did to
 * the timings. Counted work is left out: it is a change of its own kind, not a timing.
 */
export function effectsOf(c: Range, index: ReleaseIndexFile, profile: string): NonNullable<ReleaseChange['effects']> {
  const at = (version: string) =>
    index.releases.find((e) => e.profile === profile && e.line === c.series.line && e.version === version);
  const timed = (v: { metric: string; reference: boolean } & Point) =>
    !v.reference && harnessMetric(v.metric)?.kind !== 'work' && samePoint(v, c.series);
  const before = at(c.from)?.values.filter(timed) ?? [];
  const after = at(c.to)?.values ?? [];
  return before.flatMap((b) => {
    const a = after.find((v) => timed(v) && v.metric === b.metric);
    return a ? [{ metric: b.metric, unit: b.unit, direction: b.direction, from: b.value, to: a.value }] : [];
  });
}

/** "; measured beside it: read_cost +2.1%, startup -0.4%" (empty when nothing was) */
export function effectText(effects: readonly { metric: string; from: number; to: number }[]): string {
  const text = effects.map((e) => `${e.metric} ${percent(e.to / e.from)}`).join(', ');
  return text ? `; measured beside it: ${text}` : '';
}
