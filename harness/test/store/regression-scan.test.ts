// Change points over every series of a profile (trends/<profile>/regressions.json): the site's
// Regressions view and tools read the same list. On the site's fixture store: a planted 25% step
// (node-stream under node22 from commit 20) and bun's program changed at commit 25 (its step is
// found like any other, and marked).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/formats/parts/store-layout.js';
import { RegressionsFile } from '../../src/formats/trend-store-format.js';
import { findChanges, regressionsFile } from '../../src/store/regression-scan.js';

const store = join(import.meta.dirname, '..', '..', '..', 'gh-pages', 'test', 'fixtures', 'store');
const machine = 'bench-fast-0a1b2c3d';
const read = (p: string) => JSON.parse(readFileSync(join(store, p), 'utf8'));
const input = (profile: string) => {
  const catalog = read(paths.catalog(machine, profile));
  return {
    machine,
    catalog,
    commits: catalog.windows.map((w: { id: string }) => read(paths.commits(machine, profile, w.id))),
    noise: {},
    shard: (w: string, e: string, m: string) => {
      try {
        return read(paths.shard(machine, profile, w, e, m));
      } catch {
        return undefined;
      }
    },
  };
};
const sha = (i: number) => `1${String(i).padStart(3, '0')}`.padEnd(40, 'f');

describe('regressions', () => {
  const changes = findChanges(input('standard'));

  it('finds the planted step with its commit range, size and interval, as a regression', () => {
    const step = changes.find(
      (c) => c.benchmark === 'wc/node-stream/bs=65536,runtime=node22' && c.metric === 'wall_time',
    );
    expect(step).toMatchObject({
      worse: true,
      programChanged: false,
      from: { sha: sha(19) },
      to: { sha: sha(20), window: '0000' },
    });
    expect(step!.ratio).toBeGreaterThan(1.2);
    expect(step!.ratio).toBeLessThan(1.3);
    expect(step!.ci[0]).toBeLessThan(step!.ratio);
    expect(step!.ci[1]).toBeGreaterThan(step!.ratio);
    expect(step!.points).toEqual([20, 10]);
  });

  it('finds the step where a program changed, marked, and leaves derived metrics out', () => {
    const bun = changes.find((c) => c.benchmark === 'wc/bun/bs=65536' && c.metric === 'wall_time');
    expect(bun).toMatchObject({ programChanged: true, worse: false, to: { sha: sha(25) } });
    expect(changes.some((c) => c.metric === 'throughput')).toBe(false); // source "derived"
  });

  it('finds a step in counted work exactly, and none where a count did not repeat or is evidence only', () => {
    const work = changes.filter((c) => c.metric === 'instructions_per_op' || c.metric === 'instructions');
    const step = work.filter((c) => c.metric === 'instructions_per_op');
    expect(step).toEqual([
      expect.objectContaining({
        benchmark: 'wc/node-stream/bs=65536,runtime=node22',
        worse: true,
        from: expect.objectContaining({ sha: sha(19) }),
        to: expect.objectContaining({ sha: sha(20) }),
        before: 15_243,
        points: [1, 1],
      }),
    ]);
    // Exact: the ratio of the two counts is its own interval.
    expect(step[0]!.ratio).toBeCloseTo(1.25, 4);
    expect(step[0]!.ci).toEqual([step[0]!.ratio, step[0]!.ratio]);
    // node20's count that did not repeat (commit 12) and threadpool's evidence are no steps.
    expect(work.map((c) => c.benchmark).sort()).toEqual([
      'wc/node-stream/bs=65536,runtime=node22',
      'wc/node-stream/bs=65536,runtime=node22',
    ]);
  });

  it('lists newest first and validates as the file tools read', () => {
    const dates = changes.map((c) => c.to.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const file = RegressionsFile.parse(regressionsFile(input('standard')));
    expect(file.regressions.length).toBe(changes.length);
    // The smoke workload has three commits: too few for a change point, and never mixed in.
    expect(findChanges(input('smoke'))).toEqual([]);
  });
});
