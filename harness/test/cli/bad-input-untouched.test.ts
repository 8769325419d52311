// Bad input that was not one line: `bench --store /` walked the whole file system and exited 3
// with a stack; `site --out` under a symlink into the store, or on an unwritable empty folder,
// exited 3; `publish-to-branch --help` failed; a refused run created its empty --out folder;
// `releases list --line node20 --since 20.18.0` wanted a --runtime the line already names.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectFromFlags } from '../../src/cli/commands/release-selection.js';
import { ROOT, runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-bad-input-'));
/** One error line (and an optional hint), exit 2, no stack. */
function oneLine(r: { status: number | null; stderr: string }, text: string) {
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/^error: [^\n]*\n(hint: [^\n]*\n)?$/);
  expect(r.stderr).toContain(text);
}

describe('bad input is one line, exit 2, nothing touched', () => {
  it('bench --store / is refused before any walk of the file system', () => {
    const out = join(dir, 'out-root-store');
    const r = runCli(['bench', '--profile', 'smoke', '--experiments', 'wc', '--store', '/', '--out', out]);
    oneLine(r, '--store /: not a store');
    expect(existsSync(out)).toBe(false);
  });

  it('a refused run creates no --out folder and no store', () => {
    const out = join(dir, 'out-refused');
    const store = join(dir, 'store-refused');
    const r = runCli(['bench', '--experiments', 'nosuch', '--out', out, '--store', store]);
    oneLine(r, 'unknown experiment "nosuch"');
    expect(existsSync(out)).toBe(false);
    expect(existsSync(store)).toBe(false);
  });

  it('a refused site build creates no store folder', () => {
    const out = join(dir, 'lookalike');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'x');
    const store = join(dir, 'store-not-made');
    oneLine(runCli(['site', '--store', store, '--out', out]), 'not a site this tool built');
    expect(existsSync(store)).toBe(false);
  });

  it('site --out under a symlink into the store', () => {
    const store = join(dir, 'store');
    mkdirSync(store);
    symlinkSync(store, join(dir, 'link'));
    const r = runCli(['site', '--store', store, '--out', join(dir, 'link', 'site')]);
    oneLine(r, 'the site cannot be built inside its store');
    expect(readdirSync(store)).toEqual([]);
  });

  it.skipIf(process.getuid?.() === 0)('site --out on an unwritable empty folder (skipped as root)', () => {
    const out = join(dir, 'unwritable');
    mkdirSync(out);
    chmodSync(out, 0o555);
    const r = runCli(['site', '--store', join(dir, 'store2'), '--out', out]);
    oneLine(r, `--out ${out}: not writable`);
  });

  it('publish-to-branch --help prints its usage', () => {
    const r = spawnSync('bash', [join(ROOT, 'harness', 'tools', 'publish-to-branch.sh'), '--help'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('usage: publish-to-branch.sh DIR BRANCH MESSAGE -- COMMAND');
  });

  it('publish-to-branch without its arguments is one line, exit 2', () => {
    const r = spawnSync('bash', [join(ROOT, 'harness', 'tools', 'publish-to-branch.sh'), 'x'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('publish-to-branch: usage: publish-to-branch.sh DIR BRANCH MESSAGE -- COMMAND [ARGS...]\n');
  });

  it('releases --line node20 --since 20.18.0: the line names its runtime', async () => {
    const saved = join(ROOT, 'harness', 'test', 'fixtures', 'registry');
    const node = readdirSync(saved).find((f) => f.startsWith('node'));
    const picked = await selectFromFlags({
      line: 'node20',
      since: '20.18.0',
      every: 'release',
      ...(node ? { 'registry-json': [`node=${join(saved, node)}`] } : {}),
    });
    expect(picked.every((r) => r.family === 'node' && r.version.startsWith('20.'))).toBe(true);
  });
});
