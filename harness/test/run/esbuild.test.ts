// esbuild bundle variants: streams' through2-bundle is one self-contained ES module. Copied away
// from the repository (no node_modules to resolve from), it still runs and counts correctly,
// so its CommonJS dependencies really were inlined and their built-in requires still work. A
// bundle is built only by the esbuild the checkout's lockfile pins.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { version as harnessEsbuild } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { buildOne, bundlerMismatch } from '../../src/run/build.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf } from '../helpers/jobs.js';

it('bundles the through2 program into one module that runs on its own', async () => {
  const streams = loadExperiment(join(ROOT, 'programs', 'streams'));
  const dir = mkdtempSync(join(tmpdir(), 'jsio-esbuild-'));
  const [point] = expand([streams], 'smoke', { variants: ['through2-bundle'] });
  const job = jobOf(point!, {
    cacheDir: join(dir, 'cache'),
    input: { ok: true, dir, facts: { file: 'in.txt', bytes: 17, lines: 3 } },
  });
  const built = await buildOne(job.build!);
  expect(built.ok, !built.ok ? built.reason : '').toBe(true);
  if (!built.ok) return;
  expect(built.info).toMatchObject({
    kind: 'esbuild',
    compiler: expect.stringMatching(/^esbuild \d/),
    flags: ['--bundle', '--minify', '--platform=node'],
  });
  const alone = join(dir, 'alone.mjs');
  copyFileSync(built.artifact, alone);
  writeFileSync(join(dir, 'in.txt'), 'alpha\nbeta\ngamma\n');
  const r = spawnSync(process.execPath, [alone, join(dir, 'in.txt'), '3', 'async'], { cwd: dir, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.stdout)).toEqual({ lines: 3, bytes: 17, pipeline_seconds: expect.any(Number) });
});

/** A checkout of the streams experiment whose lockfile pins esbuild `pinned`; `installed` plants a stand-in esbuild saying that version. */
function checkoutPinning(pinned: string, installed?: string): string {
  const root = mkdtempSync(join(tmpdir(), 'jsio-esbuild-pin-'));
  cpSync(join(ROOT, 'programs', 'streams'), join(root, 'programs', 'streams'), { recursive: true });
  const lock = { lockfileVersion: 3, packages: { '': {}, 'node_modules/esbuild': { version: pinned } } };
  writeFileSync(join(root, 'package-lock.json'), JSON.stringify(lock));
  writeFileSync(join(root, 'package.json'), '{}');
  if (installed) {
    const dir = join(root, 'node_modules', 'esbuild');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'esbuild', version: installed, main: 'index.js' }));
    writeFileSync(join(dir, 'index.js'), `module.exports = { version: '${installed}', build: async () => {} };\n`);
  }
  return root;
}

async function buildIn(root: string) {
  const streams = loadExperiment(join(root, 'programs', 'streams'));
  const [point] = expand([streams], 'smoke', { variants: ['through2-bundle'] });
  const job = jobOf(point!, { cacheDir: join(root, 'cache') });
  return buildOne(job.build!);
}

describe("the bundler is the checkout's pinned esbuild, or nothing is built", () => {
  it('refuses an installed esbuild of another version than the lockfile pins', async () => {
    const built = await buildIn(checkoutPinning('0.28.0', '0.27.9'));
    expect(built).toEqual({
      ok: false,
      reason: 'esbuild 0.27.9 found, 0.28.0 pinned by package-lock.json (run npm ci in the checkout)',
    });
  });

  it("refuses the harness's own esbuild standing in for a pin the checkout did not install", async () => {
    const built = await buildIn(checkoutPinning('0.0.1'));
    expect(built).toEqual({
      ok: false,
      reason: `esbuild ${harnessEsbuild} found, 0.0.1 pinned by package-lock.json (run npm ci in the checkout)`,
    });
  });

  it('decides from the version alone (a lock pin carries its integrity after a space)', () => {
    expect(bundlerMismatch('0.28.2', '0.28.2 sha512-abc')).toBeUndefined();
    expect(bundlerMismatch('0.28.2', undefined)).toBeUndefined();
    expect(bundlerMismatch('0.28.2', '0.28.3 sha512-abc')).toMatch(/^esbuild 0\.28\.2 found, 0\.28\.3 pinned/);
  });
});
