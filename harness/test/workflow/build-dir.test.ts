// `workflow build-dir` (bench.yml): the folder of a checkout's builds in the harness's cache outside
// the checkout, where the static just(js) binary is uploaded from; a folder that is no checkout is refused.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheRoot, checkoutCache } from '../../src/machine/cache-root.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-build-dir-'));
afterAll(() => removeScratch(dir));

describe('workflow build-dir', () => {
  it("prints this checkout's builds folder in the harness's cache, outside the checkout", () => {
    const r = runCli(['workflow', 'build-dir']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${join(checkoutCache(ROOT), 'build')}\n`);
    expect(r.stdout.startsWith(`${cacheRoot()}/checkouts/`)).toBe(true);
    expect(r.stdout.startsWith(ROOT)).toBe(false);
  });

  it('another checkout gets another folder', () => {
    const other = runCli(['workflow', 'build-dir', '--root', join(ROOT, 'harness', 'test', 'fixtures')]);
    expect(other.status, other.stderr).toBe(0);
    expect(other.stdout).not.toBe(`${join(checkoutCache(ROOT), 'build')}\n`);
  });

  it('refuses a folder that is no checkout, naming it', () => {
    const r = runCli(['workflow', 'build-dir', '--root', dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`--root ${dir}: not a jsio-bench checkout`);
    expect(r.stdout).toBe('');
  });

  it('answers --help', () => {
    expect(runCli(['workflow', 'build-dir', '--help']).stdout).toContain("this checkout's builds");
  });
});
