// esbuild bundle variants: streams' through2-bundle is one self-contained ES module. Copied away
// from the repository (no node_modules to resolve from), it still runs and counts correctly,
// so its CommonJS dependencies really were inlined and their built-in requires still work.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { buildOne } from '../../src/run/build.js';
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
