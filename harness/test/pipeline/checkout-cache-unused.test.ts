// What the harness makes lives in its cache outside the checkout (machine/cache-root.ts), keyed by
// content: a `.cache/` folder in the checkout is never read, even one that is not tracked (a
// committed one is refused: tracked-cache.integration.test.ts). Planted as a reviewer found them:
// a generated input cut to a few bytes under the key the harness would use (it was measured as
// it was), and a runtime's tree under .cache/runtimes/ (pr.yml's link landed inside a committed
// one). The first run generates its input in the harness's cache and leaves no .cache/ in the
// checkout; the second, with an empty cache, generates it again rather than take the planted one
// (and says once, in one line, that the planted folder is an older harness's and how to remove it,
// leaving it there);
// the planted runtime never runs, and the point that needs it says the runtime could not be
// installed (the registry is out of reach here).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Results } from '../../src/formats/results-format.js';
import { cacheRoot, checkoutCache } from '../../src/machine/cache-root.js';
import { recordTree } from '../../src/machine/verify-cache.js';
import { bench } from '../../src/pipeline/bench.js';
import { programCheckout } from '../helpers/program-checkout.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-checkout-cache-'));
const checkout = programCheckout('planted-cache');
afterAll(() => {
  removeScratch(dir);
  removeScratch(checkout);
});
const cache = join(dir, 'cache');
const mark = join(dir, 'planted-runtime-ran');
/** What the runs logged. */
const logged: string[] = [];

/** One bench of the checkout with the harness's cache in `at` (this test's own), the registry out of reach. */
async function run(name: string, filters: Parameters<typeof bench>[0]['filters'], at = cache): Promise<Results> {
  const saved = { ...process.env };
  Object.assign(process.env, {
    JSIO_CACHE: at,
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_fetch_retries: '0',
  });
  try {
    const r = await bench({
      root: checkout,
      outDir: join(dir, `out-${name}`),
      profile: 'smoke',
      filters,
      require: [],
      counts: 'none',
      log: (m) => logged.push(m),
    });
    return r.results;
  } finally {
    process.env = saved;
  }
}

const records = {
  experiments: ['records'],
  variants: ['c'],
  params: { op: ['read'], record: [4096], cache: ['warm'] },
};

describe("a checkout's own .cache/ is never read", () => {
  let first: Results;
  let key: string;

  it("generates the input in the harness's cache, and makes no .cache/ in the checkout", async () => {
    first = await run('first', records);
    const point = first.benchmarks[0]!;
    expect(point.status, point.reason).toBe('ok');
    const made = readdirSync(join(cache, 'inputs', 'records'));
    expect(made).toHaveLength(1);
    key = made[0]!;
    expect(existsSync(join(checkout, '.cache'))).toBe(false);
    // Its build went to the content-keyed cache there, and is shown in the checkout's own folder.
    expect(readdirSync(join(cache, 'builds', 'records', 'c'))).toHaveLength(1);
    expect(existsSync(join(checkoutCache(checkout, { JSIO_CACHE: cache }), 'build', 'records', 'c', 'c'))).toBe(true);
    expect(logged.filter((m) => m.includes('.cache'))).toEqual([]);
  });

  // A cache of its own: the first run's input is remembered in this process by its folder.
  it('generates it again rather than take one planted under its key in the checkout', async () => {
    const planted = join(checkout, '.cache', 'inputs', 'records', key);
    cpSync(join(cache, 'inputs', 'records', key), planted, { recursive: true });
    for (const f of readdirSync(planted).filter((n) => !n.startsWith('.'))) writeFileSync(join(planted, f), 'short');
    const fresh = join(dir, 'cache-again');
    const again = await run('again', records, fresh);
    const [a, b] = [first.benchmarks[0]!, again.benchmarks[0]!];
    expect(b.status, b.reason).toBe('ok');
    expect(b.derived).toEqual(a.derived);
    expect(readdirSync(join(fresh, 'inputs', 'records'))).toEqual([key]);
    expect(readFileSync(join(planted, readdirSync(planted).find((n) => !n.startsWith('.'))!), 'utf8')).toBe('short');
    // Said once, in one line, with how to remove it; left where it is.
    const notes = logged.filter((m) => m.includes(join(checkout, '.cache', 'inputs')));
    expect(notes).toEqual([
      `note: ${join(checkout, '.cache', 'inputs')} is from an older harness and no longer used (the harness's cache is ${fresh}); to free the space: rm -rf ${join(checkout, '.cache', 'inputs')}`,
    ]);
    expect(existsSync(planted)).toBe(true);
  });

  it('never runs a runtime planted under .cache/runtimes/ in the checkout', async () => {
    const tree = join(checkout, '.cache', 'runtimes', '_oven_bun-linux-x64-1.4.5');
    mkdirSync(join(tree, 'package', 'bin'), { recursive: true });
    writeFileSync(join(tree, 'package', 'bin', 'bun'), `#!/bin/sh\necho ran >> ${mark}\necho 1.4.5\n`, { mode: 0o755 });
    recordTree(tree);
    const r = await run('bun', {
      experiments: ['wc'],
      variants: ['readsync'],
      params: { runtime: ['bun'], bs: [65536] },
    });
    const point = r.benchmarks[0]!;
    expect(point.status).not.toBe('ok');
    expect(point.reason).toContain('bun could not be installed');
    expect(existsSync(mark)).toBe(false);
    // Where it would have gone: the harness's cache, not the checkout.
    expect(cacheRoot({ JSIO_CACHE: cache })).toBe(cache);
    expect(readFileSync(join(tree, 'package', 'bin', 'bun'), 'utf8')).toContain(mark);
  });
});
