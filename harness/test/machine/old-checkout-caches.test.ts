// An older harness kept its caches in the checkout's .cache/: the harness names those folders once,
// in one line, with how to remove them, and never removes them. bootstrap.mjs's own folders there
// (bin, act, knip) and links (the harness shift's sides link theirs for a harness from before) are
// not named.
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { noteOldCheckoutCaches, oldCheckoutCaches } from '../../src/machine/cache-root.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-old-caches-'));
afterAll(() => removeScratch(dir));

describe("an older harness's folders in a checkout's .cache/", () => {
  it('are named once, in one line, and left where they are', () => {
    const root = join(dir, 'checkout');
    for (const d of ['build/wc/c', 'inputs', 'bin', 'knip']) mkdirSync(join(root, '.cache', d), { recursive: true });
    writeFileSync(join(root, '.cache', 'stray-file'), '');
    symlinkSync(dir, join(root, '.cache', 'runtimes'), 'dir');
    expect(oldCheckoutCaches(root)).toEqual(['build', 'inputs']);
    const lines: string[] = [];
    noteOldCheckoutCaches(root, (m) => lines.push(m), { JSIO_CACHE: '/var/cache/jsio' });
    noteOldCheckoutCaches(root, (m) => lines.push(m), { JSIO_CACHE: '/var/cache/jsio' });
    const [b, i] = [join(root, '.cache', 'build'), join(root, '.cache', 'inputs')];
    expect(lines).toEqual([
      `note: ${b}, ${i} are from an older harness and no longer used (the harness's cache is /var/cache/jsio); to free the space: rm -rf ${b} ${i}`,
    ]);
    expect(existsSync(join(b, 'wc', 'c'))).toBe(true);
  });

  it('say nothing where there are none', () => {
    const root = join(dir, 'fresh');
    mkdirSync(join(root, '.cache', 'bin'), { recursive: true });
    const lines: string[] = [];
    noteOldCheckoutCaches(root, (m) => lines.push(m));
    noteOldCheckoutCaches(join(dir, 'no-cache-at-all'), (m) => lines.push(m));
    expect(lines).toEqual([]);
  });
});
