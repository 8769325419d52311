// The run's scratch TMPDIR (global-setup.ts) reaches the tests and the programs they start.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { expect, it } from 'vitest';
import { launch } from '../../src/site/browser.js';

it('tests and their child processes make temporary files in the run’s own directory', () => {
  expect(basename(tmpdir())).toMatch(/^jsio-test-run-\d+-/);
  const made = spawnSync('mktemp', ['-d'], { encoding: 'utf8' }).stdout.trim();
  expect(dirname(made)).toBe(tmpdir());
});

it('a browser launched for the site leaves no profile behind once closed', async () => {
  const profiles = () => readdirSync(tmpdir()).filter((n) => n.startsWith('jsio-chromium-'));
  const before = profiles().length;
  const ctx = await launch();
  expect(profiles()).toHaveLength(before + 1);
  await ctx.close();
  expect(profiles()).toHaveLength(before);
});
