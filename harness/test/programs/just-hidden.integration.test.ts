// The path of a machine without just(js), taken on any machine: the harness is run with just(js)
// hidden (JUST_HOME unset: it never looks on PATH), whether or not this machine has it. Its variants
// are then skipped with the install hint, the rest of the run goes on, and `--require just`
// refuses to run at all.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseResults } from '../../src/formats/read-results.js';
import type { Results } from '../../src/formats/results-format.js';
import { type CliResult, runCli } from '../helpers/cli.js';
import { envWithoutJust, justInstalled, justVariants } from '../helpers/just.js';

describe('just(js) hidden from the harness', () => {
  const env = envWithoutJust();
  const variants = justVariants();
  const args = [
    'bench',
    '--profile',
    'smoke',
    '--experiments',
    [...variants.keys()].join(','),
    '--variants',
    [...new Set([...variants.values()].flat()), 'c'].join(','),
  ];
  let cli: CliResult;
  let results: Results;

  beforeAll(() => {
    expect(justInstalled(env)).toBeUndefined();
    const out = mkdtempSync(join(tmpdir(), 'jsio-just-hidden-'));
    cli = runCli(
      [...args, '--param', 'bs=65536', '--param', 'record=16', '--param', 'files=10', '--no-store', '--out', out],
      env,
    );
    results = parseResults('results.json', readFileSync(join(out, 'results.json'), 'utf8'));
  });

  it('skips every just(js) point with the reason and the install hint, and says so in the summary', () => {
    const skipped = results.benchmarks.filter((b) => [...variants.values()].flat().includes(b.variant));
    expect(new Set(skipped.map((b) => `${b.experiment}/${b.variant}`))).toEqual(
      new Set([...variants].flatMap(([e, ids]) => ids.map((v) => `${e}/${v}`))),
    );
    for (const b of skipped) {
      expect(b, b.id).toMatchObject({
        status: 'skipped',
        reason: 'just(js) is not installed (no `just` in $JUST_HOME or in a root-owned system folder)',
        hint: expect.stringMatching(/^install just\(js\) 0\.1\.13 from its upstream release .*docs\/runners\.md$/),
      });
      expect(b.metrics, b.id).toEqual({});
    }
    expect(results.run.toolchains.just).toBeUndefined();
  });

  it('runs everything else, and exits 0: a skip is not a failure', () => {
    expect(cli.status, cli.stderr.slice(-2000)).toBe(0);
    const others = results.benchmarks.filter((b) => b.variant === 'c');
    expect(others.length).toBeGreaterThan(0);
    for (const b of others) expect(b.status, b.id).toBe('ok');
  });

  it('refuses to run with --require just (status 2, nothing measured)', () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-just-required-'));
    const r = runCli([...args, '--require', 'just', '--no-store', '--out', out], env);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('required runtime just is unavailable: just(js) is not installed');
    expect(r.stderr).toMatch(/install just\(js\) 0\.1\.13/);
  });
});
