// The paired diff measures each side in its sandbox or not at all: where bubblewrap cannot start,
// it refuses with the reason and writes no comparison.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runPairs } from '../../helpers/cli.js';
import { programCheckout } from '../../helpers/program-checkout.js';
import { removeScratch } from '../../helpers/scratch.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) removeScratch(d);
});

it('refuses the diff with the reason where the sandbox cannot start', { timeout: 300_000 }, () => {
  const base = programCheckout('nosandbox-base');
  const head = programCheckout('nosandbox-head');
  const out = mkdtempSync(join(tmpdir(), 'jsio-pairs-nosandbox-'));
  made.push(base, head, out);
  const r = runPairs(
    { base, head, out, budget: '1', seed: 3 },
    [
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
      // The same programs on both sides: a control asked for is what starts a sandbox.
      '--control',
      '1',
    ],
    { JSIO_BWRAP: '/bin/false' },
  );
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/no sandbox for \S+: the sandbox \(\/bin\/false\) cannot start here/);
  expect(r.stderr).toMatch(/apt-get install bubblewrap/);
  expect(existsSync(join(out, 'comparison.json'))).toBe(false);
});
