// One side's sandbox with the real bubblewrap: the side's tree read-only at the fixed path and the
// other checkout nowhere, writes outside the scratch and TMPDIR refused with EROFS (the harness's
// folders in the tree included), the same environment and paths for both sides, no network; and
// where bwrap cannot start, or starts no sandbox, the reason.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess } from '../../../src/lib/exec.js';
import { SANDBOX_ENV, sandboxCommand } from '../../../src/machine/sandbox/argv.js';
import { openSandbox, type SideFolders } from '../../../src/machine/sandbox/open.js';
import type { Sandbox } from '../../../src/model/sandbox.js';
import { removeScratch } from '../../helpers/scratch.js';

const world = mkdtempSync(join(tmpdir(), 'jsio-sandbox-'));
afterAll(() => removeScratch(world));

function checkout(name: string): string {
  const root = join(world, name);
  mkdirSync(join(root, 'programs', 'wc'), { recursive: true });
  writeFileSync(join(root, 'programs', 'wc', `${name}.txt`), name);
  mkdirSync(join(root, '.cache'), { recursive: true });
  writeFileSync(join(root, '.cache', 'planted'), 'a cache the checkout brought');
  return root;
}

const base = checkout('base');
const head = checkout('head');
const foldersOf = (root: string): SideFolders => ({
  root,
  cacheDir: join(head, '.cache'),
  scratchDir: join(head, '.cache', 'scratch'),
});

function open(root: string): Sandbox {
  const o = openSandbox(foldersOf(root));
  if (!o.ok) throw new Error(o.reason);
  return o.sandbox;
}

async function inside(sandbox: Sandbox, root: string, script: string) {
  const r = await runProcess(sandboxCommand(sandbox, join(root, 'programs', 'wc'), ['/bin/bash', '-c', script]), {
    timeoutMs: 20_000,
    env: {},
  });
  return { ...r, out: r.stdout.trim() };
}

describe('a side in its sandbox (real bwrap)', () => {
  const sb = open(base);

  it("shows the side's tree at the fixed path, and neither checkout by its own path", async () => {
    // Spelled so that the command's translation (a host path of a root becomes its fixed path) cannot reach it.
    const r = await inside(
      sb,
      base,
      `pwd; ls /jsio/side/programs/wc; test -e ${world}/"head" || echo no-head; test -e ${world}/"base" || echo no-base`,
    );
    expect(r.out.split('\n')).toEqual(['/jsio/side/programs/wc', 'base.txt', 'no-head', 'no-base']);
  });

  it('refuses a write into the tree, or into the cache the checkout brought, with EROFS naming the path', async () => {
    const r = await inside(
      sb,
      base,
      'echo x > /jsio/side/programs/wc/planted; echo x > /jsio/side/.cache/x; cat /jsio/side/.cache/planted',
    );
    expect(r.stderr).toContain('/jsio/side/programs/wc/planted: Read-only file system');
    expect(r.stderr).toContain('/jsio/side/.cache/x: Read-only file system');
    expect(r.stderr).toContain('/jsio/side/.cache/planted: No such file or directory');
  });

  it('lets the program write its scratch (the folder both sides share) and TMPDIR', async () => {
    const r = await inside(sb, base, 'echo from-base > /jsio/scratch/out && echo t > "$TMPDIR/t" && cat "$TMPDIR/t"');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(head, '.cache', 'scratch', 'out'), 'utf8')).toBe('from-base\n');
  });

  it('gives both sides the same environment and paths, and no network', async () => {
    const script = 'pwd; env | grep -v "^_=" | sort; tail -n +3 /proc/net/dev | cut -d: -f1';
    const b = await inside(sb, base, script);
    const h = await inside(open(head), head, script);
    expect(h.out).toBe(b.out);
    const lines = b.out.split('\n');
    for (const [k, v] of Object.entries(SANDBOX_ENV)) expect(lines).toContain(`${k}=${v}`);
    // Beside the fixed ones, only what bash sets itself.
    expect(lines.filter((l) => /^\w+=/.test(l)).map((l) => l.split('=')[0])).toEqual(
      [...Object.keys(SANDBOX_ENV), 'PWD', 'SHLVL'].sort(),
    );
    expect(lines.at(-1)?.trim()).toBe('lo');
  });

  it('says why where bwrap cannot start', () => {
    const o = openSandbox(foldersOf(base), '/bin/false');
    expect(o.ok).toBe(false);
    expect(!o.ok && o.reason).toMatch(/^the sandbox \(\/bin\/false\) cannot start here/);
    expect(!o.ok && o.hint).toMatch(/apt-get install bubblewrap/);
  });

  it('refuses a "bwrap" that runs its command without a sandbox', () => {
    const fake = join(world, 'fake-bwrap');
    writeFileSync(fake, '#!/bin/bash\nwhile [ "$1" != -- ]; do shift; done; shift; exec "$@"\n');
    chmodSync(fake, 0o755);
    const o = openSandbox(foldersOf(base), fake);
    expect(o.ok).toBe(false);
  });

  it('refuses a checkout whose path its commands would have to quote', () => {
    const o = openSandbox({ ...foldersOf(base), root: join(world, 'a checkout') });
    expect(!o.ok && o.reason).toMatch(/a checkout: a sandbox folder must be/);
  });
});
