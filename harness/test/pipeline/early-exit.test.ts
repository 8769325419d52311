// A program that answers and exits before its generator has written everything: the generator
// dies of SIGPIPE (the pipeline exits 141), and the benchmark must fail with the program's wrong
// answer and the early exit, never with "killed by signal 13".
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../src/formats/results-format.js';
import { FIXTURES, runCli } from '../helpers/cli.js';

describe('a program that exits before its input ends', () => {
  let results: Results;
  let status: number | null;
  beforeAll(() => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-early-'));
    const r = runCli([
      'bench',
      '--profile',
      'smoke',
      '--programs',
      join(FIXTURES, 'early-exit'),
      '--no-store',
      '--out',
      out,
    ]);
    status = r.status;
    results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
  });
  const reason = (variant: string) => results.benchmarks.find((b) => b.variant === variant)?.reason ?? '';

  it('fails only the programs that stopped early (exit 1: some benchmarks failed)', () => {
    expect(status).toBe(1);
    expect(results.benchmarks.find((b) => b.variant === 'c')?.status).toBe('ok');
  });

  it('gives the answer and the early exit as the reason, not the generator’s signal', () => {
    expect(reason('reads-nothing')).toBe(
      'wrong result: bytes = 0, expected 4194304; reads = 0, expected at least 64; the program exited before its input ended (its input generator was killed by SIGPIPE)',
    );
    expect(reason('one-block')).toMatch(
      /^wrong result: bytes = 65536, expected 4194304; .*the program exited before its input ended/,
    );
    for (const v of ['reads-nothing', 'one-block']) expect(reason(v)).not.toMatch(/signal 13|exit 141/);
  });
});
