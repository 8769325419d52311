// wc's headline cost comes from a line through runs at two input sizes. At a small profile the
// start-up noise can exceed the reads' time, so the larger input is not slower: that line's slope
// is not a cost, and the benchmark must say so instead of reporting a negative cost per read.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { metricsOf, normalize } from '../../src/run/normalize.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf, rawOf } from '../helpers/jobs.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
const [point] = expand([wc], 'smoke', { variants: ['c'], params: { bs: [65536] } });
const job = jobOf(point!);
const runs = (times: number[]) => rawOf(times).runs;

function measured(small: number[], large: number[]) {
  const raw = rawOf(large, { report: { bytes: 4194304, reads: 64 } });
  return {
    ...raw,
    sizes: [
      { scale: 0.125, x: 8, bytes: 524288, runs: runs(small) },
      { scale: 1, x: 64, bytes: 4194304, runs: runs(large) },
    ],
  };
}

describe('the start-up-free fit', () => {
  it('reports cost, start-up and steady throughput when the larger input takes longer', () => {
    const b = normalize(job, measured([0.0101, 0.0099, 0.01], [0.0142, 0.0138, 0.014]));
    expect(b.metrics.read_cost?.value).toBeGreaterThan(0);
    expect(b.metrics.read_cost?.source).toBe('fit');
    expect(b.metrics.startup?.value).toBeCloseTo(0.0094, 3);
    expect(b.metrics.steady_throughput?.value).toBeGreaterThan(0);
    expect(b.reason).toBeUndefined();
  });

  it('reports none of them, and says why, when it does not', () => {
    const raw = measured([0.012, 0.0125, 0.0118], [0.0101, 0.0099, 0.01]);
    const metrics = metricsOf(job, raw);
    for (const name of ['read_cost', 'startup', 'steady_throughput']) expect(metrics[name], name).toBeUndefined();
    expect(metrics.wall_time).toBeDefined();
    const b = normalize(job, raw);
    expect(b.status).toBe('ok');
    expect(b.reason).toMatch(/no cost per operation.*larger profile/);
  });
});
