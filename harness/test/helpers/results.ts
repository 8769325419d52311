import { describe as stats } from '../../src/analysis/describe.js';
import type { Benchmark, Metric, Results } from '../../src/formats/results-format.js';

export function timed(samples: number[], unit = 's', direction: 'smaller' | 'bigger' = 'smaller'): Metric {
  const s = stats(samples);
  return { unit, direction, value: s.median, samples, stats: s, deterministic: false, source: 'hyperfine' };
}

export function counter(value: number, unit = 'calls'): Metric {
  return { unit, direction: 'smaller', value, deterministic: true, source: 'strace' };
}

export function bench(
  variant: string,
  params: Record<string, number | string>,
  metrics: Record<string, Metric>,
  extra: Partial<Benchmark> = {},
): Benchmark {
  const key = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join(',');
  return {
    id: `wc/${variant}/${key}`,
    experiment: 'wc',
    variant,
    params,
    status: 'ok',
    derived: {},
    metrics,
    ...extra,
  };
}

export function results(benchmarks: Benchmark[], sha = 'a'.repeat(40)): Results {
  return {
    schema: 1,
    run: {
      id: `20261121T000000Z-${sha.slice(0, 7)}`,
      profile: 'smoke',
      partial: false,
      start: '2026-11-21T00:00:00.000Z',
      end: '2026-11-21T00:01:00.000Z',
      commit: { sha, ref: 'main', subject: 'a commit | with <html>', date: '2026-11-21T00:00:00Z', dirty: false },
      machine: {
        id: 'test-machine',
        hostname: 'h',
        cpu: 'Test CPU',
        cores: 2,
        memoryBytes: 2 ** 34,
        kernel: 'Linux 6',
        governor: 'unavailable',
        runner: 'local',
      },
      toolchains: { node: '20.20.2', hyperfine: '1.15.0' },
    },
    experiments: { wc: { title: 'the cost of a read() system call', question: 'What does a read() cost?' } },
    benchmarks,
  };
}

/** A small wc run: c, node-stream under two node versions, dd-null; a skipped and a failed point. */
export function wcResults(sha?: string): Results {
  const at64 = (variant: string, t: number[], extra: Record<string, number | string> = {}) =>
    bench(
      variant,
      { bs: 65536, ...extra },
      {
        wall_time: timed(t),
        throughput: timed(
          t.map((x) => 64 / x),
          'MB/s',
          'bigger',
        ),
        // The fit's start-up-free metrics: 1,024 reads per run, 10% of the time is start-up.
        read_cost: timed(
          t.map((x) => ((x * 0.9) / 1024) * 1e9),
          'ns',
        ),
        steady_throughput: timed(
          t.map((x) => 64 / (x * 0.9)),
          'MB/s',
          'bigger',
        ),
        startup: timed(t.map((x) => x * 0.1)),
        max_rss: counter(variant === 'c' ? 1.5 * 2 ** 20 : 50 * 2 ** 20, 'B'),
        reads: counter(1024),
        'syscalls.read': counter(1026),
      },
    );
  return results(
    [
      at64('c', [0.05, 0.051, 0.049]),
      at64('node-stream', [0.1, 0.11, 0.09], { runtime: 'node20' }),
      at64('node-stream', [0.08, 0.081, 0.079], { runtime: 'node22' }),
      at64('dd-null', [0.045, 0.046, 0.044]),
      bench('c', { bs: 4096 }, { wall_time: timed([0.2, 0.21, 0.19]) }),
      bench(
        'just-sync',
        { bs: 65536 },
        {},
        { status: 'skipped', reason: 'just(js) is not installed', hint: 'install it' },
      ),
      bench('bun', { bs: 65536 }, {}, { status: 'failed', reason: 'wrong result: bytes = 1 | 2, expected 3' }),
    ],
    sha,
  );
}
