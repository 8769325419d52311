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

/**
 * A tarball shaped like upstream's: just-<version>/Makefile compiling for -march=native, whose
 * `modules` target downloads (writes) a module with its own Makefile, and whose runtime-static
 * target builds ./just and writes down the flags both Makefiles compiled with.
 */
function fakeRelease(dir: string, version: string, says = version): string {
  const src = join(dir, `just-${version}`);
  mkdirSync(src, { recursive: true });
  // printf's \\044 is the `$` of the module's own $(FLAGS) (the shell would expand a bare one).
  const module = "FLAGS=-O3 -march=native -mtune=native\\nflags:\\n\\t@echo '\\044(FLAGS)'\\n";
  writeFileSync(
    join(src, 'Makefile'),
    [
      'FLAGS=-g -O3 -march=native -mtune=native',
      'modules:',
      `\tmkdir -p modules/net && printf "${module}" > modules/net/Makefile`,
      'deps/v8/libv8_monolith.a:',
      '\tmkdir -p deps/v8 && touch deps/v8/libv8_monolith.a',
      'runtime-static:',
      `\tprintf '#!/bin/sh\\necho ${says}\\n' > just`,
      '\tchmod +x just',
      "\techo '$(FLAGS)' > flags-used && $(MAKE) -s -C modules/net flags >> flags-used",
      '\techo built >> "$(BUILD_LOG)"',
      '',
    ].join('\n'),
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
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
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
      flags: '-march=x86-64-v2 -mtune=generic',
      sha256: sha256(join(home, 'just')),
      files: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const again = install(['0.1.13', prefix], env);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(`${home}\n`);
    expect(builds()).toBe(1);
  });

  it('compiles the runtime and its modules for x86-64-v2, not -march=native (Valgrind must decode it), and says so', () => {
    const { env, prefix, home } = setup();
    const r = install(['0.1.13', prefix], { ...env, JUST_ARCH: 'x86_64' });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(home, 'flags-used'), 'utf8')).toBe(
      '-g -O3 -march=x86-64-v2 -mtune=generic\n-O3 -march=x86-64-v2 -mtune=generic\n',
    );
    // `just build` compiles apps later from the installed Makefile: it says the same.
    expect(readFileSync(join(home, 'Makefile'), 'utf8')).not.toMatch(/-m(arch|tune)=native/);
    expect(readFileSync(join(home, '.install-just.flags'), 'utf8')).toBe('-march=x86-64-v2 -mtune=generic\n');
    expect(r.stderr).toContain('compiling for -march=x86-64-v2 -mtune=generic (not -march=native');
    // Elsewhere the compiler's default target, which is portable too.
    const arm = setup();
    const a = install(['0.1.13', arm.prefix], { ...arm.env, JUST_ARCH: 'aarch64' });
    expect(a.status, a.stderr).toBe(0);
    expect(readFileSync(join(arm.home, 'flags-used'), 'utf8')).toBe('-g -O3 \n-O3 \n');
    expect(stamp(arm.home).flags).toBe('');
  });

  it('rebuilds an installation stamped with other flags (one built for -march=native before)', () => {
    const { env, prefix, home, builds } = setup();
    expect(install(['0.1.13', prefix], env).status).toBe(0);
    const file = join(home, '.install-just.stamp');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^flags=.*$/m, 'flags=-march=native'));
    const r = install(['0.1.13', prefix], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/does not match its stamp/);
    expect(builds()).toBe(2);
  });

  it('refuses a release whose Makefiles name -march=native in a way it cannot rewrite, installing nothing', () => {
    const { dir, prefix } = setup();
    const src = join(dir, 'odd', 'just-0.1.13');
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, 'Makefile'), 'FLAGS=-mtune=native -march=native\nmodules:\ndeps/v8/libv8_monolith.a:\n');
    const tarball = join(dir, 'odd.tar.gz');
    expect(spawnSync('tar', ['-czf', tarball, '-C', join(dir, 'odd'), 'just-0.1.13']).status).toBe(0);
    const r = install(['0.1.13', prefix], { JUST_ARCHIVE_URL: `file://${tarball}`, JUST_ARCH: 'x86_64' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('-march=native is still set in the Makefiles above');
    expect(installed(prefix)).toEqual([]);
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
    expect(stamp(home)).toMatchObject({
      version: '0.1.13',
      mode: 'system',
      flags: '-march=x86-64-v2 -mtune=generic',
      sha256: sha256(join(home, 'just')),
    });

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
    // Compiled for x86-64-v2: Valgrind decodes it on any x86-64 CPU (a -march=native build dies with
    // SIGILL under it on an AVX-512 machine), so its work can be counted.
    const valgrind = spawnSync('valgrind', ['--tool=none', '--quiet', just, 'eval', 'just.print(6 * 7)'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    if (valgrind.error === undefined) {
      expect(valgrind.status, valgrind.stderr).toBe(0);
      expect(valgrind.stdout.trim()).toBe('42');
    }

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
