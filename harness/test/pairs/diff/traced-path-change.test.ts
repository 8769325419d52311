// Whether a traced path differs between the base, whose packages are installed where the plan
// runs, and the head, whose are not (pr.yml installs the base's only): node_modules and what is in
// it are compared by the lockfiles, everything else as the traced process could tell.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracedPathChange } from '../../../src/pairs/diff/traced-path-change.js';
import { removeScratch } from '../../helpers/scratch.js';

let dir: string;
const LOCK = { lockfileVersion: 3, packages: { '': { name: 'x' }, 'node_modules/a': { version: '1.0.0' } } };

function side(name: string, lock: object, installed: boolean): string {
  const root = join(dir, name);
  mkdirSync(join(root, 'data'), { recursive: true });
  writeFileSync(join(root, 'package-lock.json'), JSON.stringify(lock));
  writeFileSync(join(root, 'data', 'x.json'), name === 'changed' ? '{"n":2}' : '{"n":1}');
  if (installed) {
    mkdirSync(join(root, 'node_modules', 'a'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'a', 'index.js'), 'module.exports = 1;\n');
  }
  return root;
}

let base: string;
let head: string;
let changed: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-traced-path-change-'));
  base = side('base', LOCK, true);
  head = side('head', LOCK, false);
  const other = { ...LOCK, packages: { ...LOCK.packages, 'node_modules/a': { version: '2.0.0' } } };
  changed = side('changed', other, false);
});
afterAll(() => removeScratch(dir));

describe('tracedPathChange', () => {
  it('a head without node_modules and the same lockfile: node_modules and its files are unchanged, listed or not', () => {
    const differs = tracedPathChange(base, head);
    expect(differs('node_modules', false)).toBe(false);
    expect(differs('node_modules', true)).toBe(false);
    expect(differs('node_modules/a/index.js', false)).toBe(false);
    expect(differs('node_modules/.package-lock.json', false)).toBe(false);
  });

  it('another lockfile changes them; a file outside node_modules is compared by its bytes', () => {
    const differs = tracedPathChange(base, changed);
    expect(differs('node_modules', true)).toBe(true);
    expect(differs('node_modules/a/index.js', false)).toBe(true);
    expect(differs('data/x.json', false)).toBe(true);
    expect(tracedPathChange(base, head)('data/x.json', false)).toBe(false);
  });
});
