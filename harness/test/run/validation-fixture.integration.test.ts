// A real smoke run (gcc, hyperfine, GNU time, strace) of a fixture experiment modelled on wc:
// a correct C counter, one that miscounts, one that exits non-zero, system wc and dd. The
// correct ones pass validation; the wrong ones fail with their reasons; every other result is
// still written to results.json, summary.md, gab/*.json and the local history.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseResults } from '../../src/formats/read-results.js';
import type { Results } from '../../src/formats/results-format.js';
import { type CliResult, FIXTURES, runCli } from '../helpers/cli.js';

describe('a run with a miscounting and a crashing program', () => {
  let dir: string;
  let cli: CliResult;
  let results: Results;
  const at = (variant: string, bs: number) =>
    results.benchmarks.find((b) => b.variant === variant && b.params.bs === bs);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'jsio-tally-'));
    cli = runCli([
      'bench',
      '--profile',
      'smoke',
      '--programs',
      join(FIXTURES, 'programs'),
      '--out',
      join(dir, 'out'),
      '--store',
      join(dir, 'store'),
    ]);
    results = parseResults('results.json', readFileSync(join(dir, 'out', 'results.json'), 'utf8'));
  });

  it('exits 1 naming how many benchmarks failed', () => {
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain('4 benchmark(s) failed');
  });

  it('keeps every point: 5 variants x 2 block sizes', () => {
    expect(results.run.partial).toBe(false);
    expect(results.benchmarks.map((b) => `${b.id} ${b.status}`).sort()).toEqual(
      [
        'tally/c/bs=4096 ok',
        'tally/c/bs=65536 ok',
        'tally/crash/bs=4096 failed',
        'tally/crash/bs=65536 failed',
        'tally/dd-null/bs=4096 ok',
        'tally/dd-null/bs=65536 ok',
        'tally/miscount/bs=4096 failed',
        'tally/miscount/bs=65536 failed',
        'tally/system-wc/bs=4096 ok',
        'tally/system-wc/bs=65536 ok',
      ].sort(),
    );
  });

  it('validates the correct C counter against the bytes sent, and times it', () => {
    for (const bs of [4096, 65536]) {
      const c = at('c', bs)!;
      expect(c.validation?.ok).toBe(true);
      expect(c.validation?.checks.map((k) => [k.field, k.seen, k.expected, k.skipped ?? null])).toEqual([
        ['bytes', c.derived.bytes, c.derived.bytes, null],
        ['reads', c.derived.min_reads, c.derived.min_reads, null],
      ]);
      expect(c.metrics.wall_time?.samples).toHaveLength(2);
      expect(c.metrics.reads?.value).toBe(c.derived.min_reads);
      expect(c.metrics['syscalls.read']?.value).toBeGreaterThan(c.derived.min_reads!);
      expect(c.metrics.max_rss?.value).toBeGreaterThan(0);
    }
    // 100 reads of 4 KiB; 16 reads of 64 KiB (1 MiB cap)
    expect(at('c', 4096)?.derived).toEqual({ count: 100, bytes: 409600, min_reads: 100 });
    expect(at('c', 65536)?.derived).toEqual({ count: 16, bytes: 1048576, min_reads: 16 });
  });

  it('validates wc -c by its number and dd by nothing, saying which checks do not apply', () => {
    const wc = at('system-wc', 65536)!;
    expect(wc.validation?.checks.map((k) => [k.field, k.seen, k.skipped ?? null])).toEqual([
      ['bytes', 1048576, null],
      ['reads', null, 'system-wc does not report reads'],
    ]);
    const dd = at('dd-null', 65536)!;
    expect(dd.validation?.checks.every((k) => k.skipped === `dd-null does not report ${k.field}`)).toBe(true);
    expect(dd.metrics.throughput?.unit).toBe('MB/s');
  });

  it('fails the miscounting program with the field, expected and seen values, and gives it no number', () => {
    expect(at('miscount', 65536)).toMatchObject({
      status: 'failed',
      reason: 'wrong result: bytes = 1048560, expected 1048576',
      metrics: {},
    });
    expect(at('miscount', 4096)?.reason).toBe('wrong result: bytes = 409500, expected 409600');
    expect(at('miscount', 4096)?.validation?.checks[0]).toMatchObject({
      field: 'bytes',
      op: 'equals',
      expected: 409600,
      seen: 409500,
      ok: false,
    });
  });

  it('fails the crashing program with its exit status and its message', () => {
    expect(at('crash', 65536)).toMatchObject({
      status: 'failed',
      reason: 'exited with status 7: tally-crash: out of cheese',
      metrics: {},
    });
  });

  it('lists both failures in the summary and keeps the table of the others', () => {
    const summary = readFileSync(join(dir, 'out', 'summary.md'), 'utf8');
    expect(summary).toContain('10 benchmarks: 6 ok, 0 skipped, 4 failed.');
    expect(summary).toContain('- **failed** tally/miscount/bs=65536: wrong result: bytes = 1048560, expected 1048576');
    expect(summary).toContain('- **failed** crash (2 points): exited with status 7: tally-crash: out of cheese');
    expect(summary).toMatch(/^\| dd-null \| .* \| 1\.00x \|$/m);
    expect(summary).not.toMatch(/^\| (miscount|crash) /m);
  });

  it('writes github-action-benchmark inputs for the successful headline points only', () => {
    const read = (f: string) =>
      JSON.parse(readFileSync(join(dir, 'out', 'gab', f), 'utf8')) as { name: string; unit: string; value: number }[];
    expect(read('customBiggerIsBetter.json').map((e) => e.name)).toEqual([
      'tally/c/bs=65536 throughput',
      'tally/system-wc/bs=65536 throughput',
      'tally/dd-null/bs=65536 throughput',
    ]);
    const smaller = read('customSmallerIsBetter.json');
    expect(smaller.map((e) => e.name)).toEqual([
      'tally/c/bs=65536 max_rss',
      'tally/system-wc/bs=65536 max_rss',
      'tally/dd-null/bs=65536 max_rss',
    ]);
    expect(smaller.every((e) => e.unit === 'B' && e.value > 0)).toBe(true);
  });

  it('appends the run to the local history, with the failures left out of the trend lines', () => {
    const machineDir = join(dir, 'store', results.run.machine.id);
    const index = JSON.parse(readFileSync(join(machineDir, 'index.json'), 'utf8')) as { commits: { sha: string }[] };
    expect(index.commits.map((c) => c.sha)).toEqual([results.run.commit.sha]);
    const profile = results.run.profile;
    expect(existsSync(join(machineDir, 'runs', results.run.commit.sha, `${profile}.json`))).toBe(true);
    // Store v3: one metric of one experiment per shard, series keyed by benchmark, workload and unit.
    const shard = JSON.parse(
      readFileSync(join(machineDir, 'trends', profile, '0000', 'tally', 'wall_time.json'), 'utf8'),
    ) as { series: Record<string, { id: string }> };
    expect(
      Object.values(shard.series)
        .map((x) => x.id)
        .sort(),
    ).toEqual([
      'tally/c/bs=4096',
      'tally/c/bs=65536',
      'tally/dd-null/bs=4096',
      'tally/dd-null/bs=65536',
      'tally/system-wc/bs=4096',
      'tally/system-wc/bs=65536',
    ]);
  });
});
