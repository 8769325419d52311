// A real smoke run of the streams experiment (Node 20, Bun, Deno) passes: every benchmark is
// validated and timed, and the per-transform slope is in results.json and summary.md. The run is
// the tests' shared smoke run of every experiment (helpers/shared-smoke.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('streams smoke run', () => {
  let out: string;
  let cli: SharedSmokeRun;
  let results: Results;

  beforeAll(async () => {
    cli = await sharedSmokeRun();
    out = cli.out;
    results = ofExperiment(parseResults('results.json', readFileSync(sharedResultsFile(cli), 'utf8')), 'streams');
  }, SHARED_SMOKE_TIMEOUT_MS);

  it('exits 0 with no failed benchmark', () => {
    expect(cli.status, cli.stderr).toBe(0);
    expect(results.benchmarks.filter((b) => b.status === 'failed')).toEqual([]);
  });

  it('checks lines and bytes against the generated file for every measured benchmark', () => {
    const ok = results.benchmarks.filter((b) => b.status === 'ok');
    expect(ok.length).toBeGreaterThan(0);
    for (const b of ok) {
      expect(b.validation?.checks.map((c) => [c.field, c.ok])).toEqual([
        ['lines', true],
        ['bytes', true],
      ]);
      expect(b.metrics.lines_per_s?.unit).toBe('lines/s');
    }
  });

  it('times the pipeline on the program’s own clock, shorter than the whole process, every run', () => {
    for (const b of results.benchmarks.filter((x) => x.status === 'ok')) {
      const own = b.metrics.pipeline_seconds;
      expect(own, b.id).toMatchObject({ unit: 's', source: 'program' });
      expect(own?.samples?.length, b.id).toBe(b.metrics.wall_time?.samples?.length);
      // Start-up is left out: the program's own time is below its process's wall time.
      expect(own!.value, b.id).toBeLessThan(b.metrics.wall_time!.value);
      expect(b.metrics.lines_per_s?.source, b.id).toBe('program');
    }
  });

  it('fits one slope per measured variant and mode', () => {
    const measured = new Set(
      results.benchmarks.filter((b) => b.status === 'ok').map((b) => `${b.variant}|${b.params.mode}`),
    );
    const fits = results.analyses ?? [];
    expect(new Set(fits.map((f) => `${f.variant}|${f.params.mode}`))).toEqual(measured);
    for (const f of fits) expect(f).toMatchObject({ xs: [0, 20], metric: 'pipeline_seconds' });
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('µs per transform');
  });
});
