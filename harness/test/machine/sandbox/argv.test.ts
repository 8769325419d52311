// The sandbox's command line as a pure function: what is mounted where (read-only but for the
// scratch and the run's own folder), the side's harness folders masked, a fixed environment, and
// host paths in a command translated to the fixed ones inside.
import { describe, expect, it } from 'vitest';
import { bwrapArgs, SANDBOX_ENV, sandboxCommand, translate, unplainPath } from '../../../src/machine/sandbox/argv.js';
import { sideRoots } from '../../../src/machine/sandbox/open.js';
import { INSIDE, type Sandbox } from '../../../src/model/sandbox.js';

const folders = {
  root: '/w/base',
  cacheDir: '/w/head/.cache',
  scratchDir: '/w/head/.cache/scratch',
  justHome: '/opt/just',
  justTarget: '/opt/just-apps',
  toolPaths: ['/usr/bin/hyperfine', '/home/u/.cargo/bin/hyperfine', '/w/head/.cache/runtimes/bun/bin/bun'],
};

/** The (option, source, destination) triples of an argument list. */
function mounts(args: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < args.length; i++)
    if (['--ro-bind', '--bind', '--symlink'].includes(args[i]!)) out.push(args.slice(i, i + 3));
  return out;
}

describe('a side in its sandbox', () => {
  const { roots } = sideRoots(folders);
  const sandbox: Sandbox = {
    bwrap: '/usr/bin/bwrap',
    system: [{ path: '/usr' }, { path: '/bin', link: 'usr/bin' }],
    roots,
    masks: ['/jsio/side/.cache'],
    env: SANDBOX_ENV,
  };

  it('shows the checkout, its builds, the shared caches and tools read-only at fixed paths, and only the scratch writable', () => {
    const m = mounts(bwrapArgs(sandbox, '/w/base/programs/wc', ['true']));
    expect(m).toContainEqual(['--ro-bind', '/w/base', INSIDE.side]);
    // Builds are shown by their jobs, each from its entry of the content-keyed cache (plan/jobs.ts).
    expect(m.filter(([, , to]) => to?.startsWith(INSIDE.build))).toEqual([]);
    expect(m).toContainEqual(['--ro-bind', '/w/head/.cache/inputs', INSIDE.inputs]);
    expect(m).toContainEqual(['--ro-bind', '/w/head/.cache/runtimes', INSIDE.runtimes]);
    expect(m).toContainEqual(['--ro-bind', '/w/head/.cache/tools', INSIDE.tools]);
    expect(m).toContainEqual(['--ro-bind', '/opt/just', INSIDE.justHome]);
    expect(m).toContainEqual(['--ro-bind', '/opt/just-apps', INSIDE.justTarget]);
    expect(m).toContainEqual(['--ro-bind', '/usr', '/usr']);
    expect(m).toContainEqual(['--symlink', 'usr/bin', '/bin']);
    // A tool outside the system's folders gets a folder of its own; one in a root is seen there.
    expect(m).toContainEqual(['--ro-bind', '/home/u/.cargo/bin', `${INSIDE.bin}/0`]);
    expect(m.filter(([, src]) => src?.includes('runtimes/bun'))).toEqual([]);
    expect(m.filter(([opt]) => opt === '--bind')).toEqual([['--bind', '/w/head/.cache/scratch', INSIDE.scratch]]);
  });

  it('mounts a folder inside another after it, masks the harness folders read-only, and starts in the translated folder', () => {
    const args = bwrapArgs(
      sandbox,
      '/w/base/programs/wc',
      ['true'],
      [{ host: '/tmp/run1', inside: INSIDE.work, writable: true }],
    );
    expect(args.slice(0, 3)).toEqual(['--unshare-all', '--die-with-parent', '--clearenv']);
    expect(mounts(args)).toContainEqual(['--bind', '/tmp/run1', INSIDE.work]);
    const at = (x: string) => args.indexOf(x);
    expect(at('/jsio/side/.cache')).toBeGreaterThan(at(INSIDE.side));
    expect(args.slice(at('/jsio/side/.cache') - 1, at('/jsio/side/.cache') + 3)).toEqual([
      '--tmpfs',
      '/jsio/side/.cache',
      '--remount-ro',
      '/jsio/side/.cache',
    ]);
    expect(args.slice(-4)).toEqual(['--chdir', '/jsio/side/programs/wc', '--', 'true']);
  });

  it('sets the same environment on every run: no variable of the harness reaches the program', () => {
    const args = bwrapArgs(sandbox, '/w/base', ['true']);
    const env: Record<string, string> = {};
    for (let i = 0; i < args.length; i++) if (args[i] === '--setenv') env[args[i + 1]!] = args[i + 2]!;
    expect(env).toEqual({
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: '/tmp',
      TMPDIR: '/tmp',
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      JUST_HOME: INSIDE.justHome,
      JUST_TARGET: INSIDE.justTarget,
    });
  });

  it("translates a command's host paths to the fixed ones, both sides alike", () => {
    // Each side's job shows its build's entry (another key: another program) at one fixed path.
    const entry = (key: string) => ({ host: `/w/cache/builds/wc/c/${key}`, inside: `${INSIDE.build}/wc/c` });
    const head = [...sideRoots({ ...folders, root: '/w/head-of-another-length' }).roots, entry('b1-head')];
    const cmd = (key: string) =>
      `dd if=/w/head/.cache/inputs/wc/x bs=4096 | /w/cache/builds/wc/c/${key}/c 4096 > /w/head/.cache/scratch/wc/c/out`;
    const inside = 'dd if=/jsio/inputs/wc/x bs=4096 | /jsio/build/wc/c/c 4096 > /jsio/scratch/wc/c/out';
    expect(translate(cmd('b1-base'), [...roots, entry('b1-base')])).toBe(inside);
    expect(translate(cmd('b1-head'), head)).toBe(inside);
    const argv = sandboxCommand(
      sandbox,
      '/w/base/programs/wc',
      ['bash', '-c', 'node /w/base/programs/wc/wc.js'],
      '/tmp/run1',
    );
    expect(argv[0]).toBe('/usr/bin/bwrap');
    expect(argv.slice(-3)).toEqual(['bash', '-c', 'node /jsio/side/programs/wc/wc.js']);
  });

  it('shows programs from another folder beside the tree, not in it (no package.json of the checkout above them)', () => {
    const { roots: r } = sideRoots({ ...folders, programsDir: '/elsewhere/programs' });
    expect(r).toContainEqual({ host: '/elsewhere/programs', inside: INSIDE.programs });
    expect(translate('/elsewhere/programs/tally/t.js', r)).toBe('/jsio/programs/tally/t.js');
  });

  it('translates whole path components only', () => {
    const r = [{ host: '/a/b', inside: '/in' }];
    expect(translate('/a/b /a/bc /x/a/b /a/b/c x=/a/b', r)).toBe('/in /a/bc /x/a/b /in/c x=/in');
  });

  it('refuses a folder whose path its commands would have to quote', () => {
    expect(unplainPath('/w/base')).toBeUndefined();
    expect(unplainPath('/w/my checkout')).toMatch(/letters, digits/);
    expect(unplainPath("/w/it's")).toMatch(/\/w\/it's: a sandbox folder/);
  });
});
