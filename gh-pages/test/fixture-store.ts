/**
 * A small deterministic store for the site's tests, written through the real publishRun:
 * two machines, 30 commits, a planted 25% step (node-stream on node 22 from commit 20 on the
 * first machine), a variant that appears late (bun from commit 10), and a skipped and a
 * failed benchmark in the latest run, and bun redefined (its program changed) at commit 25.
 * The first machine also has smoke runs of its last SMOKE_COMMITS commits: a second workload,
 * ten times faster, that must never share a series with the standard one.
 * Work is counted at wc's headline point (bs=65536) as `npm run bench` counts it: C exact,
 * node-stream per Node version (node22's planted step is more work per read, from STEP_COMMIT on;
 * node20's count did not repeat at UNSTEADY_COMMIT, a blip that is no step), bun unavailable;
 * threadpool's c-pool at pool 4 is counted as evidence only. The counts are the same on both
 * machines: they do not depend on a machine's speed.
 */

import { describe as stats } from '../../harness/src/analysis/describe.js';
import { prng } from '../../harness/src/analysis/two-sample.js';
import type { Benchmark, Metric, Results } from '../../harness/src/formats/results-format.js';
import { publishRun } from '../../harness/src/store/publish-run.js';

const STEP_COMMIT = 20;
const COMMITS = 30;
const SMOKE_COMMITS = 3;

const sha = (machine: number, i: number) => `${machine}${String(i).padStart(3, '0')}`.padEnd(40, 'f');

function timed(samples: number[], unit: string, direction: 'smaller' | 'bigger', source = 'hyperfine'): Metric {
  const s = stats(samples);
  return { unit, direction, value: s.median, samples, stats: s, deterministic: false, source };
}

function point(
  rand: () => number,
  experiment: string,
  variant: string,
  params: Record<string, number | string>,
  seconds: number,
  bytes?: number,
): Benchmark {
  const samples = Array.from({ length: 5 }, () => seconds * (1 + 0.02 * (rand() - 0.5)));
  const metrics: Record<string, Metric> = { wall_time: timed(samples, 's', 'smaller') };
  if (bytes)
    metrics.throughput = timed(
      samples.map((t) => bytes / t / 1e6),
      'MB/s',
      'bigger',
      'derived',
    );
  metrics.max_rss = {
    unit: 'B',
    direction: 'smaller',
    value: variant === 'c' ? 1.5e6 : 5e7,
    deterministic: true,
    source: 'time',
  };
  const key = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join(',');
  return {
    id: `${experiment}/${variant}/${key}`,
    experiment,
    variant,
    params,
    status: 'ok',
    derived: {},
    definition: `${variant}-def`,
    workload: `${variant}-${key}-workload`,
    metrics,
  };
}

function latency(rand: () => number, variant: string, params: Record<string, number | string>, ms: number): Benchmark {
  const b = point(rand, 'threadpool', variant, params, ms / 1000);
  const samples = Array.from({ length: 5 }, () => ms * (1 + 0.02 * (rand() - 0.5)));
  return { ...b, metrics: { ...b.metrics, latency_p50: timed(samples, 'ms', 'smaller', 'program') } };
}

/** bun's program changes at this commit: a redefinition, not a performance change. */
const REDEFINED_COMMIT = 25;

/** node-stream (node20)'s counted work did not repeat within the tolerance at this commit. */
const UNSTEADY_COMMIT = 12;

/** Instructions per read at wc's headline point (before node22's step). */
const PER_READ = { c: 17.1, node20: 15_243, node22: 15_243 } as const;

const SETTINGS = {
  native: 'the program as compiled: no runtime settings needed',
  node: 'V8 made predictable (--predictable --predictable-gc-schedule --random-seed=1 --hash-seed=1 --single-threaded)',
};

function work(value: number): Metric {
  return { unit: 'instructions', direction: 'smaller', value, deterministic: false, source: 'valgrind' };
}

const exact = (value: number): Metric => ({
  unit: 'calls',
  direction: 'smaller',
  value,
  deterministic: true,
  source: 'strace',
});

/**
 * A wc point with its work counted as bench counts a fit: per read (start-up cancelled) and per
 * run; `steady: false` is a count whose repeats differed by more than the tolerance. Its system
 * calls and reads are counted too: 16,384 reads of 64 KiB, two more read() calls than reads.
 */
function countedRead(b: Benchmark, perRead: number, settings: string, steady = true): Benchmark {
  const reads = 16_384;
  const startup = settings === SETTINGS.native ? 118_000 : 40e6;
  return {
    ...b,
    metrics: {
      ...b.metrics,
      reads: { ...exact(reads), source: 'program' },
      'syscalls.read': exact(reads + 2),
      'syscalls.total': exact(reads + (settings === SETTINGS.native ? 35 : 900)),
      instructions: work(Math.round(startup + perRead * reads)),
      instructions_per_op: work(perRead),
    },
    counts: {
      status: 'ok',
      settings,
      role: 'decides',
      spread: steady ? 0 : 0.012,
      tolerance: 0.005,
      repeats: 1,
      deterministic: steady,
    },
  };
}

export function fixtureRun(machine: number, i: number, profile = 'standard'): Results {
  const rand = prng(machine * 1000 + i);
  const speed = machine === 1 ? 1 : 1.6;
  const benchmarks: Benchmark[] = [];
  for (const bs of [4096, 65536]) {
    const bytes = 64 * 2 ** 20;
    const base = (bytes / 1e9) * speed * (bs === 4096 ? 2 : 1);
    const headline = bs === 65536;
    const c = point(rand, 'wc', 'c', { bs }, base, bytes);
    benchmarks.push(headline ? countedRead(c, PER_READ.c, SETTINGS.native) : c);
    for (const node of ['20', '22'] as const) {
      const step = machine === 1 && node === '22' && i >= STEP_COMMIT ? 1.25 : 1;
      const b = point(rand, 'wc', 'node-stream', { bs, runtime: `node${node}` }, base * 2.2 * step, bytes);
      const unsteady = node === '20' && i === UNSTEADY_COMMIT;
      // The planted step is more work per read, on both machines: a count does not depend on speed.
      const perRead = PER_READ[`node${node}`] * (node === '22' && i >= STEP_COMMIT ? 1.25 : 1) * (unsteady ? 1.02 : 1);
      benchmarks.push(headline ? countedRead(b, perRead, SETTINGS.node, !unsteady) : b);
    }
    if (i >= 10) {
      const bun = {
        ...point(rand, 'wc', 'bun', { bs }, base * (i >= REDEFINED_COMMIT ? 0.8 : 1.1), bytes),
        definition: i >= REDEFINED_COMMIT ? 'bun-def-2' : 'bun-def',
      };
      benchmarks.push(
        headline
          ? { ...bun, counts: { status: 'unavailable', reason: 'bun has no deterministic settings to count with' } }
          : bun,
      );
    }
  }
  for (const n of [0, 10, 100]) {
    for (const mode of ['sync', 'async'])
      benchmarks.push(
        point(
          rand,
          'streams',
          'core-transform',
          { mode, n, runtime: 'node22' },
          speed * (0.05 + n * (mode === 'sync' ? 0.0004 : 0.0009)),
        ),
      );
  }
  // threadpool: c-pool swept over pool; bun takes no pool (its manifest `ignores` it).
  for (const pool of [1, 4, 12]) {
    const b = latency(rand, 'c-pool', { cache: 'warm', pool, work: 'read' }, 12 / Math.min(pool, 4));
    benchmarks.push(
      pool === 4
        ? {
            ...b,
            metrics: { ...b.metrics, instructions: work(2_400_000) },
            counts: {
              status: 'ok',
              settings: SETTINGS.native,
              role: 'evidence',
              because: 'threads and the kernel decide its cost',
              spread: 0,
              tolerance: 0.005,
              repeats: 1,
              deterministic: true,
            },
          }
        : b,
    );
  }
  benchmarks.push(latency(rand, 'bun', { cache: 'warm', work: 'read' }, 2.5));
  if (i === COMMITS - 1) {
    benchmarks.push({
      id: 'wc/just-sync/bs=65536',
      experiment: 'wc',
      variant: 'just-sync',
      params: { bs: 65536 },
      status: 'skipped',
      reason: 'just(js) is not installed',
      hint: 'install just(js) 0.1.13',
      derived: {},
      metrics: {},
    });
    benchmarks.push({
      id: 'wc/deno/bs=65536',
      experiment: 'wc',
      variant: 'deno',
      params: { bs: 65536 },
      status: 'failed',
      reason: 'wrong result: bytes = 1, expected 2',
      derived: {},
      metrics: {},
    });
  }
  const date = new Date(Date.UTC(2026, 9, 1 + i, 12)).toISOString();
  return {
    schema: 2,
    run: {
      id: `run-${machine}-${i}`,
      profile,
      partial: false,
      start: date,
      end: date,
      commit: {
        sha: sha(machine, i),
        ref: 'main',
        subject: i === STEP_COMMIT ? 'Switch stream reads to a slower path' : `Commit number ${i}`,
        date,
        dirty: false,
      },
      machine: {
        id: machine === 1 ? 'bench-fast-0a1b2c3d' : 'bench-slow-4e5f6a7b',
        hostname: `bench-${machine}`,
        cpu: machine === 1 ? 'Fast CPU 9000' : 'Slow CPU 100',
        cores: 4,
        memoryBytes: 16 * 2 ** 30,
        kernel: 'Linux 6.1',
        governor: 'performance',
        runner: `jsio-bench-${machine}`,
      },
      toolchains: { node: '22.23.3', gcc: '12.2.0', hyperfine: '1.20.0' },
    },
    experiments: {
      wc: {
        title: 'the cost of a read() system call',
        question: 'What does a read() system call cost from JavaScript compared with C?',
        parameters: { bs: { description: 'block size', unit: 'B' } },
        summary: {
          at: { bs: 65536 },
          metrics: ['throughput', 'wall_time', 'max_rss'],
          ratios: [{ metric: 'throughput', to: 'c' }],
        },
        headline: { at: { bs: 65536 }, metrics: ['throughput'] },
      },
      streams: {
        title: 'the cost of a stream transform',
        question: 'What does one stream transform cost in Node.js?',
        parameters: { n: { description: 'transforms' }, mode: { description: 'sync or async' } },
        headline: { at: { n: 100 }, metrics: ['wall_time'] },
      },
      threadpool: {
        title: 'does UV_THREADPOOL_SIZE change file I/O latency?',
        question: 'How does per-file latency change with the pool size?',
        parameters: {
          work: { description: 'read or parse' },
          cache: { description: 'cold or warm' },
          pool: { description: 'threads', unit: 'threads' },
        },
        summary: {
          at: { work: 'read', cache: 'warm', pool: [1, 4, 12] },
          metrics: ['latency_p50'],
          ratios: [{ metric: 'latency_p50', at: { pool: 4 } }],
        },
        headline: { at: { pool: 4 }, metrics: ['latency_p50'] },
      },
    },
    benchmarks,
  };
}

/** A smoke run: the same points at a tenth of the size (another workload hash). */
function smokeRun(machine: number, i: number): Results {
  const r = fixtureRun(machine, i, 'smoke');
  for (const b of r.benchmarks) {
    if (b.workload) b.workload = `${b.workload}-smoke`;
    for (const m of Object.values(b.metrics)) {
      // Counts are no timings: a smaller workload does not make them ten times faster.
      if (m.deterministic || m.source === 'valgrind') continue;
      const f = m.direction === 'smaller' ? 0.1 : 1;
      m.value *= f;
      if (m.samples) m.samples = m.samples.map((v) => v * f);
      if (m.stats) m.stats = stats(m.samples ?? [m.value]);
    }
  }
  r.run.id = `${r.run.id}-smoke`;
  return r;
}

export async function writeFixtureStore(dir: string, commits = COMMITS): Promise<void> {
  for (const machine of [1, 2]) for (let i = 0; i < commits; i++) await publishRun(dir, fixtureRun(machine, i));
  for (let i = Math.max(0, commits - SMOKE_COMMITS); i < commits; i++) await publishRun(dir, smokeRun(1, i));
}
