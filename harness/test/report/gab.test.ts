// github-action-benchmark inputs: stable names, split by direction, headline points only,
// every entry strictly valid (the action itself would store null as 0).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../../src/plan/experiments.js';
import { GabEntry, gabName, toGab } from '../../src/report/gab.js';
import { ROOT } from '../helpers/cli.js';
import { wcResults } from '../helpers/results.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));

describe('toGab', () => {
  const gab = toGab(wcResults().benchmarks, [wc]);

  it('names series <experiment>/<variant>/<params> <metric>, parameters sorted', () => {
    expect(gab.bigger.map((e) => e.name)).toEqual([
      'wc/c/bs=65536 steady_throughput',
      'wc/node-stream/bs=65536,runtime=node20 steady_throughput',
      'wc/node-stream/bs=65536,runtime=node22 steady_throughput',
      'wc/dd-null/bs=65536 steady_throughput',
    ]);
  });

  it('puts each metric in the file of its direction', () => {
    expect(gab.smaller.map((e) => e.name)).toEqual(
      expect.arrayContaining(['wc/c/bs=65536 max_rss', 'wc/c/bs=65536 read_cost', 'wc/c/bs=65536 startup']),
    );
    expect(gab.smaller.every((e) => !e.name.endsWith('throughput'))).toBe(true);
  });

  it('leaves out points outside the headline and benchmarks that did not succeed', () => {
    const all = [...gab.smaller, ...gab.bigger].map((e) => e.name);
    expect(all.some((n) => n.includes('bs=4096'))).toBe(false);
    expect(all.some((n) => n.includes('bun') || n.includes('just'))).toBe(false);
  });

  it('gives values with units, a range and how they were measured', () => {
    const c = gab.bigger[0]!;
    expect(GabEntry.parse(c)).toEqual(c);
    expect(c.unit).toBe('MB/s');
    expect(c.value).toBeCloseTo(64 / (0.05 * 0.9), 6);
    expect(c.range).toMatch(/^± \d/);
    expect(c.extra).toMatch(/^median of 3 runs/);
  });

  it('keeps names stable for the same benchmark', () => {
    expect(gabName({ experiment: 'wc', variant: 'c', params: { runtime: 'node22', bs: 1 } }, 'wall_time')).toBe(
      'wc/c/bs=1,runtime=node22 wall_time',
    );
  });
});
