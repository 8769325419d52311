// A real smoke run of the records experiment passes: reads match the generator's checksum,
// writes report fsync separately, and cold reads are either measured after verified eviction or
// skipped with the reason. The run is the tests' shared smoke run of every experiment
// (helpers/shared-smoke.ts).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseResults } from '../../src/formats/read-results.js';
import type { Results } from '../../src/formats/results-format.js';
import {
  ofExperiment,
  SHARED_SMOKE_TIMEOUT_MS,
  type SharedSmokeRun,
  sharedResultsFile,
  sharedSmokeRun,
} from '../helpers/shared-smoke.js';

describe('records smoke run', () => {
  let cli: SharedSmokeRun;
  let results: Results;

  beforeAll(async () => {
    cli = await sharedSmokeRun();
    results = ofExperiment(parseResults('results.json', readFileSync(sharedResultsFile(cli), 'utf8')), 'records');
  }, SHARED_SMOKE_TIMEOUT_MS);

  it('exits 0 with no failed benchmark', () => {
    expect(cli.status, cli.stderr).toBe(0);
    expect(results.benchmarks.filter((b) => b.status === 'failed')).toEqual([]);
  });

  it('validates every read against the generated checksum', () => {
    const reads = results.benchmarks.filter((b) => b.status === 'ok' && b.params.op === 'read');
    expect(reads.length).toBeGreaterThan(0);
    for (const b of reads)
      expect(b.validation?.checks.find((c) => c.field === 'checksum')).toMatchObject({
        ok: true,
        expected: b.derived.input_sum32,
      });
  });

  it('reports the fsync time of every write apart from the write loop', () => {
    const writes = results.benchmarks.filter((b) => b.status === 'ok' && b.params.op === 'write');
    expect(writes.length).toBeGreaterThan(0);
    for (const b of writes) {
      expect(b.metrics.fsync_seconds?.unit).toBe('s');
      expect(b.metrics.io_seconds?.unit).toBe('s');
    }
  });

  it('leads with the program’s own I/O time: a rate per run over io_seconds, start-up left out', () => {
    const ok = results.benchmarks.filter((b) => b.status === 'ok');
    for (const b of ok) {
      const io = b.metrics.io_throughput;
      expect(io, b.id).toMatchObject({ unit: 'MB/s', direction: 'bigger', source: 'program' });
      expect(io?.samples).toHaveLength(b.metrics.wall_time?.samples?.length ?? -1);
      // The I/O loop is a part of the process's life: its rate is higher than the whole run's.
      expect(io!.value, b.id).toBeGreaterThan(b.metrics.throughput!.value);
      // Every run's own timer, not one check run's: io_seconds is sampled.
      expect(b.metrics.io_seconds?.deterministic).toBe(false);
    }
  });

  it('measures cold reads only after verified eviction, or says why not', () => {
    const cold = results.benchmarks.filter((b) => b.params.cache === 'cold' && b.variant === 'c');
    expect(cold).toHaveLength(2);
    for (const b of cold) {
      if (b.status === 'skipped') expect(b.reason).toMatch(/^cold cache: /);
      else expect(b.command).toBeDefined();
    }
  });
});
