// Stored data from before store v3 (which kept one run per commit whatever its profile and keyed
// series by benchmark alone) becomes the pseudo-profile "legacy": kept, shown apart, never merged
// into the series of new runs. Store v1 goes the same way (through v2).
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { programChanges, STORE_SCHEMA, seriesKey } from '../../src/model/store-layout.js';
import { migrateStore, publishRun } from '../../src/store/publish-run.js';
import { FIXTURES } from '../helpers/cli.js';
import { wcResults } from '../helpers/results.js';
import { catalogOf, indexOf, machinesOf, snapshot, trendOf } from '../helpers/store.js';

/** Written by the v2 publisher: commits 1-3 of a small wc run; commit 2 was published as standard, then as smoke (which replaced it), and every program changed at commit 3. */
const V2 = join(FIXTURES, 'store-v2');
const V1 = join(FIXTURES, 'store-v1');
const copy = (from: string) => {
  const store = mkdtempSync(join(tmpdir(), 'jsio-mig-'));
  cpSync(from, store, { recursive: true });
  return store;
};
const s = (c: string) => c.repeat(40);

describe('store v2 -> v3', () => {
  it('turns a v2 machine into the legacy profile, series keyed by workload "legacy", programs kept', async () => {
    const store = copy(V2);
    expect(await migrateStore(store)).toEqual(['test-machine']);
    const index = indexOf(store);
    expect(index.commits.map((c) => [c.sha[0], Object.keys(c.runs), c.runs.legacy!.profile])).toEqual([
      ['1', ['legacy'], 'standard'],
      ['2', ['legacy'], 'smoke'],
      ['3', ['legacy'], 'standard'],
    ]);
    // The run files stay where v2 put them.
    expect(index.commits[1]!.runs.legacy!.file).toBe(`runs/${s('2')}.json`);
    expect(existsSync(join(store, 'test-machine', index.commits[1]!.runs.legacy!.file))).toBe(true);
    const t = trendOf(store, 'legacy', 'wc', 'wall_time');
    expect(Object.values(t.series).every((x) => x.workload === 'legacy')).toBe(true);
    // v2's loss is visible, not hidden: the smoke publish of commit 2 nulled the 4 KiB point.
    expect(t.series[seriesKey('wc/c/bs=4096', 'legacy', 's')]!.values).toEqual([0.2, null, 0.2]);
    const c = t.series[seriesKey('wc/c/bs=65536', 'legacy', 's')]!;
    expect(c.programs).toEqual(['c-def1', 'c-def1', 'c-def2']);
    expect(programChanges(c.programs)).toEqual([2]);
    expect(machinesOf(store).machines['test-machine']!.profiles).toEqual({
      legacy: { commits: 3, lastRun: expect.any(String) },
    });
    // Metric sources (derived ones get no change points) come from the newest stored run.
    expect(catalogOf(store, 'legacy').experiments.wc!.metrics.throughput!.source).toBe('hyperfine');
    expect(existsSync(join(store, 'test-machine', 'series'))).toBe(false);
  });

  it('is done once: migrating again changes nothing', async () => {
    const store = copy(V2);
    await migrateStore(store);
    const after = snapshot(store);
    expect(await migrateStore(store)).toEqual([]);
    expect(snapshot(store)).toEqual(after);
  });

  it('a new run of a migrated commit goes to its own profile, beside the legacy one', async () => {
    const store = copy(V2);
    const r = wcResults(s('3'));
    r.run.profile = 'standard';
    r.run.commit.date = '2026-11-03T12:00:00.000Z';
    r.benchmarks = r.benchmarks.map((b) => ({ ...b, workload: 'w-now', definition: 'now' }));
    await publishRun(store, r);
    const commit = indexOf(store).commits.find((c) => c.sha === s('3'))!;
    expect(Object.keys(commit.runs).sort()).toEqual(['legacy', 'standard']);
    expect(trendOf(store, 'legacy', 'wc', 'wall_time').commits).toHaveLength(3);
    const standard = trendOf(store, 'standard', 'wc', 'wall_time');
    expect(standard.commits).toEqual([s('3')]);
    expect(Object.keys(standard.series).every((k) => k.endsWith('|w-now|s'))).toBe(true);
  });
});

describe('store v1 -> v3', () => {
  it('publishes into a v1 store, keeping its commits as legacy (definitions unknown)', async () => {
    const store = copy(V1);
    const M = 'bench-slow-4e5f6a7b';
    const r = wcResults('e'.repeat(40));
    r.run.machine.id = M;
    r.run.commit.date = '2026-12-01T00:00:00Z';
    r.benchmarks = r.benchmarks.map((b) => ({ ...b, definition: 'def-now', workload: 'w' }));
    await publishRun(store, r);
    const index = indexOf(store, M);
    expect(index.schema).toBe(STORE_SCHEMA);
    expect(index.commits).toHaveLength(4);
    expect(index.commits.filter((c) => c.runs.legacy).length).toBe(3);
    const legacy = trendOf(store, 'legacy', 'wc', 'wall_time', M);
    const c = legacy.series[seriesKey('wc/c/bs=65536', 'legacy', 's')]!;
    expect(c.values.every((v) => typeof v === 'number')).toBe(true);
    expect(c.programs).toEqual([null, null, null]);
    expect(
      trendOf(store, 'smoke', 'wc', 'wall_time', M).series[seriesKey('wc/c/bs=65536', 'w', 's')]!.programs,
    ).toEqual(['def-now']);
    expect(Object.keys(machinesOf(store).machines[M]!.profiles).sort()).toEqual(['legacy', 'smoke']);
  });
});
