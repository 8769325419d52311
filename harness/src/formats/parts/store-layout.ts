/**
 * The trend store's path contract, shared by its writer (store/publish-run.ts) and its reader (the site,
 * gh-pages/src/data.ts): no zod here, so the browser bundle stays small. The schemas of the files
 * are in ./store.ts; docs/pages.md describes the layout for people.
 *
 *   machines.json                                  every machine and the profiles it has published
 *   <machine>/index.json                           every commit, with its run per profile (tools)
 *   <machine>/runs/<sha>/<profile>.json            a commit's results for one profile, merged
 *   <machine>/noise.json                           calibrated noise thresholds
 *   <machine>/marks.json                           commits whose numbers moved for a known reason (npm run pages)
 *   <machine>/trends/<profile>/catalog.json        windows, experiments and metrics, latest runs
 *   <machine>/trends/<profile>/<window>/commits.json             the window's commits
 *   <machine>/trends/<profile>/<window>/<experiment>/<metric>.json   its trend columns
 *   <machine>/trends/<profile>/<window>/regressions.json         change points (site build)
 *   <machine>/trends/<profile>/regressions.json    every change point, newest first (site build)
 *   <machine>/trends/<profile>/newest-pair.json    Compare's first view: its two newest commits compared (site build)
 *   releases/<machine>/index.json                  runtime releases measured (npm run releases), with
 *                                                  their release-suite values, per profile
 *   releases/<machine>/<profile>/<line>/<version>/<experiment>.json   a release's results
 *   releases/<machine>/changes.json                changes between releases: confirmed ones newest
 *                                                  first, and the candidates still open
 *
 * Runtime releases are their own axis: they live under releases/ (a name no machine id takes,
 * since machine directories hold an index.json at their top), never in a commit's trend.
 * A profile's runs share one workload per benchmark (profiles fix the sizes): the site shows one
 * profile at a time. Data from before store v3 (which kept one run per commit whatever its
 * profile) is the pseudo-profile "legacy", shown apart and never merged into new series.
 */
import { compareText } from '../../lib/compare-text.js';
import type { Direction } from '../../model/metrics.js';

/**
 * 3: series keyed by workload, runs kept per profile and merged, trends sharded by window.
 * 4: a counted-work series says per commit what its count was (`counts`: role, determinism,
 * settings). Only an optional field was added, so a v3 file is read as it is (STORE_READS_FROM);
 * a harness or a site of v3 refuses a v4 file by its number instead of misreading it.
 */
export const STORE_SCHEMA = 4;

/** The oldest store version read as it is; older ones are refused (store/store-files.ts refuseBeforeV3). */
export const STORE_READS_FROM = 3;

/** The pseudo-profile of data migrated from store v2: profiles were not kept apart then. */
export const LEGACY_PROFILE = 'legacy';

/**
 * Commits per trend window. A window is a range of commit dates; new commits go into the newest
 * window until it holds this many, then a new one starts (a back-filled older commit joins the
 * window its date falls in). Small enough that the site's first chart stays well under its byte
 * budget, large enough that a year of daily commits is a handful of files per metric.
 */
export const WINDOW_COMMITS = 100;

/** The site loads windows newest first until it has at least this many commits. */
const RECENT_COMMITS = 60;

/**
 * The windows a view opens on: newest first until they hold RECENT_COMMITS commits, then `older`
 * more; oldest first. The site loads these, and the site build preloads them.
 */
export function recentWindows<W extends { commits: number }>(windows: readonly W[], older = 0): W[] {
  const out: W[] = [];
  let n = 0;
  let more = older;
  for (const w of [...windows].reverse()) {
    if (n >= RECENT_COMMITS && more-- <= 0) break;
    out.push(w);
    n += w.commits;
  }
  return out.reverse();
}

/** The order the site offers profiles in, and picks the first of that exists. */
const PROFILE_ORDER = ['standard', 'full', 'quick', 'smoke'] as const;

/** The profile shown when none is asked for: standard if it exists, else the next richest, legacy last. */
export function defaultProfile(available: readonly string[]): string | undefined {
  return sortProfiles(available)[0];
}

export function sortProfiles(available: readonly string[]): string[] {
  const rank = (p: string) => {
    const i = (PROFILE_ORDER as readonly string[]).indexOf(p);
    return p === LEGACY_PROFILE ? 1000 : i < 0 ? 100 : i;
  };
  return [...new Set(available)].sort((a, b) => rank(a) - rank(b) || compareText(a, b));
}

export const paths = {
  machines: () => 'machines.json',
  index: (machine: string) => `${machine}/index.json`,
  noise: (machine: string) => `${machine}/noise.json`,
  /** formats/marks-format.ts: a machine's trend marks, per commit. */
  marks: (machine: string) => `${machine}/marks.json`,
  /** v3 run files; legacy ones stay where store v2 put them (runs/<sha>.json, named by the index). */
  run: (machine: string, sha: string, profile: string) => `${machine}/runs/${sha}/${profile}.json`,
  trends: (machine: string, profile: string) => `${machine}/trends/${profile}`,
  catalog: (machine: string, profile: string) => `${machine}/trends/${profile}/catalog.json`,
  commits: (machine: string, profile: string, window: string) => `${machine}/trends/${profile}/${window}/commits.json`,
  shard: (machine: string, profile: string, window: string, experiment: string, metric: string) =>
    `${machine}/trends/${profile}/${window}/${experiment}/${metric}.json`,
  windowRegressions: (machine: string, profile: string, window: string) =>
    `${machine}/trends/${profile}/${window}/regressions.json`,
  regressions: (machine: string, profile: string) => `${machine}/trends/${profile}/regressions.json`,
  newestPair: (machine: string, profile: string) => `${machine}/trends/${profile}/newest-pair.json`,
  releaseIndex: (machine: string) => `${RELEASES_DIR}/${machine}/index.json`,
  releaseRun: (machine: string, profile: string, line: string, version: string, experiment: string) =>
    `${RELEASES_DIR}/${machine}/${profile}/${line}/${version}/${experiment}.json`,
  releaseChanges: (machine: string) => `${RELEASES_DIR}/${machine}/changes.json`,
};

/** marks.json's version (formats/marks-format.ts; here for the site, which reads it without zod). */
export const MARKS_SCHEMA = 1;

/** The store's folder of runtime releases (per machine under it). */
export const RELEASES_DIR = 'releases';

/**
 * 1: release entries with their suite values; changes confirmed by paired diffs.
 * 2: every field validated (patterns, caps, finite numbers) on import and on read
 * (formats/release-store-format.ts); adds, all optional, each release's upstream date and its
 * traced counters, counter changes beside timing ones with their timing effect, the dates'
 * sources, release notes and profiles.
 * 3: adds, optional, each release's counted work (instructions under Valgrind, per suite point and
 * counted run) and the time counting took, and work changes beside timing and counter ones. A
 * harness that knows 2 would skip every entry with work as a bad record and rewrite the file
 * without them: the version makes it refuse the file instead. Versions 1 and 2 are read as they are.
 */
export const RELEASES_SCHEMA = 3 as const;

/** A window's id: its position, zero-padded so ids sort as they come. */
export function windowId(ordinal: number): string {
  return String(ordinal).padStart(4, '0');
}

/**
 * One trend line: a benchmark, under one workload, in one unit. A changed workload (sizes,
 * input, placement) or unit starts a new series; a changed program stays on it (marked).
 */
export function seriesKey(id: string, workload: string, unit: string): string {
  return `${id}|${workload}|${unit}`;
}

/** What a series records for points measured before benchmarks carried a workload hash. */
export const UNRECORDED_WORKLOAD = 'unrecorded';

/** The order of commits everywhere in the store: by date, then by id. */
export function commitOrder(a: { date: string; sha: string }, b: { date: string; sha: string }): number {
  const ta = Date.parse(a.date);
  const tb = Date.parse(b.date);
  if (ta !== tb && Number.isFinite(ta) && Number.isFinite(tb)) return ta - tb;
  return a.sha < b.sha ? -1 : a.sha > b.sha ? 1 : 0;
}

/** Trend columns are rounded: 6 significant digits for values, 3 for spreads (far below any noise). */
export function roundValue(v: number): number {
  return Number(v.toPrecision(6));
}
export function roundSpread(v: number): number {
  return Number(v.toPrecision(3));
}

/** A column run-length encoded: [index where a run starts, its value or null]. */
export type Runs<T> = [number, T | null][];

/** Program hashes per commit, run-length encoded. */
export type ProgramRuns = Runs<string>;

export function decodeRuns<T>(runs: Runs<T>, length: number): (T | null)[] {
  const out = new Array<T | null>(length).fill(null);
  runs.forEach(([start, value], i) => {
    const end = Math.min(length, runs[i + 1]?.[0] ?? length);
    for (let k = Math.max(0, start); k < end; k++) out[k] = value;
  });
  return out;
}

/** Runs of equal values (`same`: by identity, or as the caller compares them) and of nulls. */
export function encodeRuns<T>(
  column: readonly (T | null)[],
  same: (a: T, b: T) => boolean = (a, b) => a === b,
): Runs<T> {
  const out: Runs<T> = [];
  column.forEach((v, i) => {
    const prev = column[i - 1];
    const equal = i > 0 && (v === null || prev === null || prev === undefined ? v === prev : same(v, prev));
    if (!equal) out.push([i, v]);
  });
  return out;
}

export const decodePrograms = (runs: ProgramRuns, length: number) => decodeRuns(runs, length);
export const encodePrograms = (column: readonly (string | null)[]) => encodeRuns(column);

/**
 * What a counted-work series' count was at one commit (the run's `counts` record, ../results-format.ts):
 * whether it decides or is evidence only, whether its repeats agreed within the tolerance, and
 * the settings it was counted with. A count that is evidence or not deterministic is no trend to
 * act on; the site says so.
 */
export interface CountFacts {
  role: 'decides' | 'evidence';
  because?: string;
  deterministic: boolean;
  settings: string;
}

/** Two commits' facts are one run of the column when every field agrees. */
export const sameFacts = (a: CountFacts, b: CountFacts) =>
  a.role === b.role && a.because === b.because && a.deterministic === b.deterministic && a.settings === b.settings;

/**
 * How a program hash was computed: "i2-…" names its scheme, a bare hash is the first scheme. Two
 * hashes of different schemes differ whatever the program did, so they are never compared.
 */
export const hashScheme = (h: string) => /^([a-z]\d+)-/.exec(h)?.[1] ?? 'i1';

/**
 * Indexes where a series' program changed: a known hash that differs from the previous known one
 * of the same scheme. Commits whose program is unknown (null) neither start nor end a stretch.
 */
export function programChanges(column: readonly (string | null)[]): number[] {
  const out: number[] = [];
  let last: string | null = null;
  column.forEach((d, i) => {
    if (d === null) return;
    if (last !== null && d !== last && hashScheme(d) === hashScheme(last)) out.push(i);
    last = d;
  });
  return out;
}

/** A series over several windows: full columns, the program hash decoded per commit. */
export interface JoinedSeries {
  id: string;
  variant: string;
  params: Record<string, number | string>;
  workload: string;
  unit: string;
  direction: Direction;
  values: (number | null)[];
  ranges: (number | null)[];
  programs: (string | null)[];
  /** A counted-work series' facts per commit (store v4; absent for other metrics and in v3 files). */
  counts?: (CountFacts | null)[];
}

interface ShardLike {
  commits: readonly string[];
  series: Record<
    string,
    Omit<JoinedSeries, 'programs' | 'values' | 'ranges' | 'counts'> & {
      values: readonly (number | null)[];
      ranges: readonly (number | null)[];
      programs: ProgramRuns;
      counts?: Runs<CountFacts>;
    }
  >;
}

/**
 * Shards of consecutive windows (oldest first) joined into one set of columns over `commits`
 * (every commit to show, in order; a commit missing from a shard is a gap).
 */
export function joinShards(
  commits: readonly string[],
  shards: readonly ShardLike[],
): { commits: string[]; series: Record<string, JoinedSeries> } {
  const at = new Map(commits.map((c, i) => [c, i]));
  const n = commits.length;
  const series: Record<string, JoinedSeries> = {};
  for (const shard of shards) {
    const cols = shard.commits.map((c) => at.get(c));
    for (const [key, s] of Object.entries(shard.series)) {
      const out = (series[key] ??= {
        id: s.id,
        variant: s.variant,
        params: s.params,
        workload: s.workload,
        unit: s.unit,
        direction: s.direction,
        // fill, not Array.from with a callback: 300 series of a few hundred commits each are
        // joined on the Trends view's critical path.
        values: new Array<number | null>(n).fill(null),
        ranges: new Array<number | null>(n).fill(null),
        programs: new Array<string | null>(n).fill(null),
      });
      const programs = decodePrograms(s.programs, shard.commits.length);
      const counts = s.counts ? decodeRuns(s.counts, shard.commits.length) : undefined;
      if (counts) out.counts ??= new Array<CountFacts | null>(n).fill(null);
      for (let i = 0; i < cols.length; i++) {
        const col = cols[i];
        if (col === undefined) continue;
        out.values[col] = s.values[i] ?? null;
        out.ranges[col] = s.ranges[i] ?? null;
        out.programs[col] = programs[i] ?? null;
        if (counts) out.counts![col] = counts[i] ?? null;
      }
    }
  }
  return { commits: [...commits], series };
}
