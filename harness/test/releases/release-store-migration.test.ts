// A version-1 release store (before counters, upstream dates and notes) and a version-2 one
// (before counted work) are read, never refused: versions 2 and 3 only add optional fields. A file
// newer than the harness is still refused.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RELEASES_SCHEMA } from '../../src/formats/parts/store-layout.js';
import { readReleaseChanges, readReleaseIndex } from '../../src/releases/release-files.js';

const tmp = mkdtempSync(join(tmpdir(), 'jsio-release-migrate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const entry = {
  family: 'node',
  line: 'node20',
  version: '20.3.0',
  date: '2025-10-05T10:00:00.000Z',
  profile: 'quick',
  measured: '2026-11-24T10:00:00.000Z',
  commit: 'c558dda000000000000000000000000000000000',
  experiments: ['wc'],
  problems: [],
  values: [
    {
      experiment: 'wc',
      variant: 'readsync',
      params: { bs: 4096 },
      metric: 'read_cost',
      unit: 'ns',
      direction: 'smaller',
      value: 3200,
      reference: false,
    },
  ],
};

function store(name: string, index: unknown, changes?: unknown): string {
  const root = join(tmp, name);
  mkdirSync(join(root, 'releases', 'm1'), { recursive: true });
  writeFileSync(join(root, 'releases', 'm1', 'index.json'), JSON.stringify(index));
  if (changes) writeFileSync(join(root, 'releases', 'm1', 'changes.json'), JSON.stringify(changes));
  return root;
}

describe('release files of version 1', () => {
  it('are read as the current version, with the optional fields absent', () => {
    const root = store(
      'v1',
      { schema: 1, machine: 'm1', releases: [entry] },
      { schema: 1, machine: 'm1', changes: [], candidates: [] },
    );
    const index = readReleaseIndex(root, 'm1');
    expect(index.schema).toBe(RELEASES_SCHEMA);
    expect(index.releases[0]!.version).toBe('20.3.0');
    expect(index.releases[0]!.counters).toBeUndefined();
    expect(index.releases[0]!.released).toBeUndefined();
    expect(readReleaseChanges(root, 'm1').schema).toBe(RELEASES_SCHEMA);
  });

  it('version 2 (counters, no counted work) is read as the current version', () => {
    const counters = [
      {
        experiment: 'wc',
        variant: 'readsync',
        params: { bs: 4096 },
        reference: false,
        counts: { 'syscalls.read': [9, 9] },
      },
    ];
    const root = store('v2', { schema: 2, machine: 'm1', releases: [{ ...entry, counters, seconds: 17 }] });
    const index = readReleaseIndex(root, 'm1');
    expect(index.schema).toBe(RELEASES_SCHEMA);
    expect(index.releases[0]!.counters).toEqual(counters);
    expect(index.releases[0]!.work).toBeUndefined();
  });

  it('counted work is kept per point: its runs, or why it was not counted; a bad count is skipped with its entry', () => {
    const work = [
      {
        experiment: 'wc',
        variant: 'readsync',
        params: { bs: 4096 },
        reference: false,
        counts: {
          status: 'ok',
          settings: 'V8 made predictable (--predictable)',
          role: 'decides',
          runs: [
            { size: 'small', instructions: 70_000_000, x: 2048 },
            { size: 'own', instructions: 320_000_000, x: 16384 },
            { size: 'own', instructions: 320_000_100, x: 16384 },
          ],
        },
      },
      {
        experiment: 'wc',
        variant: 'c',
        params: { bs: 4096 },
        reference: true,
        counts: { status: 'unavailable', reason: 'instructions not counted: valgrind missing' },
      },
    ];
    const bad = { ...entry, version: '20.4.0', work: [{ ...work[0], counts: { status: 'ok', runs: [] } }] };
    const root = store('v3', { schema: RELEASES_SCHEMA, machine: 'm1', releases: [{ ...entry, work }, bad] });
    const lines: string[] = [];
    const index = readReleaseIndex(root, 'm1', (l) => lines.push(l));
    expect(index.releases.map((r) => r.version)).toEqual(['20.3.0']);
    expect(index.releases[0]!.work).toEqual(work);
    expect(lines).toEqual([expect.stringMatching(/skipping releases\.1: work\.0\.counts\./)]);
  });

  it('a newer version is refused with one line naming the file', () => {
    const root = store('v9', { schema: 99, machine: 'm1', releases: [] });
    expect(() => readReleaseIndex(root, 'm1')).toThrow(
      /index\.json has schema 99, newer than this harness understands/,
    );
  });
});
