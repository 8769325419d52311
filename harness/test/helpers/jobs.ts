/** Jobs for unit tests: a point planned with every runtime "installed" at a fake path. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from '../../src/model/job.js';
import type { InputResult } from '../../src/plan/inputs.js';
import { type PlanEnvironment, planJob } from '../../src/plan/jobs.js';
import type { Point } from '../../src/plan/plan.js';
import type { RawSamples } from '../../src/run/runner.js';

export function jobOf(point: Point, env: Partial<PlanEnvironment> & { input?: InputResult } = {}): Job {
  const runtimes = new Map([
    [point.runtime, { ok: true as const, path: `/fake/${point.runtime}`, version: '1.0.0' }],
    ['gcc', { ok: true as const, path: '/usr/bin/gcc', version: '12.2.0' }],
    ...(env.runtimes ?? []),
  ]);
  const inputs = new Map(env.input ? [[point.id, env.input]] : []);
  return planJob(point, { cacheDir: join(tmpdir(), 'jsio-test-cache'), require: [], ...env, runtimes, inputs });
}

/** Raw samples as a runner returns them, from hyperfine-like times. */
export function rawOf(times: number[], extra: Partial<RawSamples> = {}): RawSamples {
  return {
    status: 'ok',
    command: 'x',
    timer: 'hyperfine',
    report: {},
    runs: times.map((wall) => ({ wall })),
    notes: [],
    measuredSeconds: 0,
    ...extra,
  };
}
