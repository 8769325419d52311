// `npm run install-just`, as the workflows run it, against a local stand-in for the upstream
// release tarball (GitHub is unreachable here): builds once into the cache directory, reuses
// it afterwards, and leaves nothing half-installed when the download fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

/** A tarball shaped like upstream's: just-<version>/Makefile whose runtime-static target builds ./just. */
function fakeRelease(dir: string, version: string): string {
  const src = join(dir, `just-${version}`);
  mkdirSync(src, { recursive: true });
  writeFileSync(
    join(src, 'Makefile'),
    `runtime-static:\n\tprintf '#!/bin/sh\\necho ${version}\\n' > just\n\tchmod +x just\n\techo built >> "$(BUILD_LOG)"\n`,
  );
  const tarball = join(dir, 'release.tar.gz');
  expect(spawnSync('tar', ['-czf', tarball, '-C', dir, `just-${version}`]).status).toBe(0);
  return tarball;
}

function install(version: string, prefix: string, env: NodeJS.ProcessEnv) {
  return spawnSync('npm', ['run', '--silent', 'install-just', '--', version, prefix], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
}

describe('install-just', () => {
  it('builds the release into PREFIX/just-VERSION once, then reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-just-'));
    const log = join(dir, 'build.log');
    const env = { JUST_ARCHIVE_URL: `file://${fakeRelease(dir, '0.1.13')}`, BUILD_LOG: log };
    const first = install('0.1.13', join(dir, 'cache'), env);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe(join(dir, 'cache', 'just-0.1.13'));
    expect(spawnSync(join(dir, 'cache', 'just-0.1.13', 'just'), { encoding: 'utf8' }).stdout).toBe('0.1.13\n');
    const again = install('0.1.13', join(dir, 'cache'), env);
    expect(again.stdout.trim()).toBe(join(dir, 'cache', 'just-0.1.13'));
    expect(readFileSync(log, 'utf8')).toBe('built\n');
  });

  it('fails on a download error and leaves no half-installed directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-just-'));
    const r = install('0.1.13', join(dir, 'cache'), { JUST_ARCHIVE_URL: `file://${join(dir, 'missing.tar.gz')}` });
    expect(r.status).not.toBe(0);
    expect(existsSync(join(dir, 'cache')) ? readdirSync(join(dir, 'cache')) : []).toEqual([]);
  });
});
