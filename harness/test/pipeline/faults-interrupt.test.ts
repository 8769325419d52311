// SIGINT/SIGTERM during a run: children are stopped, what was measured is written and marked
// partial, and the store is left untouched.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseResults } from '../../src/formats/read-results.js';
import { FIXTURES, startCli } from '../helpers/cli.js';

async function interruptDuringHang(signal: NodeJS.Signals) {
  const out = mkdtempSync(join(tmpdir(), 'jsio-int-'));
  const store = join(out, 'store');
  // hang blocks for its 3 s timeout: interrupt while it hangs.
  const child = startCli([
    'bench',
    '--profile',
    'smoke',
    '--programs',
    join(FIXTURES, 'faults'),
    '--variants',
    'ok,hang,exit',
    '--out',
    out,
    '--store',
    store,
  ]);
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => {
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (stderr.includes('faults › hang')) setTimeout(() => child.kill(signal), 300);
    });
    child.on('close', resolve);
  });
  return { out, store, code, stderr, stdout };
}

describe.each(['SIGINT', 'SIGTERM'] as const)('%s during a run', (signal) => {
  it('writes a partial run with what was measured and leaves the store alone', async () => {
    const { out, store, code, stderr, stdout } = await interruptDuringHang(signal);
    expect(code).toBe(130);
    expect(stderr).toContain(`${signal} received`);
    const results = parseResults('results.json', readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.run.partial).toBe(true);
    // Manifest order is ok, exit, hang: the hung point in flight has no honest result and is left out.
    expect(results.benchmarks.map((b) => `${b.variant}:${b.status}`)).toEqual(['ok:ok', 'exit:failed']);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('PARTIAL run (interrupted)');
    expect(existsSync(join(store, 'machines.json'))).toBe(false);
    // The end of the run says how much of the plan was not run (the hung point).
    expect(stdout).toContain(
      'total:    2 benchmarks in 1 experiment(s): 1 ok, 0 skipped, 1 failed; 1 of 3 planned not run (interrupted)',
    );
  });
});
