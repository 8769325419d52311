/**
 * Loads what `npm run publish` writes (the path contract is in harness/src/model/store.ts):
 * data/machines.json, data/<machine>/index.json, data/<machine>/series/<experiment>.json and,
 * lazily, data/<machine>/runs/<sha>.json. Relative URLs, so the site works under any sub-path.
 */

import { labelWith, RUNTIME_PARAM } from '../../harness/src/model/select.js';
import type { Answer } from '../../harness/src/report/answers.js';
import type { Ratio } from '../../harness/src/report/ratios.js';

export const STORE_SCHEMA = 2;

export interface Machine {
  id: string;
  cpu: string;
  cores: number;
  kernel: string;
  memoryBytes: number;
  governor: string;
  runner: string;
}
export interface MachinesFile {
  schema: number;
  machines: Record<string, { machine: Machine; lastRun: string; commits: number }>;
}
export interface CommitEntry {
  sha: string;
  date: string;
  subject: string;
  ref: string;
  runId: string;
  profile: string;
  file: string;
  counts: { ok: number; skipped: number; failed: number };
  experiments: string[];
}
export interface IndexFile {
  schema: number;
  machine: Machine;
  commits: CommitEntry[];
}
export interface SeriesMetric {
  unit: string;
  direction: 'smaller' | 'bigger';
  values: (number | null)[];
  ranges: (number | null)[];
}
export interface SeriesFile {
  schema: number;
  experiment: string;
  commits: string[];
  series: Record<
    string,
    {
      variant: string;
      params: Record<string, number | string>;
      definitions?: (string | null)[];
      metrics: Record<string, SeriesMetric>;
    }
  >;
}

/** Indexes where a series' benchmark definition changed (both sides known): trends must not run across them unmarked. */
export function definitionChanges(definitions: readonly (string | null)[] | undefined): number[] {
  const out: number[] = [];
  let last: string | null = null;
  (definitions ?? []).forEach((d, i) => {
    if (d === null) return;
    if (last !== null && d !== last) out.push(i);
    last = d;
  });
  return out;
}
export interface Metric {
  unit: string;
  direction: 'smaller' | 'bigger';
  value: number;
  samples?: number[];
  stats?: { n: number; stddev: number };
}
export interface Benchmark {
  id: string;
  experiment: string;
  variant: string;
  params: Record<string, number | string>;
  status: 'ok' | 'skipped' | 'failed';
  reason?: string;
  hint?: string;
  definition?: string;
  metrics: Record<string, Metric>;
}
export interface ExperimentInfo {
  title: string;
  question: string;
  parameters?: Record<string, { description: string; unit?: string }>;
  summary?: { at: Record<string, unknown>; metrics: string[]; ratios: Ratio[]; answers?: Answer[] };
  headline?: { at: Record<string, unknown>; metrics: string[] };
}
export interface RunFile {
  schema: number;
  run: {
    id: string;
    profile: string;
    partial: boolean;
    commit: { sha: string; subject: string; date: string; ref: string };
    machine: Machine;
    toolchains: Record<string, string>;
    conditions?: { loadAverage: number[]; governor: string; turbo: string; smt: string; measuredCpus: string };
  };
  experiments: Record<string, ExperimentInfo>;
  benchmarks: Benchmark[];
}

export class DataError extends Error {}

const cache = new Map<string, Promise<unknown>>();

async function fetchJson<T>(base: string, path: string, check: (v: unknown) => string | undefined): Promise<T> {
  const url = `${base}${path}`;
  const hit = cache.get(url);
  if (hit) return hit as Promise<T>;
  const job = (async () => {
    let res: Response;
    try {
      res = await fetch(url);
    } catch (e) {
      throw new DataError(`could not fetch ${path}: ${(e as Error).message}`);
    }
    if (res.status === 404) throw new DataError(`${path} was not found`);
    if (!res.ok) throw new DataError(`${path}: HTTP ${res.status}`);
    let v: unknown;
    try {
      v = JSON.parse(await res.text());
    } catch {
      throw new DataError(`${path} is not valid JSON (corrupt or truncated)`);
    }
    const schema = (v as { schema?: unknown } | null)?.schema;
    if (typeof schema !== 'number') throw new DataError(`${path} has no schema version: not a jsio-bench store file`);
    if (schema > STORE_SCHEMA)
      throw new DataError(
        `${path} has schema ${schema}, newer than this site understands (${STORE_SCHEMA}): rebuild the site`,
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

export class Store {
  constructor(readonly base = 'data/') {}

  machines(): Promise<MachinesFile> {
    return fetchJson(this.base, 'machines.json', (v) =>
      isObj((v as MachinesFile).machines) ? undefined : 'field "machines" is missing',
    );
  }

  index(machine: string): Promise<IndexFile> {
    return fetchJson(this.base, `${machine}/index.json`, (v) =>
      Array.isArray((v as IndexFile).commits) ? undefined : 'field "commits" is not a list',
    );
  }

  series(machine: string, experiment: string): Promise<SeriesFile> {
    return fetchJson(this.base, `${machine}/series/${experiment}.json`, (v) => {
      const s = v as SeriesFile;
      if (!Array.isArray(s.commits)) return 'field "commits" is not a list';
      if (!isObj(s.series)) return 'field "series" is missing';
      for (const [id, e] of Object.entries(s.series)) {
        for (const [m, col] of Object.entries(e.metrics ?? {})) {
          if (!Array.isArray(col.values) || col.values.length !== s.commits.length)
            return `series "${id}" metric "${m}" does not align with the commits`;
        }
      }
      return undefined;
    });
  }

  /** Per-benchmark noise thresholds from `npm run calibrate`, if this machine was calibrated. */
  async noise(machine: string): Promise<Record<string, number>> {
    try {
      const r = await fetch(`${this.base}${machine}/noise.json`);
      if (!r.ok) return {};
      const v = (await r.json()) as { thresholds?: Record<string, number> };
      return v.thresholds ?? {};
    } catch {
      return {};
    }
  }

  run(machine: string, entry: Pick<CommitEntry, 'file'>): Promise<RunFile> {
    return fetchJson(this.base, `${machine}/${entry.file}`, (v) =>
      Array.isArray((v as RunFile).benchmarks) ? undefined : 'field "benchmarks" is not a list',
    );
  }
}

/** Label of a series line: the variant plus any parameter not on the chart's axis/point. */
export function lineLabel(variant: string, params: Record<string, number | string>, fixed: readonly string[]): string {
  // A parameter the variant does not take (Bun has no UV_THREADPOOL_SIZE) is labelled as such.
  const notApplicable = fixed.filter((k) => !(k in params) && k !== RUNTIME_PARAM).map((k) => `${k} n/a`);
  return labelWith(
    variant,
    Object.entries(params).filter(([k]) => !fixed.includes(k)),
    notApplicable,
  );
}

/** Groups series into charts: one per metric and parameter point (runtime versions become lines). */
export function trendCharts(
  s: SeriesFile,
  metric: string,
  lineParams: readonly string[] = [RUNTIME_PARAM],
): { key: string; point: Record<string, number | string>; lines: { label: string; id: string }[] }[] {
  const charts = new Map<
    string,
    { key: string; point: Record<string, number | string>; lines: { label: string; id: string }[] }
  >();
  for (const [id, e] of Object.entries(s.series)) {
    if (!e.metrics[metric]) continue;
    const point = Object.fromEntries(Object.entries(e.params).filter(([k]) => !lineParams.includes(k)));
    const key = `${metric}|${Object.entries(point)
      .sort()
      .map(([k, v]) => `${k}=${v}`)
      .join(',')}`;
    const c = charts.get(key) ?? { key, point, lines: [] };
    c.lines.push({ label: lineLabel(e.variant, e.params, Object.keys(point)), id });
    charts.set(key, c);
  }
  const num = (v: unknown) => (typeof v === 'number' ? v : Number.NaN);
  return [...charts.values()].sort((a, b) => {
    const ka = Object.values(a.point).map(num);
    const kb = Object.values(b.point).map(num);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i] ?? 0) - (kb[i] ?? 0);
    return a.key.localeCompare(b.key);
  });
}
