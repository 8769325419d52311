// A pin bump is measured with each side's own pin: a head pinning another just(js) than the base
// runs its own installation (--head-just), the base its own, and comparison.json records each
// side's version. Both installations here are stand-ins that answer the version probe (a just(js)
// build takes minutes), so their points fail when run; what is checked is which one each side ran.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

/** A just(js) installation whose `just` says it is `version` and runs nothing. */
function standIn(version: string): string {
  const home = mkdtempSync(join(tmpdir(), `jsio-just-${version}-`));
  made.push(home);
  writeFileSync(
    join(home, 'just'),
    `#!/bin/sh\nif [ "$1" = eval ]; then echo '${version} (V8 10.6.0)'; exit 0; fi\necho "stand-in just ${version} ran" >&2\nexit 1\n`,
  );
  chmodSync(join(home, 'just'), 0o755);
  return home;
}

it("runs each side's own just(js) when the pins differ", { timeout: 300_000 }, () => {
  const base = programCheckout('pins-base');
  const head = programCheckout('pins-head');
  const out = mkdtempSync(join(tmpdir(), 'jsio-pairs-pins-'));
  made.push(base, head, out);
  const pins = join(head, 'harness', 'toolchains.json');
  writeFileSync(pins, readFileSync(pins, 'utf8').replace(/"just": "[^"]+"/, '"just": "0.1.14"'));
  const pinned = JSON.parse(readFileSync(join(base, 'harness', 'toolchains.json'), 'utf8')).just as string;
  const r = runPairs({ base, head, out, budget: '1', seed: 5 }, [
    '--base-just',
    standIn(pinned),
    '--head-just',
    standIn('0.1.14'),
    '--control',
    '0',
    '--noise-store',
    join(out, 'none'),
    '--profile',
    'smoke',
    '--experiments',
    'wc',
    '--variants',
    'just-sync',
    '--param',
    'bs=4096',
  ]);
  const comparison = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));
  expect(comparison.base.toolchains.just, r.stderr).toBe(`${pinned} (V8 10.6.0)`);
  expect(comparison.head.toolchains.just).toBe('0.1.14 (V8 10.6.0)');
  // Neither side's point is broken by its pin: each ran the installation its pin names.
  expect(JSON.stringify(comparison)).not.toContain('pinned');
  expect(r.stderr).not.toContain('pinned');
  // And each side's point ran its own installation.
  const reasons = Object.fromEntries(
    (comparison.notMeasured as { side: string; reason: string }[]).map((n) => [n.side, n.reason]),
  );
  expect(reasons.base).toContain(`stand-in just ${pinned} ran`);
  expect(reasons.head).toContain('stand-in just 0.1.14 ran');
});
