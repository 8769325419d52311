/** The site's copy of the releases part holds valid records only; a bad one is skipped with one line. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { RELEASES_SCHEMA } from '../../src/formats/parts/store-layout.js';
import { checkReleaseCopy } from '../../src/releases/release-site-copy.js';
import { removeScratch } from '../helpers/scratch.js';
import { releaseChange, releaseEntry } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'jsio-release-site-'));
afterAll(() => removeScratch(tmp));
const A = 'bench-a-0a1b2c3d';

it('rewrites the copy with the valid records and reports each bad one, never failing', () => {
  const dir = join(tmp, 'releases', A);
  mkdirSync(dir, { recursive: true });
  const releases = [
    releaseEntry('22.4.0', 100),
    { ...releaseEntry('22.4.1', 100), version: 'x' },
    releaseEntry('22.5.0', 1),
  ];
  writeFileSync(join(dir, 'index.json'), JSON.stringify({ schema: 1, machine: A, releases }));
  const changes = [releaseChange('22.4.1', '22.5.0'), { ...releaseChange('22.4.1', '22.5.0'), line: '<b>' }];
  writeFileSync(
    join(dir, 'changes.json'),
    JSON.stringify({ schema: RELEASES_SCHEMA, machine: A, changes, candidates: [] }),
  );
  const lines: string[] = [];
  expect(checkReleaseCopy(tmp, (l) => lines.push(l))).toEqual([A]);
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
  expect(index.schema).toBe(RELEASES_SCHEMA);
  expect(index.releases.map((r: { version: string }) => r.version)).toEqual(['22.4.0', '22.5.0']);
  expect(JSON.parse(readFileSync(join(dir, 'changes.json'), 'utf8')).changes).toHaveLength(1);
  expect(lines).toHaveLength(2);
  expect(lines.join('\n')).toMatch(/skipping releases\.1: version/);
  expect(lines.join('\n')).toMatch(/skipping changes\.1: line/);
});

it('shows an empty list where a file is not the releases format at all', () => {
  const other = join(tmp, 'other');
  const dir = join(other, 'releases', A);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.json'), JSON.stringify({ schema: RELEASES_SCHEMA, machine: A, releases: 'none' }));
  const lines: string[] = [];
  checkReleaseCopy(other, (l) => lines.push(l));
  expect(JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')).releases).toEqual([]);
  expect(lines).toEqual([expect.stringMatching(/index\.json: not shown: .*releases/)]);
});
