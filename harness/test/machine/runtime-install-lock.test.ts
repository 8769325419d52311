// Two commands on one fresh checkout (or npm test's two processes) may both need a runtime the
// cache lacks. The install holds a lock beside the runtime: one installs it, the other waits and
// finds it cached, and neither deletes the tree the other is about to use. Real registry, real
// package (the pinned Node 22), a cache of its own.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPins, resolveRuntime } from '../../src/machine/toolchains.js';
import { verifyTree } from '../../src/machine/verify-cache.js';
import { ROOT } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const cache = mkdtempSync(join(tmpdir(), 'jsio-install-lock-'));
afterAll(() => removeScratch(cache));

describe('installing a runtime from the npm registry', () => {
  it('installs once when two resolve it at the same time; both get the same verified tree', async () => {
    const pins = readPins(join(ROOT, 'harness', 'toolchains.json'));
    const log: string[] = [];
    const [a, b] = await Promise.all([
      resolveRuntime('node@22', pins, cache, (m) => log.push(`a: ${m}`)),
      resolveRuntime('node@22', pins, cache, (m) => log.push(`b: ${m}`)),
    ]);
    expect(a.ok && b.ok, JSON.stringify({ a, b })).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(b.path).toBe(a.path);
    expect(existsSync(a.path)).toBe(true);
    expect(
      log.filter((m) => m.includes('installing')),
      log.join('\n'),
    ).toHaveLength(1);
    // The runtime's tree is the cache entry its binary lies in: as recorded, nothing beside it but
    // its digest (no lock, no half-unpacked copy).
    const entries = readdirSync(cache);
    const dir = entries.map((e) => join(cache, e)).find((d) => a.path.startsWith(`${d}/`));
    expect(dir, entries.join(' ')).toBeDefined();
    expect(verifyTree(dir!)).toEqual({ ok: true });
    expect(
      entries.filter((e) => join(cache, e) !== dir && !e.endsWith('.sha256')),
      entries.join(' '),
    ).toEqual([]);
  }, 300_000);
});
