// `npm run sandbox-cost` times a point's process with its sandbox against the same process
// without one, in pairs: both modes (the clock inside the sandbox, and bubblewrap's start timed)
// give each side's median and the ratio with its interval, and the load average is printed. Where
// bubblewrap cannot start, it refuses with the reason. No figure is asserted: they are the
// machine's.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';

const SELECT = ['--profile', 'smoke', '--experiments', 'wc', '--variants', 'c', '--param', 'bs=4096'];

interface Batch {
  mode: string;
  pairs: number;
  withoutMs: number;
  withMs: number;
  ratio: { median: number; low: number; high: number };
}

describe('sandbox-cost', () => {
  it('times the point with and without its sandbox in both modes, and says the load', () => {
    const r = runCli(['sandbox-cost', ...SELECT, '--pairs', '3', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { loadBefore: string; costs: { point: string; batches: Batch[] }[] };
    expect(out.loadBefore).toMatch(/^\d+\.\d\d \d+\.\d\d \d+\.\d\d$/);
    expect(out.costs.map((c) => c.point)).toEqual(['wc/c/bs=4096']);
    const batches = out.costs[0]!.batches;
    expect(batches.map((b) => [b.mode, b.pairs])).toEqual([
      ['gated', 3],
      ['whole', 3],
    ]);
    for (const b of batches) {
      expect(b.withMs).toBeGreaterThan(0);
      expect(b.withoutMs).toBeGreaterThan(0);
      expect(b.ratio.low).toBeLessThanOrEqual(b.ratio.median);
      expect(b.ratio.median).toBeLessThanOrEqual(b.ratio.high);
    }
  });

  it('prints a line per mode', () => {
    const r = runCli(['sandbox-cost', ...SELECT, '--pairs', '2']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^wc\/c\/bs=4096\n {2}clock inside the sandbox: 2 pairs, without [\d.]+ ms, with [\d.]+ ms/,
    );
    expect(r.stdout).toMatch(
      /\n {2}bubblewrap's start timed: 2 pairs, .* with\/without [\d.]+ \(95% [\d.]+–[\d.]+\)\n/,
    );
    expect(r.stdout).toMatch(/\nload average \(1, 5, 15 min\): [\d. ]+ before, [\d. ]+ after\n$/);
  });

  it('refuses where bubblewrap cannot start, with the reason', () => {
    const r = runCli(['sandbox-cost', ...SELECT, '--pairs', '2'], { JSIO_BWRAP: '/bin/false' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/no sandbox for .*: the sandbox \(\/bin\/false\) cannot start here/);
  });

  it('refuses a --pairs out of range, naming the flag', () => {
    const r = runCli(['sandbox-cost', ...SELECT, '--pairs', '1']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('--pairs');
  });
});
