// hyperfine can report a time of 0 (or below) for a very fast command, after subtracting its
// shell's start-up: such samples give no throughput, and never a non-finite number.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Metric } from '../../src/formats/results-format.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { metricsOf } from '../../src/run/normalize.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf, rawOf } from '../helpers/jobs.js';

describe('throughput from hyperfine times', () => {
  const [point] = expand([loadExperiment(join(ROOT, 'programs', 'wc'))], 'smoke', {
    variants: ['c'],
    params: { bs: [65536] },
  });
  const job = { ...jobOf(point!), throughputBytes: 1e6 };
  const measure = (times: number[]) => metricsOf(job, rawOf(times));

  it('skips zero and negative times', () => {
    const m = measure([0, -0.0001, 0.001, 0.002]);
    expect(m.throughput?.samples).toEqual([1000, 500]);
    expect(() => Metric.parse(m.throughput)).not.toThrow();
    expect(JSON.stringify(m)).not.toContain('null');
  });

  it('gives no throughput when no time is positive', () => {
    expect(measure([0, 0]).throughput).toBeUndefined();
  });
});
