// `npm run site -- --out DIR` used to delete DIR recursively, whatever it held, and say "site
// built": a whole working directory was lost that way, and `--out ~` would take the home
// directory. A site is now built beside DIR and renamed into place, and only over a site this
// tool built; anything else not empty is refused in one line naming it. A corrupt store is one
// line too (it was "internal error: SyntaxError" and a stack), and rebuilds at once do not crash.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SITE_MARKER } from '../../src/site/output-dir.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { bench, results, timed } from '../helpers/results.js';

let dir: string;
let store: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-site-out-'));
  store = join(dir, 'store');
  writeFileSync(
    join(dir, 'r.json'),
    JSON.stringify(results([bench('c', { bs: 4096 }, { wall_time: timed([1, 2, 3]) })])),
  );
  expect(runCli(['publish-run', join(dir, 'r.json'), '--store', store]).status).toBe(0);
});

const site = (out: string, s = store) => runCli(['site', '--store', s, '--out', out]);

describe('npm run site -- --out', () => {
  it('refuses a directory holding a foreign file, names it, and deletes nothing', () => {
    const out = join(dir, 'work');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'my notes');
    const r = site(out);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `error: --out ${out}: not empty and not a site this tool built (it holds notes.txt); refusing to replace it\n` +
        'hint: give a new or empty directory (a site is rebuilt only where this tool built one)\n',
    );
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('my notes');
  });

  it('refuses a $HOME-like directory', () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, 'Documents'), { recursive: true });
    writeFileSync(join(home, '.bashrc'), 'export X=1');
    const r = site(home);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`--out ${home}: not empty and not a site this tool built (it holds .bashrc and 1 more)`);
    expect(readdirSync(home).sort()).toEqual(['.bashrc', 'Documents']);
  });

  it('refuses --out equal to the store, and leaves the store whole', () => {
    const before = readdirSync(store).sort();
    const r = site(store);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`the site cannot be built around its store ${store}`);
    expect(readdirSync(store).sort()).toEqual(before);
  });

  it('builds into a new directory, rebuilds its own site, and refuses once a foreign file is added to it', () => {
    const out = join(dir, 'site');
    expect(site(out).status).toBe(0);
    expect(existsSync(join(out, SITE_MARKER))).toBe(true);
    expect(existsSync(join(out, 'data', 'machines.json'))).toBe(true);
    const r = site(out);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`site built: ${join(out, 'index.html')}\n`);
    // Nothing of the build is left beside it.
    expect(readdirSync(dir).filter((n) => n.startsWith('.site'))).toEqual([]);
    writeFileSync(join(out, 'mine.txt'), 'kept');
    expect(site(out).status).toBe(2);
    expect(readFileSync(join(out, 'mine.txt'), 'utf8')).toBe('kept');
  });

  it('a corrupt store is one line naming the file, exit 2, no stack', () => {
    const bad = join(dir, 'bad-store');
    mkdirSync(join(bad, 'test-machine'), { recursive: true });
    writeFileSync(join(bad, 'machines.json'), '{"schema":3,"machines":{}}');
    writeFileSync(join(bad, 'test-machine', 'index.json'), '{ truncated');
    const r = site(join(dir, 'site-of-bad'), bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`^error: refusing to touch the store: ${join(bad, 'test-machine', 'index.json')} is not valid JSON`),
    );
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'site-of-bad'))).toBe(false);
  });

  it('three rebuilds of one site at once all succeed', async () => {
    const out = join(dir, 'busy-site');
    const cli = join(ROOT, 'harness', 'bootstrap.mjs'); // the bundle made by the runs above
    const codes = await Promise.all(
      [0, 1, 2].map(
        () =>
          new Promise<number | null>((resolve) => {
            const c = spawn(process.execPath, [cli, 'site', '--store', store, '--out', out], {
              env: { ...process.env, JSIO_ROOT: ROOT },
              stdio: 'ignore',
            });
            c.on('close', resolve);
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0]);
    expect(existsSync(join(out, 'data', 'machines.json'))).toBe(true);
  });
});
