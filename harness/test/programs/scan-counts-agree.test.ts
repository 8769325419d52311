// A real smoke run of programs/scan: every variant (Node and C, blocking and event loop, cold
// and warm) reports the same counts for the same project, equal to what the generator recorded.
// The run is the tests' shared smoke run of every experiment (helpers/shared-smoke.ts).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseResults } from '../../src/formats/read-results.js';
import type { Results } from '../../src/formats/results-format.js';
import { ofExperiment, SHARED_SMOKE_TIMEOUT_MS, sharedResultsFile, sharedSmokeRun } from '../helpers/shared-smoke.js';

describe('scan smoke run', () => {
  let results: Results;
  beforeAll(async () => {
    const cli = await sharedSmokeRun();
    expect(cli.status, cli.stderr.slice(-3000)).toBe(0);
    results = ofExperiment(parseResults('results.json', readFileSync(sharedResultsFile(cli), 'utf8')), 'scan');
  }, SHARED_SMOKE_TIMEOUT_MS);

  // just(js) runs where it is installed (its own test, just-variants.integration, requires it in CI).
  const justMissing = (b: Results['benchmarks'][number]) =>
    b.variant.startsWith('just-') && b.status === 'skipped' && /just\(js\) is not installed/.test(b.reason ?? '');

  it('measures every variant at every point, cold points included', () => {
    // 6 variants × 2 sizes × cold and warm.
    expect(results.benchmarks.length).toBe(24);
    expect(
      results.benchmarks.filter((b) => b.status !== 'ok' && !justMissing(b)).map((b) => `${b.id}: ${b.reason}`),
    ).toEqual([]);
  });

  it('times each walk on the program’s own clock, start-up left out, every run', () => {
    for (const b of results.benchmarks.filter((x) => x.status === 'ok')) {
      const own = b.metrics.scan_seconds;
      expect(own, b.id).toMatchObject({ unit: 's', source: 'program' });
      expect(own?.samples?.length ?? 1, b.id).toBe(b.metrics.wall_time?.samples?.length);
      expect(own!.value, b.id).toBeLessThan(b.metrics.wall_time!.value);
    }
  });

  it('gets identical counts from all variants, equal to the generator’s', () => {
    for (const files of [10, 100]) {
      const mine = results.benchmarks.filter((b) => b.params.files === files && !justMissing(b));
      const seen = new Set(
        mine.map((b) => JSON.stringify(Object.fromEntries((b.validation?.checks ?? []).map((c) => [c.field, c.seen])))),
      );
      expect(seen.size).toBe(1);
      for (const b of mine) {
        expect(b.validation?.ok).toBe(true);
        for (const c of b.validation?.checks ?? []) {
          expect(c.skipped).toBeUndefined();
          expect(c.seen).toBe(b.derived[`input_${c.field}`]);
        }
      }
      expect(mine[0]?.derived.input_files).toBe(files);
    }
  });
});
