// The harness shift's sides copy a checkout's npm packages only when that checkout's bootstrap
// would accept them as they are (a side whose bootstrap finds them stale runs npm ci; through the
// link the sides once had, that emptied the base checkout's node_modules), and as a copy: a link
// out of the side's tree points at nothing inside its sandbox.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheRoot, checkoutCache } from '../../../src/machine/cache-root.js';
import { makeShiftSides, packagesCurrent } from '../../../src/pairs/harness-shift/harness-sides.js';
import { ROOT } from '../../helpers/cli.js';
import { removeScratch } from '../../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-shift-sides-'));
afterAll(() => removeScratch(dir));

/** A checkout with a lock file and packages installed by npm (its lock copy), at the given times. */
function checkout(name: string, lockAt: number, installedAt: number | undefined): string {
  const root = join(dir, name);
  mkdirSync(join(root, 'harness'), { recursive: true });
  mkdirSync(join(root, 'programs'), { recursive: true });
  writeFileSync(join(root, 'package.json'), '{"name":"x"}\n');
  // A lock file npm ci could install offline (no packages), and the real bootstrap beside it.
  writeFileSync(
    join(root, 'package-lock.json'),
    '{"name":"x","lockfileVersion":3,"requires":true,"packages":{"":{"name":"x"}}}\n',
  );
  copyFileSync(join(ROOT, 'harness', 'bootstrap.mjs'), join(root, 'harness', 'bootstrap.mjs'));
  utimesSync(join(root, 'package-lock.json'), lockAt, lockAt);
  if (installedAt !== undefined) {
    mkdirSync(join(root, 'node_modules', 'through2'), { recursive: true });
    writeFileSync(join(root, 'node_modules', '.package-lock.json'), '{}\n');
    utimesSync(join(root, 'node_modules', '.package-lock.json'), installedAt, installedAt);
  }
  return root;
}

describe('harness shift sides and npm packages', () => {
  it("copies a base's packages installed by a plain npm ci, with the lock file's own time on the side", () => {
    const base = checkout('base-fresh', 1_000, 2_000);
    const head = checkout('head-fresh', 1_000, 2_000);
    expect(packagesCurrent(base)).toBe(true);
    const sides = makeShiftSides(base, head);
    try {
      // A folder of the side's own (a link would point outside its sandbox's tree), as installed.
      expect(lstatSync(join(sides.base, 'node_modules')).isDirectory()).toBe(true);
      expect(readdirSync(join(sides.base, 'node_modules')).sort()).toEqual(['.package-lock.json', 'through2']);
      // The side's bootstrap compares these two times: the copy must not look newer than the packages.
      expect(statSync(join(sides.base, 'package-lock.json')).mtimeMs).toBe(
        statSync(join(base, 'package-lock.json')).mtimeMs,
      );
      // The real bootstrap, run in the side, accepts them: no npm ci through the link. (`format`
      // then stops at the missing biome, after the packages check.)
      const r = spawnSync(process.execPath, ['harness/bootstrap.mjs', 'format'], { cwd: sides.base, encoding: 'utf8' });
      expect(r.stderr).not.toMatch(/running npm ci/);
    } finally {
      sides.dispose();
    }
    // Its packages are as they were: the side's bootstrap stamped its own copy, not the checkout's.
    expect(readdirSync(join(base, 'node_modules')).sort()).toEqual(['.package-lock.json', 'through2']);
  });

  it('never copies packages that are stale for their own lock file; the side installs its own', () => {
    const base = checkout('base-stale', 3_000, 2_000);
    const head = checkout('head-other', 1_000, 2_000);
    writeFileSync(join(head, 'package-lock.json'), '{"lockfileVersion":3,"other":1}\n');
    expect(packagesCurrent(base)).toBe(false);
    const sides = makeShiftSides(base, head);
    try {
      expect(readdirSync(sides.base)).not.toContain('node_modules');
    } finally {
      sides.dispose();
    }
    expect(readdirSync(join(base, 'node_modules')).sort()).toEqual(['.package-lock.json', 'through2']);
  });

  it("the bootstrap's rule is the one checked: its stamp decides when there is one", () => {
    const root = checkout('stamped', 3_000, 2_000);
    writeFileSync(join(root, 'node_modules', '.jsio-lock.sha256'), 'not the hash');
    expect(packagesCurrent(root)).toBe(false);
    expect(packagesCurrent(ROOT)).toBe(true);
  });

  // A side's bench keeps its builds and scratch in its own folder of the harness's cache
  // (machine/cache-root.ts): both sides' scratch is one folder there, and dispose removes the folders.
  it("gives each side a folder of the harness's cache, their scratch one folder, removed with the sides", () => {
    const base = checkout('base-cache', 1_000, 2_000);
    const head = checkout('head-cache', 1_000, 2_000);
    const sides = makeShiftSides(base, head);
    const own = [sides.base, sides.head].map((s) => checkoutCache(s));
    try {
      for (const o of own) expect(o.startsWith(`${cacheRoot()}/checkouts/`)).toBe(true);
      expect(realpathSync(join(own[0]!, 'scratch'))).toBe(realpathSync(join(own[1]!, 'scratch')));
      expect(realpathSync(join(own[0]!, 'scratch')).startsWith(realpathSync(sides.dir))).toBe(true);
    } finally {
      sides.dispose();
    }
    for (const o of own) expect(existsSync(o)).toBe(false);
    expect(existsSync(join(base, '.cache')) || existsSync(join(head, '.cache'))).toBe(false);
  });
});
