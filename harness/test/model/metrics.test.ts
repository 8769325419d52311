// The metric catalogue is what normalize makes: every harness metric of a measured job has the
// catalogue's unit and direction, and is deterministic exactly when the catalogue says counter.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_METRICS, harnessMetric, type MetricSpec, trended } from '../../src/model/metrics.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { metricsOf } from '../../src/run/normalize.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf, rawOf } from '../helpers/jobs.js';

describe('the metric catalogue', () => {
  const [point] = expand([loadExperiment(join(ROOT, 'programs', 'wc'))], 'smoke', {
    variants: ['c'],
    params: { bs: [65536] },
  });
  const job = { ...jobOf(point!), throughputBytes: 1e6 };
  const runs = (walls: number[]) => walls.map((wall) => ({ wall, memoryBytes: 2e6 }));
  const metrics = metricsOf(
    job,
    rawOf([0.05, 0.052, 0.051], {
      runs: runs([0.05, 0.052, 0.051]),
      maxRssBytes: 1.5e6,
      syscalls: { calls: { read: 20, write: 1 }, errors: {}, total: 21 },
      sizes: [
        { scale: 0.125, x: 10, bytes: 1e5, runs: runs([0.01, 0.011, 0.0105]) },
        { scale: 1, x: 80, bytes: 8e5, runs: runs([0.05, 0.052, 0.051]) },
      ],
    }),
  );
  const fit = job.experiment.manifest.fit;

  it('declares every metric the harness makes, as normalize makes it', () => {
    const own = Object.keys(metrics).filter((name) => harnessMetric(name, fit));
    expect(own.sort()).toEqual(
      [
        'max_rss',
        'pipeline_max_rss',
        fit!.cost,
        'startup',
        'steady_throughput',
        'syscalls.read',
        'syscalls.total',
        'syscalls.write',
        'throughput',
        'wall_time',
      ].sort(),
    );
    for (const name of own) {
      const spec = harnessMetric(name, fit)!;
      const m = metrics[name]!;
      expect({ name, unit: m.unit, direction: m.direction, deterministic: m.deterministic }).toEqual({
        name,
        unit: spec.unit,
        direction: spec.direction,
        deterministic: spec.kind === 'counter',
      });
    }
  });

  it('names, for a second measure of a quantity, a metric of the catalogue measuring it once', () => {
    const specs: [string, MetricSpec][] = Object.entries(HARNESS_METRICS);
    const again = specs.filter(([, spec]) => spec.sameQuantityAs);
    expect(again.length).toBeGreaterThan(0);
    for (const [name, spec] of again)
      expect(harnessMetric(spec.sameQuantityAs!), name).toMatchObject({ unit: spec.unit, kind: 'counter' });
  });

  it('leaves an experiment its own metrics, and trends all but the syscall breakdown', () => {
    expect(harnessMetric('reads', fit)).toBeUndefined();
    expect(harnessMetric('syscalls.read')?.kind).toBe('counter');
    expect([trended('syscalls.read'), trended('syscalls.total'), trended('reads')]).toEqual([false, true, true]);
  });
});
