// `npm run bench -- --store DIR` used to rebuild a site at $(dirname DIR)/site with a recursive
// delete (`--store work/mystore` deleted work/site/notes.txt). A custom store now gets no site;
// conflicting flags are refused; a run in which nothing succeeded never reaches the store; and
// the end of a run counts every experiment's benchmarks.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli } from '../helpers/cli.js';

const bench = (variants: string, ...flags: string[]) =>
  runCli(['bench', '--profile', 'smoke', '--programs', join(FIXTURES, 'faults'), '--variants', variants, ...flags]);

describe('bench and the files around its store', () => {
  it('--store beside foreign files touches none of them and builds no site there', () => {
    const work = mkdtempSync(join(tmpdir(), 'jsio-work-'));
    mkdirSync(join(work, 'site'));
    writeFileSync(join(work, 'site', 'notes.txt'), 'mine');
    writeFileSync(join(work, 'notes.txt'), 'mine too');
    const r = bench('ok', '--out', join(work, 'out'), '--store', join(work, 'mystore'));
    expect(r.status).toBe(0);
    expect(readFileSync(join(work, 'site', 'notes.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(work, 'notes.txt'), 'utf8')).toBe('mine too');
    expect(existsSync(join(work, 'mystore', 'machines.json'))).toBe(true);
    expect(r.stdout).toContain(
      `site:     not rebuilt for a custom store (npm run site -- --store ${join(work, 'mystore')}`,
    );
    expect(r.stdout).toMatch(/\ntotal: {4}1 benchmarks in 1 experiment\(s\): 1 ok, 0 skipped, 0 failed\n/);
  });

  it('refuses --out equal to --store before measuring', () => {
    const d = mkdtempSync(join(tmpdir(), 'jsio-same-'));
    const r = bench('ok', '--out', d, '--store', d);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`error: --out and --store are the same directory (${d})`);
    expect(existsSync(join(d, 'results.json'))).toBe(false);
  });

  it('refuses --no-store with --store', () => {
    const d = mkdtempSync(join(tmpdir(), 'jsio-nostore-'));
    const r = bench('ok', '--out', join(d, 'out'), '--no-store', '--store', join(d, 'store'));
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'error: --no-store and --store cannot be used together: --no-store stores nothing; drop one of them\n',
    );
  });

  it('a run in which every benchmark failed does not reach the store', () => {
    const d = mkdtempSync(join(tmpdir(), 'jsio-allfail-'));
    const r = bench('crash', '--out', join(d, 'out'), '--store', join(d, 'store'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('not added to the history: no benchmark succeeded');
    expect(existsSync(join(d, 'store', 'machines.json'))).toBe(false);
    expect(r.stdout).toContain('total:    1 benchmarks in 1 experiment(s): 0 ok, 0 skipped, 1 failed');
  });
});
