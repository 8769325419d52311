// The preload plan names, for the default machine and workload, files the store has and the
// app reads: the recent windows (newest first until RECENT_COMMITS), the shards of each metric
// in those windows only, each experiment's newest run, the two newest commits for Compare.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths, STORE_SCHEMA } from '../../src/formats/parts/store-layout.js';
import { preloadPlan } from '../../src/site/preload-build.js';

const M = 'm-1';
const sha = (i: number) => i.toString(16).padStart(40, '0');
const date = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 3600_000).toISOString();
/** Windows of 100, 100 and 30 commits: the recent ones are the last two (30 is under 60). */
const SIZES = [100, 100, 30];

function store(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-preload-plan-'));
  const put = (path: string, value: unknown) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), JSON.stringify(value));
  };
  const machine = { id: M, hostname: 'h', cpu: 'c', cores: 2, memoryBytes: 1, kernel: 'k', governor: 'g', runner: 'r' };
  const profiles = { standard: { commits: 230, lastRun: date(229) }, smoke: { commits: 1, lastRun: date(229) } };
  put(paths.machines(), {
    schema: STORE_SCHEMA,
    machines: {
      [M]: { machine, lastRun: date(229), commits: 230, profiles },
      'z-other': { machine: { ...machine, id: 'z-other' }, lastRun: date(1), commits: 1, profiles },
    },
  });
  let first = 0;
  const windows = SIZES.map((n, w) => {
    const id = String(w).padStart(4, '0');
    const commits = Array.from({ length: n }, (_, k) => first + k).map((i) => ({
      sha: sha(i),
      date: date(i),
      subject: `c${i}`,
      ref: 'main',
      runId: `r${i}`,
      file: `runs/${sha(i)}/standard.json`,
      counts: { ok: 1, skipped: 0, failed: 0 },
      // "old" was last measured in the middle window.
      experiments: i < 200 ? ['old', 'wc'] : ['wc'],
    }));
    put(paths.commits(M, 'standard', id), { schema: STORE_SCHEMA, profile: 'standard', window: id, commits });
    first += n;
    return {
      id,
      first: { date: date(first - n), sha: sha(first - n) },
      last: { date: date(first - 1), sha: sha(first - 1) },
      commits: n,
    };
  });
  const metric = (w: [number, number]) => ({ unit: 's', direction: 'smaller', source: 'hyperfine', windows: w });
  put(paths.catalog(M, 'standard'), {
    schema: STORE_SCHEMA,
    machine: M,
    profile: 'standard',
    windows,
    experiments: {
      wc: { metrics: { wall_time: metric([0, 2]), read_cost: metric([2, 2]) }, latest: windows[2]!.last },
      old: { metrics: { wall_time: metric([0, 1]) }, latest: windows[1]!.last },
    },
  });
  return dir;
}

describe('preloadPlan', () => {
  const plan = preloadPlan(store())!;
  const T = `data/${M}/trends/standard`;

  it('is for the first machine and its default workload', () => {
    expect([plan.machine, plan.profile]).toEqual([M, 'standard']);
    expect(plan.machines).toBe('data/machines.json');
    expect(plan.catalog).toBe(`data/${paths.catalog(M, 'standard')}`);
    expect(plan.noise).toBe(`data/${paths.noise(M)}`);
    expect(plan.regressions).toBe(`data/${paths.regressions(M, 'standard')}`);
  });

  it('opens on the windows newest first until they hold 60 commits', () => {
    expect(plan.windows).toEqual([`${T}/0001/`, `${T}/0002/`]);
    expect(`${plan.windows[0]}commits.json`).toBe(`data/${paths.commits(M, 'standard', '0001')}`);
  });

  it("lists a metric's shards only in the recent windows it has files in", () => {
    expect(plan.shards).toEqual({ old: { wall_time: [0] }, wc: { read_cost: [1], wall_time: [0, 1] } });
    expect(`${plan.windows[0]}old/wall_time.json`).toBe(
      `data/${paths.shard(M, 'standard', '0001', 'old', 'wall_time')}`,
    );
  });

  it('names the newest runs: per experiment (sorted), for the Overview, and the pair Compare opens on', () => {
    const run = (i: number) => `data/${M}/runs/${sha(i)}/standard.json`;
    expect(plan.latest).toEqual([
      ['old', run(199)],
      ['wc', run(229)],
    ]);
    expect(plan.runs).toEqual([run(199), run(229)]);
    expect(plan.compare).toEqual([run(228), run(229)]);
  });

  it('is none for an empty store', () => {
    expect(preloadPlan(mkdtempSync(join(tmpdir(), 'jsio-preload-empty-')))).toBeUndefined();
  });
});
