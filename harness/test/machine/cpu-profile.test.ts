// --profile-cpu saves a V8 .cpuprofile (a JSON document with nodes and samples) for a measured
// Node.js point, next to results.json, without changing what is measured.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CURRENT_NODE_MAJOR } from '../../src/machine/toolchains.js';
import { runCli } from '../helpers/cli.js';

it('--profile-cpu writes a .cpuprofile per measured Node.js point', () => {
  const out = mkdtempSync(join(tmpdir(), 'jsio-cpuprof-'));
  const cli = runCli([
    'bench',
    '--profile',
    'smoke',
    '--experiments',
    'streams',
    '--variants',
    'core-transform',
    '--param',
    `runtime=node${CURRENT_NODE_MAJOR}`,
    '--param',
    'n=0',
    '--param',
    'mode=sync',
    '--no-store',
    '--out',
    out,
    '--profile-cpu',
  ]);
  expect(cli.status, cli.stderr).toBe(0);
  const dir = join(out, 'cpuprofiles', 'streams', 'core-transform', `mode=sync,n=0,runtime=node${CURRENT_NODE_MAJOR}`);
  expect(existsSync(dir)).toBe(true);
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  expect(files).toHaveLength(1);
  const profile = JSON.parse(readFileSync(join(dir, files[0] ?? ''), 'utf8')) as {
    nodes: unknown[];
    samples: unknown[];
  };
  expect(profile.nodes.length).toBeGreaterThan(0);
  expect(Array.isArray(profile.samples)).toBe(true);
});
