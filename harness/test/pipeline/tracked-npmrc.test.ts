// A checkout whose committed root .npmrc sets a key off the allow-list (script-shell put a folder
// of the checkout first on every npm script's PATH, where a fake dd re-chunked wc's input) is
// refused before anything runs, in one line naming .npmrc and the key; quieting keys pass.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSync } from '../../src/lib/exec.js';
import { disallowedNpmKeys } from '../../src/machine/sandbox/npm-config.js';
import { bench } from '../../src/pipeline/bench.js';
import { FIXTURES, ROOT } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const scratch = mkdtempSync(join(tmpdir(), 'jsio-tracked-npmrc-'));
afterAll(() => removeScratch(scratch));

/** A git checkout with the tally experiment, the pins, and `npmrc` committed as its root .npmrc. */
function checkout(name: string, npmrc: string): string {
  const root = join(scratch, name);
  cpSync(join(FIXTURES, 'programs', 'tally'), join(root, 'programs', 'tally'), { recursive: true });
  mkdirSync(join(root, 'harness'));
  cpSync(join(ROOT, 'harness', 'toolchains.json'), join(root, 'harness', 'toolchains.json'));
  mkdirSync(join(root, 'fake'));
  writeFileSync(join(root, 'fake', 'dd'), '#!/bin/sh\ntouch planted-dd-ran\nexec /bin/dd "$@"\n', { mode: 0o755 });
  writeFileSync(join(root, '.npmrc'), npmrc);
  const git = (...args: string[]) => expect(runSync(['git', '-C', root, ...args]).code).toBe(0);
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'c');
  return root;
}

describe("a checkout's .npmrc", () => {
  it('lists the keys off the allow-list, comments and quieting keys aside', () => {
    expect(disallowedNpmKeys('# a comment\nfund=false\naudit = false\n\n; another\n')).toEqual([]);
    expect(disallowedNpmKeys('fund=false\nscript-shell=./fake/sh\nregistry=https://example.invalid/\n')).toEqual([
      'script-shell',
      'registry',
    ]);
  });

  it('makes bench refuse in one line naming .npmrc and script-shell, before anything runs', async () => {
    const root = checkout('script-shell', 'script-shell=./fake/sh\n');
    const run = bench({
      root,
      outDir: join(scratch, 'out'),
      profile: 'smoke',
      filters: {},
      require: [],
      counts: 'none',
      log: () => {},
    });
    await expect(run).rejects.toThrow(/: \.npmrc sets "script-shell", which would configure the npm runs/);
  });
});
