// A checkout that tracks a file where the harness keeps what it makes (a generated input
// force-added under .cache/, a results file, a package under node_modules/) is refused before
// anything runs, in one line naming the file; an untracked cache is the harness's own.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/lib/errors.js';
import { runSync } from '../../src/lib/exec.js';
import { trackedInHarnessFolders } from '../../src/machine/sandbox/tracked.js';
import { bench } from '../../src/pipeline/bench.js';
import { FIXTURES, ROOT } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const scratch = mkdtempSync(join(tmpdir(), 'jsio-tracked-cache-'));
afterAll(() => removeScratch(scratch));

/** A git checkout with the tally experiment and the pins, `planted` force-added (ignored or not). */
function checkout(name: string, planted?: string): string {
  const root = join(scratch, name);
  cpSync(join(FIXTURES, 'programs', 'tally'), join(root, 'programs', 'tally'), { recursive: true });
  mkdirSync(join(root, 'harness'));
  cpSync(join(ROOT, 'harness', 'toolchains.json'), join(root, 'harness', 'toolchains.json'));
  writeFileSync(join(root, '.gitignore'), '.cache/\nresults/\nnode_modules/\n');
  const git = (...args: string[]) => expect(runSync(['git', '-C', root, ...args]).code).toBe(0);
  git('init', '-q');
  git('add', '.');
  if (planted) {
    mkdirSync(join(root, planted, '..'), { recursive: true });
    writeFileSync(join(root, planted), 'a small input the harness did not generate');
    git('add', '-f', planted);
  }
  git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'c');
  return root;
}

describe('a tracked file in the harness folders', () => {
  it('is listed for each folder the harness keeps, and a checkout without any lists none', () => {
    expect(trackedInHarnessFolders(checkout('clean'))).toEqual([]);
    for (const f of [
      '.cache/inputs/tally/x/input.bin',
      'results/latest/results.json',
      'node_modules/through2/index.js',
    ])
      expect(trackedInHarnessFolders(checkout(f.replace(/\W/g, '-'), f))).toEqual([f]);
    expect(trackedInHarnessFolders(scratch)).toEqual([]);
  });

  it('makes bench refuse in one line naming it, before anything is measured', async () => {
    const root = checkout('bench', '.cache/inputs/tally/x/input.bin');
    const run = bench({
      root,
      outDir: join(scratch, 'out'),
      profile: 'smoke',
      filters: {},
      require: [],
      counts: 'none',
      log: () => {},
    });
    await expect(run).rejects.toThrow(UserError);
    await expect(run).rejects.toThrow(
      /^\S+\/bench: \.cache\/inputs\/tally\/x\/input\.bin is tracked, in \.cache\/ where the harness keeps only what it makes$/,
    );
  });
});
