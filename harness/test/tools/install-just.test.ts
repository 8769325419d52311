// `npm run install-just`, as the workflows run it. The release mode (upstream's build) runs against
// a local stand-in for the upstream release tarball (GitHub is unreachable here): it builds once
// into the cache directory, reuses it only while its stamp matches, rebuilds a planted or foreign
// binary, and leaves nothing half-installed when the download fails. The system mode really
// builds just(js) against Debian's V8 from upstream's source tarballs in ../shared/just.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** A tarball shaped like upstream's: just-<version>/Makefile whose runtime-static target builds ./just. */
function fakeRelease(dir: string, version: string, says = version): string {
  const src = join(dir, `just-${version}`);
  mkdirSync(src, { recursive: true });
  writeFileSync(
    join(src, 'Makefile'),
    `runtime-static:\n\tprintf '#!/bin/sh\\necho ${says}\\n' > just\n\tchmod +x just\n\techo built >> "$(BUILD_LOG)"\n`,
  );
  const tarball = join(dir, 'release.tar.gz');
  expect(spawnSync('tar', ['-czf', tarball, '-C', dir, `just-${version}`]).status).toBe(0);
  return tarball;
}

function install(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync('npm', ['run', '--silent', 'install-just', '--', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const stamp = (dir: string) =>
  Object.fromEntries(
    readFileSync(join(dir, '.install-just.stamp'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('=') as [string, string]),
  );
/** What a failed install may leave in PREFIX: its lock file, never a just-* directory. */
const installed = (prefix: string) =>
  existsSync(prefix) ? readdirSync(prefix).filter((f) => f.startsWith('just-')) : [];

describe('install-just (release mode, upstream build)', () => {
  function setup(says?: string) {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-just-'));
    const log = join(dir, 'build.log');
    const env = { JUST_ARCHIVE_URL: `file://${fakeRelease(dir, '0.1.13', says)}`, BUILD_LOG: log };
    const prefix = join(dir, 'cache');
    const home = join(prefix, 'just-0.1.13');
    const builds = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0);
    return { dir, env, prefix, home, builds };
  }

  it('builds the release into PREFIX/just-VERSION once, stamps it, then reuses it', () => {
    const { env, prefix, home, builds } = setup();
    const first = install(['0.1.13', prefix], env);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe(`${home}\n`);
    expect(first.stderr).toContain(`export PATH=${home}:$PATH JUST_HOME=${home} JUST_TARGET=${home}`);
    expect(spawnSync(join(home, 'just'), { encoding: 'utf8' }).stdout).toBe('0.1.13\n');
    expect(stamp(home)).toMatchObject({
      version: '0.1.13',
      mode: 'release',
      sha256: sha256(join(home, 'just')),
      files: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const again = install(['0.1.13', prefix], env);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(`${home}\n`);
    expect(builds()).toBe(1);
  });

  it('rebuilds a binary planted in the cache instead of accepting it', () => {
    const { env, prefix, home, builds } = setup();
    expect(install(['0.1.13', prefix], env).status).toBe(0);
    writeFileSync(join(home, 'just'), '#!/bin/sh\necho planted\n', { mode: 0o755 });
    const r = install(['0.1.13', prefix], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/does not match its stamp/);
    expect(spawnSync(join(home, 'just'), { encoding: 'utf8' }).stdout).toBe('0.1.13\n');
    expect(builds()).toBe(2);
  });

  it('rebuilds a directory without a stamp (an unfinished build, or made by someone else)', () => {
    const { env, prefix, home, builds } = setup();
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'just'), '#!/bin/sh\necho planted\n', { mode: 0o755 });
    const r = install(['0.1.13', prefix], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/has no stamp/);
    expect(spawnSync(join(home, 'just'), { encoding: 'utf8' }).stdout).toBe('0.1.13\n');
    expect(builds()).toBe(1);
  });

  it('rebuilds when the stamp names another mode or version', () => {
    const { env, prefix, home, builds } = setup();
    expect(install(['0.1.13', prefix], env).status).toBe(0);
    const file = join(home, '.install-just.stamp');
    writeFileSync(file, readFileSync(file, 'utf8').replace('mode=release', 'mode=system'));
    expect(install(['0.1.13', prefix], env).status).toBe(0);
    expect(builds()).toBe(2);
    expect(stamp(home).mode).toBe('release');
  });

  it('refuses a build whose runtime reports another version, and installs nothing', () => {
    const { env, prefix } = setup('0.1.12');
    const r = install(['0.1.13', prefix], env);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('the new runtime says it is version "0.1.12", not 0.1.13');
    expect(installed(prefix)).toEqual([]);
  });

  it('fails on a download error and leaves no half-installed directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-just-'));
    const r = install(['0.1.13', join(dir, 'cache')], { JUST_ARCHIVE_URL: `file://${join(dir, 'missing.tar.gz')}` });
    expect(r.status).not.toBe(0);
    expect(installed(join(dir, 'cache'))).toEqual([]);
  });

  it("without a version installs the checkout's own pin (harness/toolchains.json, the one place it is named)", () => {
    const pin = JSON.parse(readFileSync(join(ROOT, 'harness', 'toolchains.json'), 'utf8')).just as string;
    const { dir, prefix } = setup();
    const env = { JUST_ARCHIVE_URL: `file://${fakeRelease(join(dir, 'pin'), pin)}`, BUILD_LOG: join(dir, 'log') };
    const r = install([prefix], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${join(prefix, `just-${pin}`)}\n`);
  });

  it("--pins FILE installs that file's pin (pr.yml: the head's pin with the base's script), cached by version", () => {
    const { dir, prefix } = setup();
    const pins = join(dir, 'toolchains.json');
    writeFileSync(pins, JSON.stringify({ node: { 22: '22.23.3' }, just: '0.1.14' }));
    const env = { JUST_ARCHIVE_URL: `file://${fakeRelease(join(dir, 'head'), '0.1.14')}`, BUILD_LOG: join(dir, 'log') };
    const r = install(['--pins', pins, prefix], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${join(prefix, 'just-0.1.14')}\n`);
    expect(spawnSync(join(prefix, 'just-0.1.14', 'just'), { encoding: 'utf8' }).stdout).toBe('0.1.14\n');
  });

  it('refuses a pins file without a usable just pin, naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-just-'));
    const file = join(dir, 'toolchains.json');
    for (const [text, says] of [
      ['{"node":{}}', `${file} pins no "just" version`],
      ['{"just":"../../evil"}', `got "../../evil" (from ${file})`],
      ['{"just":', `${file}: `],
    ] as const) {
      writeFileSync(file, text);
      const r = install(['--pins', file, join(dir, 'cache')]);
      expect(r.status, text).toBe(1);
      expect(r.stderr, text).toContain(says);
      expect(installed(join(dir, 'cache'))).toEqual([]);
    }
    expect(install(['--pins', join(dir, 'none.json'), join(dir, 'cache')]).stderr).toContain(
      `--pins: no file ${join(dir, 'none.json')}`,
    );
  });

  it('refuses bad arguments with status 2', () => {
    expect(install([]).status).toBe(2);
    expect(install(['--pins', '/tmp/x.json', '0.1.13', '/tmp/x']).status).toBe(2);
    expect(install(['--bogus', '0.1.13', '/tmp/x']).status).toBe(2);
    expect(install(['../0.1.13', join(tmpdir(), 'jsio-just-bad')]).stderr).toContain(
      'the version must look like 0.1.13',
    );
    expect(install(['--sources', '/tmp', '0.1.13', join(tmpdir(), 'jsio-just-bad')]).stderr).toContain(
      '--sources is for --system builds',
    );
  });
});

// ../shared/just holds upstream's two 0.1.13 source tarballs on the development machines and CI.
const SHARED = join(ROOT, '..', 'shared', 'just');
const haveShared = existsSync(join(SHARED, 'just-0.1.13.tar.gz')) && existsSync(join(SHARED, 'modules-0.1.13.tar.gz'));

describe.skipIf(!haveShared)("install-just --system (a real build against Debian's V8, from ../shared/just)", () => {
  // The Debian packages are kept between test runs (each is checked against apt's sha256 before use).
  const env = { JUST_DEB_CACHE: join(tmpdir(), 'jsio-just-debs') };

  it('builds a working runtime and static apps, stamps it, reuses it, and says where it is', () => {
    const root = mkdtempSync(join(tmpdir(), 'jsio-just-system-'));
    onTestFinished(() => rmSync(root, { recursive: true, force: true })); // a whole runtime build
    const prefix = join(root, 'cache');
    const home = join(prefix, 'just-0.1.13-system');
    const first = install(['--system', '--sources', SHARED, '0.1.13', prefix], env);
    expect(first.status, first.stderr.slice(-3000)).toBe(0);
    expect(first.stdout).toBe(`${home}\n`);
    expect(first.stderr).toContain(`export PATH=${home}:$PATH JUST_HOME=${home} JUST_TARGET=${home}`);
    expect(first.stderr).toMatch(
      /self-test ok: just 0\.1\.13 \(V8 10\.2\.[\d.]+-node\.\d+\) reads a pipe and builds a static app/,
    );
    expect(stamp(home)).toMatchObject({ version: '0.1.13', mode: 'system', sha256: sha256(join(home, 'just')) });

    const just = join(home, 'just');
    const version = spawnSync(just, ['eval', 'just.print(`${just.version.just} ${just.version.v8}`)'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 10_000,
    });
    expect(version.stdout).toMatch(/^0\.1\.13 10\.2\./);
    // libnode.so is linked dynamically, from inside the installation.
    expect(spawnSync('ldd', [just], { encoding: 'utf8' }).stdout).toContain(join(home, 'system-v8'));
    const count = spawnSync(
      'bash',
      ['-c', `head -c 3000000 /dev/zero | ${just} ${join(ROOT, 'programs', 'wc', 'wc-just-sync.js')} 65536`],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(count.stdout)).toMatchObject({ bytes: 3000000 });

    const built = statSync(just).mtimeMs;
    const again = install(['--system', '--sources', SHARED, '0.1.13', prefix], env);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(`${home}\n`);
    expect(again.stderr).not.toContain('make runtime');
    expect(statSync(just).mtimeMs).toBe(built);
  }, 900_000);

  it('fails clearly when a source tarball is missing, and installs nothing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'jsio-just-nosrc-'));
    const prefix = join(empty, 'cache');
    const r = install(['--system', '--sources', empty, '0.1.13', prefix], env);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`no ${empty}/just-0.1.13.tar.gz`);
    expect(installed(prefix)).toEqual([]);
  });
});

if (!haveShared) {
  describe('install-just --system', () => {
    it.skip(`needs upstream's source tarballs in ${SHARED} (just-0.1.13.tar.gz, modules-0.1.13.tar.gz), present on the development machines and CI only`, () => {});
  });
}
