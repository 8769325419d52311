// hyperfine subtracts its shell's start-up time and clamps at 0, so a very fast command has runs
// of 0 s (committed: a real hyperfine 1.15 export of `true`). Those runs have no throughput; no
// metric may come out NaN or infinite, which JSON would write as null and every reader refuse.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseResults } from '../../src/formats/read-results.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { metricsOf, normalize } from '../../src/run/normalize.js';
import { parseHyperfineJson } from '../../src/run/parse-hyperfine.js';
import { FIXTURES, ROOT } from '../helpers/cli.js';
import { jobOf, rawOf } from '../helpers/jobs.js';
import { results } from '../helpers/results.js';

const [hf] = parseHyperfineJson('zero.json', readFileSync(join(FIXTURES, 'hyperfine-1.15-zero-times.json'), 'utf8'));
const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
const [point] = expand([wc], 'smoke', { variants: ['c'], params: { bs: [65536] } });
const job = { ...jobOf(point!), throughputBytes: 4194304 };
const measurement = rawOf(hf!.times, { command: 'true', report: { bytes: 4194304, reads: 64 } });

describe('runs hyperfine timed at 0 s', () => {
  it('are in the fixture, beside runs that took time', () => {
    expect(hf!.times.filter((t) => t === 0).length).toBeGreaterThan(0);
    expect(hf!.times.filter((t) => t > 0).length).toBeGreaterThan(0);
  });

  it('stay in the wall time, and are left out of the throughput', () => {
    const metrics = metricsOf(job, measurement);
    expect(metrics.wall_time?.samples).toEqual(hf!.times);
    const positive = hf!.times.filter((t) => t > 0);
    expect(metrics.throughput?.samples).toHaveLength(positive.length);
    expect(metrics.throughput?.stats?.max).toBeCloseTo(4.194304 / Math.min(...positive), 6);
  });

  it('give only finite numbers, so results.json reads back', () => {
    const b = normalize(job, measurement);
    for (const [name, m] of Object.entries(b.metrics)) {
      expect(Number.isFinite(m.value), name).toBe(true);
      for (const x of [...(m.samples ?? []), ...Object.values(m.stats ?? {})])
        expect(Number.isFinite(x), name).toBe(true);
    }
    const text = JSON.stringify(results([b]));
    expect(text).not.toContain('null');
    expect(parseResults('results.json', text).benchmarks[0]?.metrics.throughput?.unit).toBe('MB/s');
  });
});
