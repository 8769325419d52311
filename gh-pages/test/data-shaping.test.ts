// Shaping store v3 data for charts: shards of one metric joined over the commits, one chart per
// parameter point, one line per variant and runtime version; workloads never share a line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinShards, programChanges } from '../../harness/src/formats/parts/store-layout.js';
import {
  type CatalogFile,
  type CommitsFile,
  lineLabel,
  Profile,
  type ShardFile,
  Store,
  trendChartKey,
  trendCharts,
} from '../src/data.js';

const dir = join(import.meta.dirname, 'fixtures', 'store', 'bench-fast-0a1b2c3d', 'trends');
const read = <T>(...p: string[]) => JSON.parse(readFileSync(join(dir, ...p), 'utf8')) as T;
const joined = (profile: string) => {
  const commits = read<CommitsFile>(profile, '0000', 'commits.json').commits.map((c) => c.sha);
  return joinShards(commits, [read<ShardFile>(profile, '0000', 'wc', 'wall_time.json')]);
};
const wc = joined('standard');

describe('trendCharts', () => {
  it('makes one chart per block size, lines per variant and node version, sorted by the parameter', () => {
    const charts = trendCharts(wc.series, 'wall_time');
    expect(charts.map((c) => c.key)).toEqual(['wall_time|bs=4096', 'wall_time|bs=65536']);
    expect(charts[1]!.lines.map((l) => l.label)).toEqual(['bun', 'c', 'node-stream (node20)', 'node-stream (node22)']);
    expect(trendChartKey('wall_time', { runtime: 'node22', bs: 65536 })).toBe('wall_time|bs=65536');
  });

  it('keeps a late variant aligned with the commits (nulls before it existed)', () => {
    const bun = Object.values(wc.series).find((s) => s.id === 'wc/bun/bs=65536')!;
    expect(bun.values).toHaveLength(wc.commits.length);
    expect(bun.values.slice(0, 10).every((v) => v === null)).toBe(true);
    expect(bun.values[10]).toBeGreaterThan(0);
    // bun's program changed at commit 25: known from the run-length encoded hashes.
    expect(programChanges(bun.programs)).toEqual([25]);
  });

  it('keeps the smoke workload in its own profile, on series of its own workload', () => {
    const smoke = joined('smoke');
    expect(smoke.commits).toHaveLength(3);
    const keys = Object.keys(smoke.series);
    expect(keys.every((k) => k.includes('-smoke|'))).toBe(true);
    expect(keys.some((k) => k in wc.series)).toBe(false);
  });

  it('labels lines with parameters that are not fixed by the chart', () => {
    expect(lineLabel('node-stream', { bs: 1, runtime: 'node22' }, ['bs'])).toBe('node-stream (node22)');
    expect(lineLabel('c', { bs: 1 }, ['bs'])).toBe('c');
  });

  it('says a chart parameter does not apply to a variant that ignores it', () => {
    expect(lineLabel('bun', { work: 'read' }, ['pool', 'work'])).toBe('bun (pool n/a)');
    expect(lineLabel('c', {}, ['runtime'])).toBe('c');
  });
});

describe('Profile.recentWindows', () => {
  const w = (i: number, commits: number) => ({
    id: String(i).padStart(4, '0'),
    first: { date: `2026-01-${String(i + 1).padStart(2, '0')}`, sha: 'a' },
    last: { date: `2026-01-${String(i + 1).padStart(2, '0')}`, sha: 'b' },
    commits,
  });
  const catalog = (sizes: number[]): CatalogFile => ({
    schema: 4,
    machine: 'm',
    profile: 'standard',
    windows: sizes.map((n, i) => w(i, n)),
    experiments: {},
  });
  const ids = (p: Profile, older?: number) => p.recentWindows(older).map((x) => x.id);

  it('loads the newest windows until 60 commits, older ones only on demand', () => {
    const p = new Profile(new Store(), 'm', 'standard', catalog([100, 100, 100, 20]));
    expect(ids(p)).toEqual(['0002', '0003']); // 20 commits are too few: the window before joins
    expect(ids(p, 1)).toEqual(['0001', '0002', '0003']);
    expect(ids(p, 5)).toEqual(['0000', '0001', '0002', '0003']);
    expect(ids(new Profile(new Store(), 'm', 'standard', catalog([100, 100])))).toEqual(['0001']);
  });
});
