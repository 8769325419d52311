/**
 * site:perf's synthetic store: 5,000 commits and 300 series written directly in store v3's layout
 * (publishing 5,000 runs one by one would take long).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  paths,
  roundSpread,
  roundValue,
  STORE_SCHEMA,
  seriesKey,
  WINDOW_COMMITS,
  windowId,
} from '../formats/parts/store-layout.js';
import type { CommitEntry, TrendWindow } from '../formats/trend-store-format.js';
import { benchmarkId } from '../model/benchmark-id.js';

const COMMITS = 5000;
const EXPERIMENTS = ['wc', 'streams', 'records'];
const SERIES_PER_EXPERIMENT = 100;

const machine = {
  id: 'perf-machine',
  hostname: 'p',
  cpu: 'Synthetic CPU',
  cores: 8,
  memoryBytes: 2 ** 35,
  kernel: 'Linux',
  governor: 'performance',
  runner: 'perf',
};
const profile = 'standard';
const counts = { ok: SERIES_PER_EXPERIMENT * EXPERIMENTS.length, skipped: 0, failed: 0 };
const file = (sha: string) => `runs/${sha}/${profile}.json`;

/** The synthetic history, and where each file of the store is put. */
interface History {
  put: (path: string, value: unknown) => void;
  shas: string[];
  dates: string[];
  commits: Omit<CommitEntry, 'runs'>[];
  windows: TrendWindow[];
}

/** A store v3 written directly in its layout (publishing 5,000 runs one by one would take long). */
export function syntheticStore(dir: string): void {
  const h = history(dir);
  writeMachines(h);
  writeIndex(h);
  writeCatalog(h);
  writeCommits(h);
  const benchmarks = EXPERIMENTS.flatMap((exp) => writeShards(h, exp));
  writeLastRun(h, benchmarks);
}

function history(dir: string): History {
  const shas = Array.from({ length: COMMITS }, (_, i) => i.toString(16).padStart(40, '0'));
  const dates = shas.map((_, i) => new Date(Date.UTC(2020, 0, 1) + i * 3600_000 * 8).toISOString());
  const put = (path: string, value: unknown) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), JSON.stringify(value));
  };
  const windows = Array.from({ length: Math.ceil(COMMITS / WINDOW_COMMITS) }, (_, w) => {
    const first = w * WINDOW_COMMITS;
    const last = Math.min(COMMITS, first + WINDOW_COMMITS) - 1;
    return {
      id: windowId(w),
      first: { date: dates[first]!, sha: shas[first]! },
      last: { date: dates[last]!, sha: shas[last]! },
      commits: last - first + 1,
    };
  });
  const commits = shas.map((sha, i) => ({ sha, date: dates[i]!, subject: `Commit ${i}`, ref: 'main' }));
  return { put, shas, dates, commits, windows };
}

function writeMachines({ put, dates }: History): void {
  put(paths.machines(), {
    schema: STORE_SCHEMA,
    machines: {
      [machine.id]: {
        machine,
        lastRun: dates.at(-1),
        commits: COMMITS,
        profiles: { [profile]: { commits: COMMITS, lastRun: dates.at(-1) } },
      },
    },
  });
}

function writeIndex({ put, commits }: History): void {
  put(paths.index(machine.id), {
    schema: STORE_SCHEMA,
    machine,
    commits: commits.map((c, i) => ({
      ...c,
      runs: {
        [profile]: {
          runId: `r${i}`,
          profile,
          partial: false,
          file: file(c.sha),
          window: windowId(Math.floor(i / WINDOW_COMMITS)),
          counts,
          experiments: EXPERIMENTS,
          sources: [{ runId: `r${i}`, end: c.date, benchmarks: counts.ok }],
        },
      },
    })),
  });
}

function writeCatalog({ put, shas, dates, windows }: History): void {
  const latest = { date: dates.at(-1)!, sha: shas.at(-1)! };
  put(paths.catalog(machine.id, profile), {
    schema: STORE_SCHEMA,
    machine: machine.id,
    profile,
    windows,
    experiments: Object.fromEntries(
      EXPERIMENTS.map((e) => [
        e,
        {
          metrics: {
            wall_time: { unit: 's', direction: 'smaller', source: 'hyperfine', windows: [0, windows.length - 1] },
          },
          latest,
        },
      ]),
    ),
  });
}

function writeCommits({ put, commits, windows }: History): void {
  windows.forEach((w, k) => {
    const from = k * WINDOW_COMMITS;
    const mine = commits.slice(from, from + w.commits);
    put(paths.commits(machine.id, profile, w.id), {
      schema: STORE_SCHEMA,
      profile,
      window: w.id,
      commits: mine.map((c, i) => ({
        ...c,
        runId: `r${from + i}`,
        file: file(c.sha),
        counts,
        experiments: EXPERIMENTS,
      })),
    });
  });
}

/** One experiment's series, one shard per window; returns its benchmarks for the last run's results. */
function writeShards({ put, shas, windows }: History, exp: string): object[] {
  const benchmarks = [];
  const shards = windows.map(() => ({}) as Record<string, unknown>);
  for (let s = 0; s < SERIES_PER_EXPERIMENT; s++) {
    const variant = `variant-${s % 10}`;
    const bs = 2 ** (8 + Math.floor(s / 10));
    const id = benchmarkId(exp, variant, { bs });
    const workload = `w-${exp}-${bs}`;
    const values = shas.map((_, i) =>
      roundValue(0.01 * (1 + (s % 10)) * (1 + 0.02 * Math.sin(i + s)) * (i > 2500 && s % 7 === 0 ? 1.2 : 1)),
    );
    windows.forEach((w, k) => {
      const part = values.slice(k * WINDOW_COMMITS, k * WINDOW_COMMITS + w.commits);
      shards[k]![seriesKey(id, workload, 's')] = {
        id,
        variant,
        params: { bs },
        workload,
        unit: 's',
        direction: 'smaller',
        values: part,
        ranges: part.map((v) => roundSpread(v * 0.01)),
        programs: [[0, `p-${variant}`]],
      };
    });
    benchmarks.push(lastBenchmark(exp, variant, bs, id, workload, values.at(-1)!));
  }
  windows.forEach((w, k) => {
    put(paths.shard(machine.id, profile, w.id, exp, 'wall_time'), {
      schema: STORE_SCHEMA,
      profile,
      window: w.id,
      experiment: exp,
      metric: 'wall_time',
      commits: shas.slice(k * WINDOW_COMMITS, k * WINDOW_COMMITS + w.commits),
      series: shards[k],
    });
  });
  return benchmarks;
}

/** A series' benchmark in the last run's results, around its last value. */
function lastBenchmark(exp: string, variant: string, bs: number, id: string, workload: string, last: number) {
  const samples = [0.99, 1, 1.01].map((f) => last * f);
  // A throughput too, so the Overview draws wc's picture (its manifest's fallback metric).
  const mbps = samples.map((t) => bs / 1e3 / t);
  return {
    id,
    experiment: exp,
    variant,
    params: { bs },
    status: 'ok',
    derived: {},
    workload,
    definition: `p-${variant}`,
    metrics: {
      wall_time: {
        unit: 's',
        direction: 'smaller',
        value: last,
        samples,
        deterministic: false,
        source: 'hyperfine',
      },
      throughput: {
        unit: 'MB/s',
        direction: 'bigger',
        value: mbps[1],
        samples: mbps,
        deterministic: false,
        source: 'derived',
      },
    },
  };
}

/** The last two commits' results files: the Overview reads the last, Compare opens on the pair. */
function writeLastRun({ put, shas, dates }: History, benchmarks: object[]): void {
  for (const i of [shas.length - 2, shas.length - 1])
    put(`${machine.id}/${file(shas[i]!)}`, {
      schema: 1,
      run: {
        id: `r${i}`,
        profile,
        partial: false,
        start: dates[i],
        end: dates[i],
        commit: { sha: shas[i], ref: 'main', subject: `Commit ${i}`, date: dates[i], dirty: false },
        machine,
        toolchains: { node: '22' },
      },
      experiments: Object.fromEntries(
        EXPERIMENTS.map((e) => [
          e,
          { title: e, question: `${e}?`, parameters: { bs: { description: 'bs', unit: 'B' } } },
        ]),
      ),
      benchmarks,
    });
}
