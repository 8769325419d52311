// What a trace of the harness's own start-up adds to its identity: what it loads as code or
// configuration beyond what the static comparison names, each installed package once; never the
// program files it reads to identify them. And the trace itself, of this checkout's harness.
import { describe, expect, it } from 'vitest';
import { harnessLoads, tracedHarnessChanges, traceHarness } from '../../../src/pairs/diff/trace-harness.js';
import { ROOT } from '../../helpers/cli.js';

describe('the harness trace', () => {
  it('keeps what the harness loads beyond its static identity, each package once', () => {
    const paths = [
      '.npmrc',
      'harness/bootstrap.mjs',
      'harness/toolchains.json',
      'node_modules',
      'node_modules/.bin',
      'node_modules/.jsio-lock.sha256',
      'node_modules/@esbuild',
      'node_modules/@esbuild/linux-x64/bin/esbuild',
      'node_modules/zod/index.js',
      'node_modules/zod/package.json',
      'package-lock.json',
      'package.json',
      'programs/wc/manifest.json',
      'tsconfig.json',
    ];
    expect(harnessLoads(paths)).toEqual(['node_modules/@esbuild/linux-x64', 'node_modules/zod']);
  });

  it('a changed package the static comparison names already is not said twice', () => {
    const trace = { ok: true as const, paths: ['preload.cjs', 'node_modules/zod/index.js'], listed: [], seconds: 0 };
    const all = () => true;
    expect(tracedHarnessChanges(trace, [], all)).toEqual([
      'seen only by tracing: node_modules/zod',
      'seen only by tracing: preload.cjs',
    ]);
    expect(tracedHarnessChanges(trace, ['package zod'], all)).toEqual(['seen only by tracing: preload.cjs']);
    expect(tracedHarnessChanges(trace, [], () => false)).toEqual([]);
  });

  it("this checkout's start-up loads its packages, and nothing else outside what the static identity names", async () => {
    const t = await traceHarness(ROOT);
    expect(t.ok, t.ok ? '' : t.reason).toBe(true);
    if (!t.ok) return;
    const loads = harnessLoads(t.paths);
    expect(t.paths).toContain('.npmrc');
    expect(t.paths).toContain('harness/bootstrap.mjs');
    expect(loads).toContain('node_modules/zod');
    expect(loads.filter((p) => !p.startsWith('node_modules/'))).toEqual([]);
  });
});
