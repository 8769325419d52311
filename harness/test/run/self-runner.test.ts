// Runner "self" end to end on programs/threadpool (smoke): each run's line is validated, the
// per-file latencies become percentile metrics with one sample per batch, and wall time per
// batch is kept. Parse points check the job count; read points report that check as skipped.
// The run is threadpool's part of the tests' shared smoke run of every experiment
// (helpers/shared-smoke.ts): its smoke pools are 1 and 4.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseResults } from '../../src/formats/read-results.js';
import type { Results } from '../../src/formats/results-format.js';
import { ofExperiment, SHARED_SMOKE_TIMEOUT_MS, sharedResultsFile, sharedSmokeRun } from '../helpers/shared-smoke.js';

describe('threadpool smoke run (runner self)', () => {
  let results: Results;
  let summary: string;
  beforeAll(async () => {
    const cli = await sharedSmokeRun();
    expect(cli.status, cli.stderr.slice(-3000)).toBe(0);
    const all = parseResults('results.json', readFileSync(sharedResultsFile(cli), 'utf8'));
    results = ofExperiment(all, 'threadpool');
    // Every experiment's section: the lines below are threadpool's own.
    summary = readFileSync(join(cli.out, 'summary.md'), 'utf8');
  }, SHARED_SMOKE_TIMEOUT_MS);

  it('measures all 32 points, cold ones included', () => {
    expect(results.benchmarks.filter((b) => b.status !== 'ok').map((b) => `${b.id}: ${b.reason}`)).toEqual([]);
    // node-promises, node-callback and c-pool at 2 pool sizes x 4 scenarios; Bun and Deno once per scenario.
    expect(results.benchmarks).toHaveLength(32);
  });

  it('runs Bun and Deno once per scenario, without a pool parameter (they have no UV_THREADPOOL_SIZE)', () => {
    for (const runtime of ['bun', 'deno']) {
      expect(results.benchmarks.filter((b) => b.variant === runtime).map((b) => b.id)).toEqual([
        `threadpool/${runtime}/cache=cold,runtime=${runtime},work=read`,
        `threadpool/${runtime}/cache=warm,runtime=${runtime},work=read`,
        `threadpool/${runtime}/cache=cold,runtime=${runtime},work=parse`,
        `threadpool/${runtime}/cache=warm,runtime=${runtime},work=parse`,
      ]);
    }
    expect(summary).toMatch(/\| bun \(work read, cache cold, pool n\/a\) \|/);
    expect(summary).toMatch(/\| deno \(work parse, cache warm, pool n\/a\) \|/);
  });

  it('turns per-file latencies into ordered percentiles with one sample per batch', () => {
    for (const b of results.benchmarks) {
      const names = ['p50', 'p70', 'p80', 'p90', 'p99', 'max'].map((p) => `latency_${p}`);
      const values = names.map((n) => b.metrics[n]?.value ?? NaN);
      expect(
        values.every((v) => v > 0),
        b.id,
      ).toBe(true);
      expect([...values].sort((x, y) => x - y)).toEqual(values);
      for (const n of names) expect(b.metrics[n]?.samples).toHaveLength(3);
      expect(b.metrics.wall_time?.samples).toHaveLength(3);
      expect(b.metrics.latency_max?.value).toBeLessThanOrEqual((b.metrics.wall_time?.stats?.max ?? 0) * 1000);
    }
  });

  it('checks the job count only where files are parsed', () => {
    for (const b of results.benchmarks) {
      const jobs = b.validation?.checks.find((c) => c.field === 'jobs');
      if (b.params.work === 'parse') expect(jobs).toMatchObject({ ok: true, seen: 20 * (b.derived.input_jobs ?? NaN) });
      else expect(jobs?.skipped).toBe('applies only at work=parse');
      expect(b.validation?.checks.find((c) => c.field === 'bytes')?.seen).toBe(
        20 * (b.derived.input_file_bytes ?? NaN),
      );
    }
  });

  it('answers the question in the summary: ratios to pool 4 and to reading alone', () => {
    expect(summary).toContain('latency_p50 vs pool 4');
    expect(summary).toContain('latency_p50 vs work read');
    expect(summary).toMatch(/\| c-pool \(work parse, cache warm, pool 4\) \|.*\| 1\.00x \|/);
    // Smoke has no pool 12, so the beyond-4-threads question has nothing to compare; parsing does.
    expect(summary).toContain(
      '**Does latency improve beyond 4 threads?** latency_p50, pool 12 vs pool 4:\n\nNo pair of points measured for it in this run.',
    );
    expect(summary).toMatch(
      /\*\*Is parsing the bottleneck once reads are cached\?\*\*[^\n]*\n\n- pool 1: node-promises \(node\d+\) \d+\.\d\dx/,
    );
  });
});
