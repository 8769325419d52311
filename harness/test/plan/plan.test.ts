// plan: profile + filters -> points; missing runtimes become skipped with a reason and a hint;
// filters that match nothing are errors listing the valid names.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CURRENT_NODE_MAJOR, type Resolved } from '../../src/machine/toolchains.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { planJobs } from '../../src/plan/jobs.js';
import { cartesian, deriveValues, expand } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
const ok: Resolved = { ok: true, path: '/usr/bin/x', version: '1' };
const applyRuntimes = (points: ReturnType<typeof expand>, runtimes: Map<string, Resolved>, require: string[]) =>
  planJobs(points, {
    runtimes: new Map([...points.map((p): [string, Resolved] => [p.runtime, ok]), ...runtimes]),
    inputs: new Map(),
    cacheDir: '/nonexistent',
    require,
  });

describe('expand', () => {
  it('sweeps the profile’s block sizes for every variant, node variants once per node major', () => {
    const points = expand([wc], 'smoke', {});
    const nodeStream = points.filter((p) => p.variant.id === 'node-stream');
    expect(nodeStream.map((p) => p.params)).toEqual(
      [CURRENT_NODE_MAJOR, '22', '24']
        .filter((v, i, a) => a.indexOf(v) === i)
        .flatMap((major) => [4096, 65536].map((bs) => ({ bs, runtime: `node${major}` }))),
    );
    expect(points.filter((p) => p.variant.id === 'c').map((p) => p.id)).toEqual(['wc/c/bs=4096', 'wc/c/bs=65536']);
  });

  it('lets --param replace the profile’s values and pick node versions', () => {
    const points = expand([wc], 'quick', { variants: ['c', 'node-pipe'], params: { bs: [1024], runtime: ['node22'] } });
    expect(points.map((p) => p.id)).toEqual(['wc/c/bs=1024', 'wc/node-pipe/bs=1024,runtime=node22']);
  });

  it('gives a variant that ignores a parameter one point per combination of the others, its id without it', () => {
    const threadpool = loadExperiment(join(ROOT, 'programs', 'threadpool'));
    const points = expand([threadpool], 'quick', { params: { work: ['read'], cache: ['warm'] } });
    expect(points.filter((p) => p.variant.id === 'c-pool').map((p) => p.params.pool)).toEqual([1, 2, 4, 8, 12]);
    expect(points.filter((p) => p.variant.id === 'bun').map((p) => p.id)).toEqual([
      'threadpool/bun/cache=warm,runtime=bun,work=read',
    ]);
    // --param pool=... narrows the variants that take a pool; it does not drop Bun or Deno.
    const narrowed = expand([threadpool], 'quick', { params: { pool: [4] }, variants: ['c-pool', 'deno'] });
    expect(narrowed.map((p) => p.id)).toEqual([
      'threadpool/c-pool/cache=cold,pool=4,work=read',
      'threadpool/c-pool/cache=warm,pool=4,work=read',
      'threadpool/c-pool/cache=cold,pool=4,work=parse',
      'threadpool/c-pool/cache=warm,pool=4,work=parse',
      'threadpool/deno/cache=cold,runtime=deno,work=read',
      'threadpool/deno/cache=warm,runtime=deno,work=read',
      'threadpool/deno/cache=cold,runtime=deno,work=parse',
      'threadpool/deno/cache=warm,runtime=deno,work=parse',
    ]);
  });

  it.each([
    [{ experiments: ['wx'] }, /unknown experiment "wx"; valid experiments: .*wc/],
    [{ variants: ['cc'] }, /unknown variant "cc"; valid variants: c, dd-null, .*readsync/],
    [{ params: { blocksize: [1] } }, /unknown parameter "blocksize"; valid parameters: bs, runtime/],
  ])('refuses %j, listing the valid names', (filters, message) => {
    expect(() => expand([wc], 'smoke', filters)).toThrow(message);
  });
});

describe('derived values', () => {
  it('scales bytes by block size so small blocks do not dominate', () => {
    expect(deriveValues(wc.manifest, 'quick', { bs: 65536 })).toEqual({
      count: 1024,
      bytes: 67108864,
      min_reads: 1024,
    });
    expect(deriveValues(wc.manifest, 'quick', { bs: 256 })).toEqual({ count: 20000, bytes: 5120000, min_reads: 20000 });
    expect(deriveValues(wc.manifest, 'full', { bs: 65536 })).toEqual({
      count: 500000,
      bytes: 32768000000,
      min_reads: 500000,
    });
  });

  it('builds the cartesian product in manifest order', () => {
    expect(
      cartesian([
        ['a', [1, 2]],
        ['b', ['x']],
      ]),
    ).toEqual([
      { a: 1, b: 'x' },
      { a: 2, b: 'x' },
    ]);
  });
});

describe('runtimes', () => {
  const missingJust: Resolved = { ok: false, reason: 'just(js) is not installed', hint: 'install just(js)' };

  it('marks points of a missing runtime skipped with its reason and hint, keeping the others', () => {
    const points = applyRuntimes(
      expand([wc], 'smoke', { variants: ['c', 'just-sync'] }),
      new Map([['just', missingJust]]),
      [],
    );
    expect(points.map((p) => [p.id, p.blocked?.reason ?? 'run'])).toEqual([
      ['wc/c/bs=4096', 'run'],
      ['wc/c/bs=65536', 'run'],
      ['wc/just-sync/bs=4096,runtime=just', 'just(js) is not installed'],
      ['wc/just-sync/bs=65536,runtime=just', 'just(js) is not installed'],
    ]);
    expect(points[2]?.blocked?.hint).toBe('install just(js)');
  });

  it('turns a missing required runtime into an error', () => {
    expect(() => applyRuntimes(expand([wc], 'smoke', {}), new Map([['just', missingJust]]), ['just'])).toThrow(
      /required runtime just is unavailable: just\(js\) is not installed/,
    );
  });
});
