// Which files are the harness's measuring code and which of them differ: the pure parts, on fixtures.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_ENTRY } from '../../../src/pairs/harness-shift/harness-change.js';
import {
  changedFiles,
  changedPins,
  measuringFiles,
  NOT_MEASURING,
  notMeasuring,
  onlySources,
  packageFields,
} from '../../../src/pairs/harness-shift/measuring-files.js';
import { ROOT } from '../../helpers/cli.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('NOT_MEASURING', () => {
  it('names only files and folders that exist, each with a reason (a rename cannot empty it silently)', () => {
    for (const e of NOT_MEASURING) {
      expect(e.reason.length).toBeGreaterThan(10);
      for (const p of e.paths) expect(existsSync(join(ROOT, p)), p).toBe(true);
    }
  });
});

describe('HARNESS_ENTRY', () => {
  it('exists, and is the module the bootstrap bundles (a moved entry would leave the analysis following none)', () => {
    expect(existsSync(join(ROOT, HARNESS_ENTRY)), HARNESS_ENTRY).toBe(true);
    // The bootstrap as package.json's scripts run it, and the entry it bundles (esbuild's entryPoints).
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    const bootstrap = /^node (\S+\.mjs) /.exec(scripts.bench!)![1]!;
    expect(readFileSync(join(ROOT, bootstrap), 'utf8')).toContain(`entryPoints: ['${HARNESS_ENTRY}']`);
  });
});

describe('measuringFiles', () => {
  it('is every file under harness/ but the listed ones, .npmrc and tsconfig.json', () => {
    expect(
      measuringFiles([
        'harness/bootstrap.mjs',
        'harness/src/pipeline/bench.ts',
        'harness/src/report/gab.ts',
        'harness/src/report/summary.ts',
        'harness/src/site/bundle.ts',
        'harness/test/run/x.test.ts',
        'harness/tools/evict.c',
        'harness/tools/new-header.h',
        'harness/tools/setup-runner.sh',
      ]),
    ).toEqual([
      '.npmrc',
      'harness/bootstrap.mjs',
      'harness/src/pipeline/bench.ts',
      'harness/src/report/gab.ts',
      'harness/tools/evict.c',
      'harness/tools/new-header.h',
      'tsconfig.json',
    ]);
    expect(notMeasuring('harness/src/pairs/comment/comment.ts')).toBe(true);
    expect(notMeasuring('harness/src/pairs/engine/scheduler.ts')).toBe(false);
  });

  it('package.json counts by every field but its description (scripts included)', () => {
    const pkg = (o: object) => packageFields(JSON.stringify(o));
    expect(pkg({ scripts: { bench: 'a' }, description: 'x' })).toBe(pkg({ scripts: { bench: 'a' }, description: 'y' }));
    expect(pkg({ scripts: { bench: 'a' } })).not.toBe(pkg({ scripts: { bench: 'b' } }));
    expect(packageFields(undefined)).toBe('absent');
  });
});

describe('changedFiles', () => {
  const base: Record<string, string> = { a: 'same', b: 'old', gone: 'x' };
  const head: Record<string, string> = { a: 'same', b: 'new', added: 'y' };
  const read = (side: Record<string, string>) => (f: string) => (side[f] === undefined ? undefined : bytes(side[f]!));

  it('lists files whose bytes differ, or that one side lacks', () => {
    expect(changedFiles(['a', 'b', 'gone', 'added', 'neither'], read(base), read(head))).toEqual([
      'b',
      'gone',
      'added',
    ]);
  });

  it('is empty when every byte agrees', () => {
    expect(changedFiles(['a'], read(base), read(head))).toEqual([]);
  });
});

describe('changedPins', () => {
  it('names each package pinned differently or on one side only', () => {
    const base = { 'package zod': '4.6.7 sha512-a', 'package yaml': '2.9.1 sha512-b' };
    const head = { 'package zod': '4.6.8 sha512-c', 'package shell-quote': '1.12.0 sha512-d' };
    expect(changedPins(base, head)).toEqual(['package shell-quote', 'package yaml', 'package zod']);
    expect(changedPins(base, { ...base })).toEqual([]);
  });

  it('fails closed: a side with an unpinned package differs in its lockfile', () => {
    expect(changedPins(undefined, {})).toEqual(['package-lock.json']);
    expect(changedPins({}, undefined)).toEqual(['package-lock.json']);
  });
});

describe('onlySources', () => {
  it('is true for harness TypeScript only: not a tool, the pins or a package', () => {
    expect(onlySources(['harness/src/run/measure.ts', 'harness/src/lib/exec.ts'])).toBe(true);
    expect(onlySources(['harness/src/run/measure.ts', 'harness/tools/evict.c'])).toBe(false);
    expect(onlySources(['harness/toolchains.json'])).toBe(false);
    expect(onlySources(['package zod'])).toBe(false);
  });
});
