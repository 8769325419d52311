// The paired diff refuses a head that tracks a file where the harness keeps what it makes (here a
// generated input force-added under .cache/inputs/), in one line naming it, before measuring.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runSync } from '../../../src/lib/exec.js';
import { runPairs } from '../../helpers/cli.js';
import { programCheckout } from '../../helpers/program-checkout.js';
import { removeScratch } from '../../helpers/scratch.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) removeScratch(d);
});

it('refuses a side that tracks a file in .cache/, naming it', { timeout: 300_000 }, () => {
  const base = programCheckout('tracked-base');
  const head = programCheckout('tracked-head');
  const out = mkdtempSync(join(tmpdir(), 'jsio-pairs-tracked-'));
  made.push(base, head, out);
  const planted = '.cache/inputs/wc/planted/input.bin';
  writeFileSync(join(head, '.gitignore'), '.cache/\nresults/\nnode_modules/\n');
  mkdirSync(join(head, '.cache', 'inputs', 'wc', 'planted'), { recursive: true });
  writeFileSync(join(head, planted), 'a short input the harness did not generate');
  for (const args of [
    ['init', '-q'],
    ['add', '.'],
    ['add', '-f', planted],
    ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'c'],
  ])
    expect(runSync(['git', '-C', head, ...args]).code).toBe(0);
  const r = runPairs({ base, head, out, budget: '1', seed: 3 }, [
    '--profile',
    'smoke',
    '--experiments',
    'wc',
    '--variants',
    'c',
    '--param',
    'bs=4096',
    '--noise-store',
    join(out, 'none'),
    // Nothing else differs: a control asked for is what prepares the sides.
    '--control',
    '1',
  ]);
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).toContain(`${planted} is tracked, in .cache/ where the harness keeps only what it makes`);
  expect(existsSync(join(out, 'comparison.json'))).toBe(false);
});
