/**
 * Loads what `npm run publish-run` writes, store v3 and v4 (the path contract is harness/src/formats/parts/store-layout.ts):
 * machines.json, then per machine and profile trends/<profile>/catalog.json, and only what a view
 * needs of the sharded trend data: the recent windows' commits.json and the shards of one
 * experiment and metric; older windows on demand. Relative URLs, so the site works under any
 * sub-path, and nothing comes from another origin.
 */

import {
  type JoinedSeries,
  joinShards,
  LEGACY_PROFILE,
  MARKS_SCHEMA,
  paths,
  recentWindows,
  STORE_READS_FROM,
  STORE_SCHEMA,
} from '../../../harness/src/formats/parts/store-layout.js';
import { preloaded } from './preloaded.js';
import type {
  CatalogFile,
  CommitsFile,
  MachinesFile,
  MarksFile,
  Moment,
  NewestPairFile,
  RegressionsFile,
  RunFile,
  ShardFile,
  TrendWindow,
  WindowCommit,
} from './types.js';

export class DataError extends Error {}

const cache = new Map<string, Promise<unknown>>();

/** A file's text from the network; what went wrong as a DataError naming the file. */
async function download(url: string, path: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new DataError(`could not fetch ${path}: ${(e as Error).message}`);
  }
  if (res.status === 404) throw new DataError(`${path} was not found`);
  if (!res.ok) throw new DataError(`${path}: HTTP ${res.status}`);
  return res.text();
}

async function fetchJson<T>(
  base: string,
  path: string,
  check: (v: unknown) => string | undefined,
  version = STORE_SCHEMA,
): Promise<T> {
  const url = `${base}${path}`;
  const hit = cache.get(url);
  if (hit) return hit as Promise<T>;
  const job = (async () => {
    // What the preloader fetched, else (not asked for, or failed) the network, which says why.
    const text = (await preloaded(url)) ?? (await download(url, path));
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      throw new DataError(`${path} is not valid JSON (corrupt or truncated)`);
    }
    const schema = (v as { schema?: unknown } | null)?.schema;
    if (typeof schema !== 'number') throw new DataError(`${path} has no schema version: not a jsio-bench store file`);
    if (schema > version)
      throw new DataError(
        `${path} has schema ${schema}, newer than this site understands (${version}): rebuild the site`,
      );
    const problem = check(v);
    if (problem) throw new DataError(`${path}: ${problem}`);
    return v as T;
  })();
  cache.set(url, job);
  job.catch(() => cache.delete(url));
  return job;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const notFound = (e: unknown) => e instanceof DataError && /was not found/.test(e.message);

export class Store {
  constructor(readonly base = 'data/') {}

  machines(): Promise<MachinesFile> {
    return fetchJson(this.base, paths.machines(), (v) => {
      const m = (v as MachinesFile).machines;
      if (!isObj(m)) return 'field "machines" is missing';
      if ((v as MachinesFile).schema < STORE_READS_FROM)
        return `schema ${(v as MachinesFile).schema} is older than this site reads (${STORE_READS_FROM}): convert the store with the harness of commit 05964c6`;
      return undefined;
    });
  }

  catalog(machine: string, profile: string): Promise<CatalogFile> {
    return fetchJson(this.base, paths.catalog(machine, profile), (v) => {
      const c = v as CatalogFile;
      if (!Array.isArray(c.windows)) return 'field "windows" is not a list';
      return isObj(c.experiments) ? undefined : 'field "experiments" is missing';
    });
  }

  commits(machine: string, profile: string, window: string): Promise<CommitsFile> {
    return fetchJson(this.base, paths.commits(machine, profile, window), (v) =>
      Array.isArray((v as CommitsFile).commits) ? undefined : 'field "commits" is not a list',
    );
  }

  /** One metric of one experiment over one window; undefined when the window has no run of it. */
  shard(
    machine: string,
    profile: string,
    window: string,
    experiment: string,
    metric: string,
  ): Promise<ShardFile | undefined> {
    return fetchJson<ShardFile>(this.base, paths.shard(machine, profile, window, experiment, metric), (v) => {
      const s = v as ShardFile;
      if (!Array.isArray(s.commits)) return 'field "commits" is not a list';
      if (!isObj(s.series)) return 'field "series" is missing';
      for (const [key, e] of Object.entries(s.series))
        if (!Array.isArray(e.values) || e.values.length !== s.commits.length)
          return `series "${key}" does not align with the commits`;
      return undefined;
    }).catch((e: unknown) => {
      if (notFound(e)) return undefined;
      throw e;
    });
  }

  /** Per-benchmark noise thresholds from `npm run calibrate`, if this machine was calibrated. */
  async noise(machine: string): Promise<Record<string, number>> {
    const url = `${this.base}${paths.noise(machine)}`;
    try {
      let text = await preloaded(url);
      if (text === undefined) {
        const r = await fetch(url);
        if (!r.ok) return {};
        text = await r.text();
      }
      const v = JSON.parse(text) as { thresholds?: Record<string, number> };
      return v.thresholds ?? {};
    } catch {
      return {};
    }
  }

  /**
   * The machine's trend marks (npm run pages): commits whose numbers moved for a known reason, with
   * it; none when the machine has no marks.json.
   */
  marks(machine: string): Promise<MarksFile> {
    return fetchJson<MarksFile>(
      this.base,
      paths.marks(machine),
      (v) => {
        const commits = (v as MarksFile).commits;
        if (!isObj(commits)) return 'field "commits" is missing';
        for (const [sha, c] of Object.entries(commits))
          if (!Array.isArray(c?.marks)) return `commit ${sha.slice(0, 12)}: field "marks" is not a list`;
        return undefined;
      },
      MARKS_SCHEMA,
    ).catch((e: unknown) => {
      if (notFound(e)) return { schema: MARKS_SCHEMA, commits: {} };
      throw e;
    });
  }

  /** Change points of every series of a profile, newest first (written by the site build). */
  regressions(machine: string, profile: string): Promise<RegressionsFile> {
    return fetchJson(this.base, paths.regressions(machine, profile), (v) =>
      Array.isArray((v as RegressionsFile).regressions) ? undefined : 'field "regressions" is not a list',
    );
  }

  /** The build's comparison of a profile's two newest commits (Compare's first view); undefined when it made none. */
  newestPair(machine: string, profile: string): Promise<NewestPairFile | undefined> {
    return fetchJson<NewestPairFile>(this.base, paths.newestPair(machine, profile), (v) => {
      const f = v as NewestPairFile;
      if (!isObj(f.thresholds)) return 'field "thresholds" is missing';
      // The quick look names its kind from schema 4 (older builds' files did not): any other is no quick look.
      const kind: unknown = f.comparison?.kind;
      if (kind !== undefined && kind !== 'quick-look')
        return `field "comparison.kind" is ${JSON.stringify(kind)}, not the quick look ("quick-look")`;
      return Array.isArray(f.comparison?.metrics) ? undefined : 'field "comparison" has no metrics';
    }).catch((e: unknown) => {
      if (notFound(e)) return undefined;
      throw e;
    });
  }

  /** A commit's results for the profile (the file named by its window's commits.json). */
  run(machine: string, entry: Pick<WindowCommit, 'file'>): Promise<RunFile> {
    return fetchJson(
      this.base,
      `${machine}/${entry.file}`,
      (v) => (Array.isArray((v as RunFile).benchmarks) ? undefined : 'field "benchmarks" is not a list'),
      Number.MAX_SAFE_INTEGER, // results.json has its own schema numbers
    );
  }
}

/** A profile's catalog with what has been loaded of its commits, newest windows first. */
export class Profile {
  private loaded: CommitsFile[] = [];
  constructor(
    readonly store: Store,
    readonly machine: string,
    readonly profile: string,
    readonly catalog: CatalogFile,
  ) {}

  get windows(): TrendWindow[] {
    return this.catalog.windows;
  }

  /** Windows newest first until there are RECENT_COMMITS commits, then `older` more. */
  recentWindows(older = 0): TrendWindow[] {
    return recentWindows(this.windows, older);
  }

  /** The commits of these windows, oldest first. */
  async commits(windows: readonly TrendWindow[]): Promise<WindowCommit[]> {
    const files = await Promise.all(windows.map((w) => this.store.commits(this.machine, this.profile, w.id)));
    for (const f of files) if (!this.loaded.some((l) => l.window === f.window)) this.loaded.push(f);
    return files.flatMap((f) => f.commits);
  }

  /** Windows whose date range holds a moment (a commit's window by its date). */
  windowOf(m: Moment): TrendWindow | undefined {
    const ws = this.windows;
    for (let i = ws.length - 1; i >= 0; i--) if (ws[i]!.first.date <= m.date || i === 0) return ws[i];
    return undefined;
  }

  /** A commit by (a prefix of) its sha: the loaded windows first, then older ones, newest first. */
  async find(sha: string): Promise<WindowCommit | undefined> {
    const hit = (cs: readonly WindowCommit[]) => cs.find((c) => c.sha.startsWith(sha));
    for (const l of this.loaded) {
      const c = hit(l.commits);
      if (c) return c;
    }
    for (const w of [...this.windows].reverse()) {
      const c = hit(await this.commits([w]));
      if (c) return c;
    }
    return undefined;
  }

  /**
   * The run file of a moment the catalog names, without loading its window's commits where the
   * path is known (store v3 names run files by commit and profile; legacy ones are listed).
   */
  async runAt(m: Moment): Promise<{ file: string } | undefined> {
    if (this.profile !== LEGACY_PROFILE) return { file: paths.run('', m.sha, this.profile).replace(/^\//, '') };
    return this.at(m);
  }

  /** The commit entry of a moment the catalog names (an experiment's latest run). */
  async at(m: Moment): Promise<WindowCommit | undefined> {
    const w = this.windowOf(m);
    const inWindow = w ? (await this.commits([w])).find((c) => c.sha === m.sha) : undefined;
    return inWindow ?? this.find(m.sha);
  }

  /** One metric of one experiment over these windows, joined into columns over their commits. */
  async trend(
    experiment: string,
    metric: string,
    windows: readonly TrendWindow[],
  ): Promise<{ commits: WindowCommit[]; series: Record<string, JoinedSeries> }> {
    const range = this.catalog.experiments[experiment]?.metrics[metric]?.windows;
    const ordinal = (w: TrendWindow) => this.windows.indexOf(w);
    const want = windows.filter((w) => !range || (ordinal(w) >= range[0] && ordinal(w) <= range[1]));
    const [commits, shards] = await Promise.all([
      this.commits(windows),
      Promise.all(want.map((w) => this.store.shard(this.machine, this.profile, w.id, experiment, metric))),
    ]);
    const mine = commits.filter((c) => c.experiments.includes(experiment));
    const joined = joinShards(
      mine.map((c) => c.sha),
      shards.filter((s): s is ShardFile => s !== undefined),
    );
    return { commits: mine, series: joined.series };
  }
}
