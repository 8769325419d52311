// A measured program that crashes, exits non-zero, hangs, prints garbage or a wrong answer
// fails its own benchmark with a clear reason; every other result is still written.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseResults } from '../../src/formats/read-results.js';
import type { Results } from '../../src/formats/results-format.js';
import { type CliResult, FIXTURES, runCli } from '../helpers/cli.js';

describe('faults in measured programs', () => {
  let out: string;
  let cli: CliResult;
  let results: Results;
  const reason = (variant: string) => results.benchmarks.find((b) => b.variant === variant);

  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'jsio-faults-'));
    cli = runCli(['bench', '--profile', 'smoke', '--programs', join(FIXTURES, 'faults'), '--out', out, '--no-store']);
    results = parseResults('results.json', readFileSync(join(out, 'results.json'), 'utf8'));
  });

  it('exits 1 and says how many failed', () => {
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain('5 benchmark(s) failed');
  });

  it('keeps the correct program measured', () => {
    const ok = reason('ok');
    expect(ok?.status).toBe('ok');
    expect(ok?.metrics.wall_time?.samples).toHaveLength(2);
  });

  it('reports a crash by its signal', () => {
    expect(reason('crash')).toMatchObject({ status: 'failed', reason: expect.stringMatching(/signal 11/) });
  });

  it('reports a non-zero exit with the program’s message', () => {
    expect(reason('exit')?.reason).toMatch(/exited with status 3: faults: giving up on purpose/);
  });

  it('kills a hung program with its process group and reports a timeout', () => {
    expect(reason('hang')?.reason).toMatch(/timed out after 3 s \(killed with its process group\)/);
    // The program forked a child that ignores its parent's death: neither may survive.
    const left = spawnSync('pgrep', ['-f', 'build/faults/hang/hang hang'], { encoding: 'utf8' });
    expect(left.stdout.trim()).toBe('');
  });

  it('rejects a garbled result line, quoting it', () => {
    expect(reason('garbled')?.reason).toContain('garbled result line (not JSON): "bytes: 1048576, reads: 16"');
  });

  it('rejects a wrong answer with expected and seen values, and gives it no number', () => {
    const wrong = reason('wrong');
    expect(wrong?.reason).toBe('wrong result: bytes = 1048575, expected 1048576');
    expect(wrong?.metrics).toEqual({});
  });

  it('skips a variant whose tool is missing, naming what to install', () => {
    expect(reason('needs-missing-tool')).toMatchObject({
      status: 'skipped',
      reason: 'jsio-no-such-tool is not installed (in a root-owned system folder)',
    });
  });

  it('still writes the summary and the github-action-benchmark inputs', () => {
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary).toContain('**failed** faults/hang/bs=65536');
    const bigger = JSON.parse(readFileSync(join(out, 'gab', 'customBiggerIsBetter.json'), 'utf8')) as {
      name: string;
    }[];
    expect(bigger.map((e) => e.name)).toEqual(['faults/ok/bs=65536 throughput']);
  });
});
