/**
 * The reference's spread over a sweep, from a fixture shaped like the quiet sweep of the 21 Node 20
 * minors: C's pool p50 as it ranged there (1.0 to 5.7 ms), wc's C per-read cost flat; the cost
 * per release; and the text the `releases spread` command prints.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReleaseEntry } from '../../../src/formats/release-store-format.js';
import { checkReleaseIndex } from '../../../src/formats/release-store-format.js';
import {
  referenceSpread,
  rowName,
  STEADY_RELEASES,
  steady,
  sweepCost,
  sweepEntries,
} from '../../../src/releases/judge/reference-spread.js';
import { spreadText } from '../../../src/releases/spread-text.js';
import { FIXTURES } from '../../helpers/cli.js';

const file = join(FIXTURES, 'release-spread', 'index.json');
const entries = checkReleaseIndex(file, JSON.parse(readFileSync(file, 'utf8')), 'vm-ecb3aef9', {
  mode: 'strict',
}).releases;
const all = sweepEntries(entries, { profile: 'quick' });

describe('referenceSpread', () => {
  const rows = referenceSpread(all);
  const pool = rows.find((r) => r.experiment === 'threadpool')!;
  const wc = rows.find((r) => r.experiment === 'wc')!;

  it('has one row per reference point and metric, and none for the JavaScript variants', () => {
    expect(rows.map(rowName)).toEqual([
      'threadpool c-pool cache warm pool 4 work read latency_p50',
      'wc c bs 4096 read_cost',
    ]);
  });

  it("takes (max - min) / median of the per-release values: C's pool at 1.0 to 5.7 ms is far over the bar", () => {
    expect(pool).toMatchObject({ releases: 21, min: 1.0, max: 5.7, median: 5.0 });
    expect(pool.spread).toBeCloseTo((5.7 - 1.0) / 5.0, 10);
    expect(steady(pool)).toBe(false);
  });

  it('calls a flat reference over 20 releases steady, and gives its widest interval', () => {
    expect(wc.spread).toBeCloseTo((2860 - 2820) / 2840, 10);
    expect(steady(wc)).toBe(true);
    expect(wc.widestInterval).toBeCloseTo(0.02, 10);
    expect(pool.widestInterval).toBeCloseTo(0.3, 10);
  });

  it('never calls fewer than 20 releases steady, however flat', () => {
    const few = referenceSpread(all.slice(0, STEADY_RELEASES - 1)).find((r) => r.experiment === 'wc')!;
    expect(few.spread).toBeLessThan(0.1);
    expect(steady(few)).toBe(false);
  });

  it('has no spread where the median is 0', () => {
    const zero = all.map((e) => ({ ...e, values: e.values.map((v) => ({ ...v, value: 0 })) })) as ReleaseEntry[];
    expect(referenceSpread(zero).every((r) => r.spread === undefined && !steady(r))).toBe(true);
  });
});

describe('sweepEntries', () => {
  it('keeps the profile, the lines and the releases measured after an instant', () => {
    expect(all).toHaveLength(21);
    expect(sweepEntries(entries, { profile: 'smoke' })).toHaveLength(0);
    expect(sweepEntries(entries, { profile: 'quick', lines: ['node22'] })).toHaveLength(0);
    expect(sweepEntries(entries, { profile: 'quick', measuredAfter: '2026-11-25' })).toHaveLength(11);
  });
});

describe('sweepCost', () => {
  it('is over the releases that recorded their cost: median, max, total', () => {
    expect(sweepCost(all)).toEqual({ releases: 20, median: 8, max: 10, total: 160 });
  });

  it('says what counting took where releases counted', () => {
    const counted = all.map((e, i) => (i < 4 ? { ...e, countSeconds: 2 + i } : e));
    expect(sweepCost(counted)?.counting).toEqual({ releases: 4, median: 3.5, max: 5 });
    expect(spreadText([], sweepCost(counted), counted.length)).toContain(
      'cost per release: median 8s, max 10s (of it counting under valgrind: median 4s, max 5s, in 4 release(s)); the 20 release(s) together: 2m40s',
    );
  });

  it('is undefined when no release recorded one', () => {
    expect(sweepCost(all.map(({ seconds: _s, ...e }) => e))).toBeUndefined();
  });
});

describe('spreadText', () => {
  it('prints a line per reference point with its verdict, then the cost', () => {
    const text = spreadText(referenceSpread(all), sweepCost(all), all.length);
    expect(text.split('\n').filter(Boolean)).toEqual([
      'the reference across 21 release(s): spread = (max - min) / median of its per-release values (steady: at most 10.0% over at least 20 releases)',
      '  threadpool c-pool cache warm pool 4 work read latency_p50: spread 94.0% over 21 release(s) (min 1 ms, median 5 ms, max 5.700 ms; widest 95% interval 30.0% of its value): over 10.0%',
      '  wc c bs 4096 read_cost: spread 1.4% over 21 release(s) (min 2.82 µs, median 2.84 µs, max 2.86 µs; widest 95% interval 2.0% of its value): steady',
      'cost per release: median 8s, max 10s; the 20 release(s) together: 2m40s',
    ]);
  });

  it('says when nothing recorded a cost or a reference', () => {
    expect(spreadText([], undefined, 0)).toContain('no reference values in these releases');
    expect(spreadText([], undefined, 0)).toContain('cost per release: not recorded');
  });
});
