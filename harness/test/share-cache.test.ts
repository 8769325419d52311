// PR diffs: the base checkout reuses the head checkout's runtime and input caches (content-keyed)
// but never its builds, and an existing cache is left alone.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shareCaches } from '../src/machine/share-cache.js';

describe('shareCaches', () => {
  it('links runtimes and inputs of base to head, not build', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-share-'));
    const [base, head] = [join(dir, 'base'), join(dir, 'head')];
    mkdirSync(join(head, '.cache', 'runtimes'), { recursive: true });
    writeFileSync(join(head, '.cache', 'runtimes', 'node'), 'x');
    mkdirSync(base);
    expect(shareCaches(base, head)).toEqual([join(base, '.cache', 'runtimes'), join(base, '.cache', 'inputs')]);
    expect(readlinkSync(join(base, '.cache', 'runtimes'))).toBe(join(head, '.cache', 'runtimes'));
    expect(existsSync(join(base, '.cache', 'runtimes', 'node'))).toBe(true);
    expect(existsSync(join(base, '.cache', 'build'))).toBe(false);
    expect(shareCaches(base, head)).toEqual([]); // idempotent
  });

  it('keeps a cache the base checkout already has, and does nothing for one checkout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-share-'));
    const [base, head] = [join(dir, 'base'), join(dir, 'head')];
    mkdirSync(join(base, '.cache', 'runtimes'), { recursive: true });
    expect(shareCaches(base, head)).toEqual([join(base, '.cache', 'inputs')]);
    expect(lstatSync(join(base, '.cache', 'runtimes')).isSymbolicLink()).toBe(false);
    expect(shareCaches(head, head)).toEqual([]);
  });
});
