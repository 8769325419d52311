// github-action-benchmark stores whatever it is given (a null becomes 0 on the chart): every
// entry toGab emits must be a finite number with a unit, JSON must round-trip it unchanged,
// and only successful headline points are emitted.
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/formats/manifest-format.js';
import { GabEntry, toGab } from '../../src/report/gab.js';
import { bench, counter, results, timed } from '../helpers/results.js';

const manifest = (headline: Manifest['headline']) => ({ id: 'wc', manifest: { headline } as Manifest });
const hostile = () =>
  results([
    bench(
      'c',
      { bs: 65536 },
      { throughput: timed([1000, 1100, 900], 'MB/s', 'bigger'), max_rss: counter(2 ** 20, 'B') },
    ),
    // A metric that came out NaN or infinite (e.g. zero bytes, a zero time) must not be emitted.
    bench(
      'nan',
      { bs: 65536 },
      {
        throughput: { ...timed([1], 'MB/s', 'bigger'), value: Number.NaN },
        max_rss: { ...counter(1, 'B'), value: Number.POSITIVE_INFINITY },
      },
    ),
    bench(
      'failed',
      { bs: 65536 },
      { throughput: timed([5000], 'MB/s', 'bigger') },
      { status: 'failed', reason: 'wrong result' },
    ),
    bench('skipped', { bs: 65536 }, {}, { status: 'skipped', reason: 'no runtime' }),
    bench('c', { bs: 4096 }, { throughput: timed([500], 'MB/s', 'bigger') }),
    bench('c', { bs: 1024 }, { throughput: timed([300], 'MB/s', 'bigger') }),
  ]).benchmarks;

describe('toGab entries', () => {
  const gab = toGab(hostile(), [manifest({ at: { bs: 65536 }, metrics: ['throughput', 'max_rss', 'wall_time'] })]);
  const all = [...gab.smaller, ...gab.bigger];

  it('emits only the successful headline point, in the file of each metric’s direction', () => {
    expect(gab.bigger.map((e) => e.name)).toEqual(['wc/c/bs=65536 throughput']);
    expect(gab.smaller.map((e) => e.name)).toEqual(['wc/c/bs=65536 max_rss']);
  });

  it('gives finite values with units that survive JSON unchanged', () => {
    expect(all.length).toBe(2);
    for (const e of all) {
      expect(GabEntry.parse(e)).toEqual(e);
      expect(Number.isFinite(e.value)).toBe(true);
      expect(e.unit.length).toBeGreaterThan(0);
      expect(JSON.parse(JSON.stringify(e))).toEqual(e);
    }
    expect(gab.bigger[0]).toMatchObject({ unit: 'MB/s', value: 1000 });
    expect(gab.smaller[0]).toMatchObject({ unit: 'B', value: 2 ** 20 });
    // A counter has no spread: no range and no "median of" note.
    expect(gab.smaller[0]?.range).toBeUndefined();
    expect(gab.smaller[0]?.extra).toBeUndefined();
  });

  it('refuses an entry with a NaN value, a null value or no unit', () => {
    expect(GabEntry.safeParse({ name: 'a b', unit: 'MB/s', value: Number.NaN }).success).toBe(false);
    expect(GabEntry.safeParse({ name: 'a b', unit: 'MB/s', value: null }).success).toBe(false);
    expect(GabEntry.safeParse({ name: 'a b', unit: '', value: 1 }).success).toBe(false);
    expect(GabEntry.safeParse({ name: 'a b', value: 1 }).success).toBe(false);
    expect(GabEntry.safeParse({ name: 'a b', unit: 'B', value: 1, colour: 'red' }).success).toBe(false);
  });

  it('takes every listed value when the headline names several', () => {
    const several = toGab(hostile(), [manifest({ at: { bs: [4096, 65536] }, metrics: ['throughput'] })]);
    expect(several.bigger.map((e) => e.name)).toEqual(['wc/c/bs=65536 throughput', 'wc/c/bs=4096 throughput']);
  });

  it('leaves out experiments it was not given', () => {
    expect(
      toGab(hostile(), [
        { id: 'other', manifest: { headline: { at: {}, metrics: ['throughput'] } } as unknown as Manifest },
      ]),
    ).toEqual({ smaller: [], bigger: [] });
  });
});
