// hyperfine reports 0 s for commands faster than its shell's start-up time (seen on real scan
// runs): such a benchmark keeps its wall times but gets no throughput, so results.json stays
// valid (bytes / 0 s would be Infinity, written as null, refused by the results schema).
import { describe, expect, it } from 'vitest';
import { metricsOf } from '../src/normalize.js';
import type { Point } from '../src/plan.js';
import { Metric } from '../src/results/schema.js';
import type { Measurement } from '../src/run/measure.js';

const point = { experiment: { manifest: { reports: {} } } } as unknown as Point;
const measured = (times: number[]): Measurement => ({
  command: 'x',
  status: 'ok',
  reported: {},
  notes: [],
  measuredSeconds: 1,
  throughputBytes: 4096,
  hyperfine: { command: 'x', times, exitCodes: times.map(() => 0), userSeconds: 0, systemSeconds: 0 },
});

describe('throughput from wall times', () => {
  it('is derived when every time is positive', () => {
    const m = metricsOf(point, measured([0.001, 0.002]));
    expect(m.throughput?.samples).toEqual([4.096, 2.048]);
  });

  it('is left out when hyperfine reported 0 s, and every metric stays valid JSON', () => {
    const m = metricsOf(point, measured([0, 0, 2.79e-6]));
    expect(m.throughput).toBeUndefined();
    expect(m.wall_time?.samples).toEqual([0, 0, 2.79e-6]);
    for (const metric of Object.values(JSON.parse(JSON.stringify(m)) as Record<string, unknown>)) expect(() => Metric.parse(metric)).not.toThrow();
  });
});
