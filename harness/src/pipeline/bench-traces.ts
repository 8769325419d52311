/**
 * `bench`'s trace pass (`--trace-profiles`): after the timed runs, the commit's points of each
 * profile asked for traced once (./trace-points.ts), kept as the run's `traces.json` and, with the
 * run, in the trend store (`<machine>/traces/<sha>.json`), where the trusted plan of a pull request
 * based on this commit takes them instead of tracing the base again. Main's runners trace their
 * own profile and the pull requests' (pr.yml plans with another one). A point of the run whose
 * processes tried to write outside their scratch folder is failed, with the paths.
 */
import { join } from 'node:path';
import type { Experiment } from '../formats/manifest-format.js';
import type { Benchmark } from '../formats/results-format.js';
import {
  refusedWritesReason,
  type StoredTrace,
  TRACE_STORE_SCHEMA,
  type TraceStoreFile,
} from '../formats/trace-store-format.js';
import { writeFileAtomic } from '../lib/atomic.js';
import type { Profile } from '../model/profiles.js';
import { expand, type Filters } from '../plan/plan.js';
import type { BuildResult } from '../run/build.js';
import type { ResultsFile } from './results-file.js';
import type { Host } from './setup.js';
import { storedTraceOf, tracePoints } from './trace-points.js';

/** The run's traces file, beside results.json (`npm run pages` carries it into the store). */
export const RUN_TRACES_FILE = 'traces.json';

export interface TraceStageOptions {
  root: string;
  experiments: readonly Experiment[];
  filters: Filters;
  /** The run's own profile: its points' results are failed where their processes wrote outside. */
  profile: Profile;
  /** The profiles whose points are traced. */
  profiles: readonly Profile[];
  commit: string;
  /** The cache bench was given (`cacheDir`), else the harness's (machine/cache-root.ts). */
  cacheDir?: string;
  programsDir?: string;
  /** The run's builds, where they were made in the sandbox: the traced points take them. */
  builds?: ReadonlyMap<string, BuildResult>;
}

export interface TraceStageResult {
  /** What was traced, by profile and point (absent when nothing could be). */
  file?: TraceStoreFile;
  seconds: number;
}

/** Each profile's points traced; a profile whose set-up fails (no sandbox) is said and left out. */
export async function traceStage(
  o: TraceStageOptions,
  host: Host,
  log: (m: string) => void,
): Promise<TraceStageResult> {
  const start = performance.now();
  const at = new Date();
  const profiles: TraceStoreFile['profiles'] = {};
  for (const profile of o.profiles) {
    const points = expand(o.experiments, profile, o.filters);
    let traces: Awaited<ReturnType<typeof tracePoints>>;
    try {
      traces = await tracePoints(
        points,
        host,
        {
          root: o.root,
          harnessRoot: o.root,
          ...(o.cacheDir ? { cacheDir: o.cacheDir } : {}),
          label: profile,
          ...(o.programsDir ? { programsDir: o.programsDir } : {}),
          ...(o.builds ? { builds: o.builds } : {}),
        },
        log,
      );
    } catch (e) {
      log(`trace of the ${profile} profile: none (${(e as Error).message.split('\n')[0]})`);
      continue;
    }
    const kept: Record<string, StoredTrace> = {};
    const failed: string[] = [];
    for (const [id, t] of traces.byPoint) {
      if (t.ok) kept[id] = storedTraceOf(t.trace, at);
      else failed.push(`${id}: ${t.reason}`);
    }
    for (const f of failed.slice(0, 5)) log(`trace of the ${profile} profile: ${f}`);
    if (failed.length > 5) log(`trace of the ${profile} profile: and ${failed.length - 5} more not traced`);
    profiles[profile] = kept;
  }
  const seconds = (performance.now() - start) / 1000;
  log(`trace pass: ${o.profiles.join(', ')} in ${seconds.toFixed(1)} s`);
  const any = Object.values(profiles).some((p) => Object.keys(p ?? {}).length);
  return { ...(any ? { file: { schema: TRACE_STORE_SCHEMA, commit: o.commit, profiles } } : {}), seconds };
}

/** The run's points whose traced processes tried to write outside their scratch folder, failed with the paths. */
export function failRefusedWrites(file: ResultsFile, traces: TraceStoreFile, profile: Profile): number {
  const mine = traces.profiles[profile] ?? {};
  let n = 0;
  for (const b of file.benchmarks) {
    const paths = mine[b.id]?.refusedWrites;
    if (b.status !== 'ok' || !paths?.length) continue;
    file.update(b.id, (x): Benchmark => ({ ...x, status: 'failed', reason: refusedWritesReason(paths), metrics: {} }));
    n++;
  }
  return n;
}

export function writeRunTraces(outDir: string, traces: TraceStoreFile): void {
  writeFileAtomic(join(outDir, RUN_TRACES_FILE), `${JSON.stringify(traces)}\n`);
}
