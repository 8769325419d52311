// Real hyperfine 1.20.0 exports (committed fixtures): a parameter sweep with per-run memory, and a
// single failing run (stddev null, non-zero exit code); per-run memory becomes the pipeline's
// max RSS metric, sampled like the times.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { metricsOf } from '../../src/run/normalize.js';
import { parseHyperfineJson } from '../../src/run/parse-hyperfine.js';
import { FIXTURES, ROOT } from '../helpers/cli.js';
import { jobOf, rawOf } from '../helpers/jobs.js';

const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

describe('hyperfine 1.20 exports', () => {
  it('reads a parameter sweep with one memory sample per timed run', () => {
    const runs = parseHyperfineJson('hyperfine-1.20-params.json', fixture('hyperfine-1.20-params.json'));
    expect(runs.map((r) => r.command)).toEqual([
      'dd if=/dev/zero bs=4096 count=100 status=none | wc -c',
      'dd if=/dev/zero bs=65536 count=100 status=none | wc -c',
    ]);
    for (const r of runs) {
      expect(r.memoryBytes).toHaveLength(r.times.length);
      expect(r.exitCodes).toEqual([0, 0, 0]);
    }
    expect(runs[1]?.memoryBytes).toEqual([3280896, 3280896, 3280896]);
  });

  it('reads a single run (stddev null) and keeps its non-zero exit code', () => {
    const [run] = parseHyperfineJson('one.json', fixture('hyperfine-1.20-one-run-failing.json'));
    expect(run?.times).toHaveLength(1);
    expect(run?.exitCodes).toEqual([3]);
    expect(run?.memoryBytes).toEqual([3031040]);
  });

  it('turns per-run memory into a sampled pipeline_max_rss metric in bytes', () => {
    const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
    const [point] = expand([wc], 'smoke', { variants: ['c'], params: { bs: [65536] } });
    const [hf] = parseHyperfineJson('p.json', fixture('hyperfine-1.20-params.json')).slice(1);
    const job = { ...jobOf(point!), throughputBytes: 6553600 };
    const metrics = metricsOf(
      job,
      rawOf(hf!.times, {
        report: { bytes: 6553600, reads: 100 },
        runs: hf!.times.map((wall, i) => ({ wall, memoryBytes: hf!.memoryBytes![i]! })),
      }),
    );
    expect(metrics.pipeline_max_rss).toMatchObject({
      unit: 'B',
      direction: 'smaller',
      value: 3280896,
      samples: [3280896, 3280896, 3280896],
    });
    expect(metrics.wall_time?.samples).toEqual(hf?.times);
    // 6.5536 MB in 5.69 ms (the median run)
    expect(metrics.throughput?.value).toBeCloseTo(6.5536 / 0.00569129926, 6);
    expect(metrics.reads).toMatchObject({ value: 100, deterministic: true });
    expect(metrics.bytes).toBeUndefined(); // "metric": false in the manifest: validation only
  });

  it('gives no pipeline_max_rss for a 1.15 export', () => {
    const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
    const [point] = expand([wc], 'smoke', { variants: ['c'], params: { bs: [65536] } });
    const [hf] = parseHyperfineJson('p.json', fixture('hyperfine-1.15-params.json')).slice(1);
    const metrics = metricsOf(jobOf(point!), rawOf(hf!.times));
    expect(metrics.wall_time).toBeDefined();
    expect(metrics.pipeline_max_rss).toBeUndefined();
  });
});
