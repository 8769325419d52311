// Shaping store data for charts: one chart per metric and parameter point, one line per
// variant and runtime version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { definitionChanges, lineLabel, type SeriesFile, trendCharts } from '../src/data.js';

const wc = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures', 'store', 'bench-fast-0a1b2c3d', 'series', 'wc.json'), 'utf8'),
) as SeriesFile;

describe('trendCharts', () => {
  it('makes one chart per block size, lines per variant and node version, sorted by the parameter', () => {
    const charts = trendCharts(wc, 'wall_time');
    expect(charts.map((c) => c.key)).toEqual(['wall_time|bs=4096', 'wall_time|bs=65536']);
    expect(charts[1]!.lines.map((l) => l.label).sort()).toEqual([
      'bun',
      'c',
      'node-stream (node20)',
      'node-stream (node22)',
    ]);
  });

  it('keeps a late variant aligned with the commits (nulls before it existed)', () => {
    const bun = wc.series['wc/bun/bs=65536']!.metrics.wall_time!;
    expect(bun.values).toHaveLength(wc.commits.length);
    expect(bun.values.slice(0, 10).every((v) => v === null)).toBe(true);
    expect(bun.values[10]).toBeGreaterThan(0);
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

describe('definitionChanges', () => {
  it('finds where a known definition changes, ignoring unknowns', () => {
    expect(definitionChanges(['a', null, 'a', 'b', null, 'b', 'c'])).toEqual([3, 6]);
    expect(definitionChanges(undefined)).toEqual([]);
    expect(definitionChanges(wc.series['wc/bun/bs=65536']!.definitions)).toEqual([25]);
  });
});
