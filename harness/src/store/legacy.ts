/**
 * Store v2 -> v3 for one machine. Store v2 kept one run per commit whatever its profile (a smoke
 * run replaced a standard one, and only the experiments it ran were overwritten), and keyed trend
 * series by benchmark id alone. Its data cannot be split by workload after the fact, so it all
 * becomes the pseudo-profile "legacy": shown apart, labelled, and never merged into the series of
 * new runs. Run files stay where they are (runs/<sha>.json); the index names them.
 */
import { z } from 'zod';
import {
  BenchmarkId,
  CommitSha,
  Count,
  Name,
  Num,
  RunId,
  SafeRecord,
  Segment,
  Text,
  Token,
  Unit,
} from '../model/fields.js';
import { Direction, Machine, Params } from '../model/results.js';
import { commitOrder, encodePrograms, paths, roundSpread, roundValue, seriesKey } from '../model/store-layout.js';
import {
  type CatalogFile,
  type CommitEntry,
  type CommitsFile,
  LEGACY_PROFILE,
  type ShardFile,
  STORE_SCHEMA,
  type TrendWindow,
} from '../model/store-schema.js';
import { placeInWindow } from './windows.js';

// Store v2's files get the rules of every store file (model/fields.ts): they become v3 files.
const Counts = z.object({ ok: Count, skipped: Count, failed: Count }).strict();

export const V2Index = z
  .object({
    schema: z.literal(2),
    machine: Machine,
    commits: z.array(
      z
        .object({
          sha: CommitSha,
          date: Text('short'),
          subject: Text('line'),
          ref: Text('short'),
          runId: RunId,
          profile: Segment,
          partial: z.boolean(),
          file: Text('short'),
          counts: Counts,
          experiments: z.array(Segment),
        })
        .strict(),
    ),
  })
  .strict();
export type V2Index = z.infer<typeof V2Index>;

export const V2Series = z
  .object({
    schema: z.literal(2),
    experiment: Segment,
    commits: z.array(CommitSha),
    series: SafeRecord(
      BenchmarkId,
      z
        .object({
          variant: Segment,
          params: Params,
          definitions: z.array(Token.nullable()),
          metrics: SafeRecord(
            Name,
            z
              .object({
                unit: Unit,
                direction: Direction,
                values: z.array(Num.nullable()),
                ranges: z.array(Num.nullable()),
              })
              .strict(),
          ),
        })
        .strict(),
    ),
  })
  .strict();
export type V2Series = z.infer<typeof V2Series>;

export interface LegacyMachine {
  /** The v3 index's commits (each with its run under "legacy"). */
  commits: CommitEntry[];
  /** Files to write, relative to the store's root. */
  files: { path: string; value: unknown }[];
}

/**
 * The v3 files of a v2 machine. `sources` names each metric's source (from a stored run file, if
 * one could be read): "derived" metrics get no change points, as compare gives them no verdict.
 */
export function legacyMachine(
  index: V2Index,
  series: ReadonlyMap<string, V2Series>,
  sources: ReadonlyMap<string, string> = new Map(),
): LegacyMachine {
  const machine = index.machine.id;
  const entries = [...index.commits].sort(commitOrder);
  const { windows, windowOf } = placeCommits(entries);
  const commits: CommitEntry[] = entries.map((c) => ({
    sha: c.sha,
    date: c.date,
    subject: c.subject,
    ref: c.ref,
    runs: {
      [LEGACY_PROFILE]: {
        runId: c.runId,
        profile: c.profile,
        partial: c.partial,
        file: c.file,
        window: windowOf.get(c.sha)!,
        counts: c.counts,
        experiments: c.experiments,
        sources: [],
      },
    },
  }));
  const files = commitsFiles(machine, entries, windows, windowOf);
  const catalog: CatalogFile = {
    schema: STORE_SCHEMA,
    machine,
    profile: LEGACY_PROFILE,
    windows,
    experiments: {},
  };
  for (const [experiment, s] of [...series].sort(([a], [b]) => a.localeCompare(b))) {
    const newest = [...entries].reverse().find((c) => c.experiments.includes(experiment) || s.commits.includes(c.sha));
    const metrics = experimentShards(experiment, s, { machine, windows, windowOf, sources, files });
    if (newest) catalog.experiments[experiment] = { metrics, latest: { date: newest.date, sha: newest.sha } };
  }
  files.push({ path: paths.catalog(machine, LEGACY_PROFILE), value: catalog });
  return { commits, files };
}

/** Each commit's trend window, commits placed oldest first. */
function placeCommits(entries: readonly V2Index['commits'][number][]) {
  let windows: TrendWindow[] = [];
  const windowOf = new Map<string, string>();
  for (const c of entries) {
    const placed = placeInWindow(windows, c);
    windows = placed.windows;
    windowOf.set(c.sha, placed.id);
  }
  return { windows, windowOf };
}

/** Each window's commit list. */
function commitsFiles(
  machine: string,
  entries: readonly V2Index['commits'][number][],
  windows: readonly TrendWindow[],
  windowOf: ReadonlyMap<string, string>,
): LegacyMachine['files'] {
  const files: LegacyMachine['files'] = [];
  for (const w of windows) {
    const value: CommitsFile = {
      schema: STORE_SCHEMA,
      profile: LEGACY_PROFILE,
      window: w.id,
      commits: entries
        .filter((c) => windowOf.get(c.sha) === w.id)
        .map((c) => ({
          sha: c.sha,
          date: c.date,
          subject: c.subject,
          ref: c.ref,
          runId: c.runId,
          file: c.file,
          counts: c.counts,
          experiments: c.experiments,
        })),
    };
    files.push({ path: paths.commits(machine, LEGACY_PROFILE, w.id), value });
  }
  return files;
}

/**
 * One experiment's v2 series cut into v3 shards, one per window and metric (added to `files`);
 * returns the catalog's metrics for it.
 */
function experimentShards(
  experiment: string,
  s: V2Series,
  {
    machine,
    windows,
    windowOf,
    sources,
    files,
  }: {
    machine: string;
    windows: readonly TrendWindow[];
    windowOf: ReadonlyMap<string, string>;
    sources: ReadonlyMap<string, string>;
    files: LegacyMachine['files'];
  },
): CatalogFile['experiments'][string]['metrics'] {
  const metrics: CatalogFile['experiments'][string]['metrics'] = {};
  windows.forEach((w, ordinal) => {
    const cols = s.commits.map((sha, i) => [sha, i] as const).filter(([sha]) => windowOf.get(sha) === w.id);
    if (!cols.length) return;
    const shards = new Map<string, ShardFile>();
    for (const [id, e] of Object.entries(s.series)) {
      for (const [metric, m] of Object.entries(e.metrics)) {
        const values = cols.map(([, i]) => m.values[i] ?? null);
        if (values.every((v) => v === null)) continue;
        const shard = shards.get(metric) ?? {
          schema: STORE_SCHEMA,
          profile: LEGACY_PROFILE,
          window: w.id,
          experiment,
          metric,
          commits: cols.map(([sha]) => sha),
          series: {},
        };
        shard.series[seriesKey(id, LEGACY_PROFILE, m.unit)] = {
          id,
          variant: e.variant,
          params: e.params,
          workload: LEGACY_PROFILE,
          unit: m.unit,
          direction: m.direction,
          values: values.map((v) => (v === null ? null : roundValue(v))),
          ranges: cols.map(([, i]) => {
            const r = m.ranges[i];
            return r === null || r === undefined ? null : roundSpread(r);
          }),
          programs: encodePrograms(cols.map(([, i]) => e.definitions[i] ?? null)),
        };
        shards.set(metric, shard);
        const prev = metrics[metric];
        metrics[metric] = {
          unit: m.unit,
          direction: m.direction,
          source: sources.get(`${experiment} ${metric}`) ?? 'unknown',
          windows: [prev ? prev.windows[0] : ordinal, ordinal],
        };
      }
    }
    for (const [metric, shard] of shards)
      files.push({ path: paths.shard(machine, LEGACY_PROFILE, w.id, experiment, metric), value: shard });
  });
  return metrics;
}
