/**
 * Two machines' artifacts published into one store, in both orders: each import reads and writes
 * only its own machine's files, so nothing of the other machine changes (the releases workflow's
 * publish job, run once per runner).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RELEASES_SCHEMA } from '../../src/formats/parts/store-layout.js';
import {
  importReleases,
  publishRelease,
  readReleaseIndex,
  writeReleaseChanges,
} from '../../src/releases/release-files.js';
import { removeScratch } from '../helpers/scratch.js';
import { releaseChange, releaseEntry } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'jsio-release-import-'));
afterAll(() => removeScratch(tmp));
const A = 'bench-a-0a1b2c3d';
const B = 'bench-b-4e5f6a7b';

/** Every file under dir with its content. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (!e.endsWith('.lock')) out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** A machine's artifact: its releases and changes, as its measure job uploads them. */
async function artifact(name: string, machine: string, versions: string[]): Promise<string> {
  const dir = join(tmp, name);
  for (const v of versions)
    await publishRelease(dir, machine, releaseEntry(v, 100 + Number(v.split('.')[1])), new Map());
  const c = releaseChange(versions[0]!, versions.at(-1)!, { text: `${machine} change` });
  await writeReleaseChanges(dir, machine, { schema: RELEASES_SCHEMA, machine, changes: [c], candidates: [] });
  return dir;
}

/** gh-pages as it was: both machines published once. */
async function pages(name: string): Promise<string> {
  const dir = join(tmp, name);
  await importReleases(dir, await artifact(`${name}-a0`, A, ['22.1.0']), A);
  await importReleases(dir, await artifact(`${name}-b0`, B, ['24.1.0']), B);
  return dir;
}

const onlyOf = (snap: Record<string, string>, machine: string) =>
  Object.fromEntries(Object.entries(snap).filter(([k]) => k.startsWith(`releases/${machine}/`)));

describe.each([
  ['A then B', [A, B]],
  ['B then A', [B, A]],
])('publishing two machines, %s', (order, machines) => {
  it("changes nothing of the other machine's data", async () => {
    const store = await pages(`pages-${order.replace(/ /g, '')}`);
    const arts: Record<string, string> = {
      [A]: await artifact(`art-a-${order.length}${order[0]}`, A, ['22.1.0', '22.2.0']),
      [B]: await artifact(`art-b-${order.length}${order[0]}`, B, ['24.1.0', '24.2.0']),
    };
    for (const m of machines) {
      const other = m === A ? B : A;
      const before = onlyOf(snapshot(store), other);
      expect(await importReleases(store, arts[m]!, m)).toBe(1);
      expect(onlyOf(snapshot(store), other)).toEqual(before);
    }
    expect(readReleaseIndex(store, A).releases.map((r) => r.version)).toEqual(['22.1.0', '22.2.0']);
    expect(readReleaseIndex(store, B).releases.map((r) => r.version)).toEqual(['24.1.0', '24.2.0']);
    const changes = (m: string) => JSON.parse(readFileSync(join(store, 'releases', m, 'changes.json'), 'utf8'));
    expect(changes(A).changes[0].text).toBe(`${A} change`);
    expect(changes(B).changes[0].text).toBe(`${B} change`);
  });
});

describe("an artifact's other machines are never read", () => {
  it("imports only the named machine's files even when the artifact holds another's", async () => {
    const store = await pages('pages-mixed');
    const art = await artifact('art-mixed', A, ['22.1.0', '22.3.0']);
    // The other machine's data in the artifact: an older index that would revert B's.
    mkdirSync(join(art, 'releases', B), { recursive: true });
    writeFileSync(
      join(art, 'releases', B, 'changes.json'),
      JSON.stringify({ schema: RELEASES_SCHEMA, machine: B, changes: [], candidates: [] }),
    );
    const before = onlyOf(snapshot(store), B);
    await importReleases(store, art, A);
    expect(onlyOf(snapshot(store), B)).toEqual(before);
  });
});

describe('bad records', () => {
  it('from an artifact, refuse the whole import and leave the store as it was', async () => {
    const store = await pages('pages-bad');
    const art = await artifact('art-bad', A, ['22.1.0', '22.4.0']);
    const file = join(art, 'releases', A, 'index.json');
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.releases[1].version = 'not-a-version';
    writeFileSync(file, JSON.stringify(raw));
    const before = snapshot(store);
    await expect(importReleases(store, art, A)).rejects.toThrow(/releases\.1\.version: not a release version/);
    expect(snapshot(store)).toEqual(before);
  });

  it('in a store (gh-pages) are skipped with one line, and the good ones still imported', async () => {
    const src = await pages('pages-src');
    const file = join(src, 'releases', A, 'index.json');
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.releases.push({ ...raw.releases[0], version: 'vNext' });
    writeFileSync(file, JSON.stringify(raw));
    const lines: string[] = [];
    const dest = join(tmp, 'nightly-store');
    expect(await importReleases(dest, src, A, { source: 'store', warn: (l) => lines.push(l) })).toBe(1);
    expect(lines).toEqual([expect.stringMatching(/skipping releases\.1: version: not a release version/)]);
  });
});
