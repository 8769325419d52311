// A tool that is too old or broken: the message names it, which benchmarks it affects, and how
// to install it. Real processes: fake tools earlier on PATH stand in for old or broken ones.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli } from '../helpers/cli.js';

function fakeBin(tools: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-fakebin-'));
  for (const [name, script] of Object.entries(tools)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${script}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

const bench = (bin: string, out: string, variants = 'ok') =>
  runCli(
    [
      'bench',
      '--profile',
      'smoke',
      '--programs',
      join(FIXTURES, 'faults'),
      '--variants',
      variants,
      '--out',
      out,
      '--no-store',
    ],
    { PATH: `${bin}:${process.env.PATH}`, JSIO_TOOL_DIRS: `${bin}:/usr/local/bin:/usr/bin:/bin` },
  );

describe('tools too old or broken', () => {
  it('refuses a hyperfine older than 1.15, saying how to install a newer one', () => {
    const r = bench(fakeBin({ hyperfine: 'echo "hyperfine 1.10.0"' }), mkdtempSync(join(tmpdir(), 'jsio-t-')));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('hyperfine 1.10.0 is too old; jsio-bench needs >= 1.15');
    expect(r.stderr).toContain('hint: apt-get install hyperfine');
  });

  it('reads max RSS with a random layout where setarch -R is refused (a container), saying so once', () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-t-'));
    const r = bench(
      fakeBin({ setarch: 'echo "setarch: failed to set personality to x86_64: Operation not permitted" >&2; exit 1' }),
      out,
    );
    expect(r.status).toBe(0);
    expect(r.stderr.match(/max RSS is read with a random address-space layout/g)).toHaveLength(1);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      run: { conditions: { rssLayout?: string } };
      benchmarks: { status: string; metrics: Record<string, { value: number }> }[];
    };
    expect(results.run.conditions.rssLayout).toBe('random');
    expect(results.benchmarks[0]?.status).toBe('ok');
    expect(results.benchmarks[0]?.metrics.max_rss?.value).toBeGreaterThan(0);
  });

  it('fails only the C variants when gcc is broken, with the compiler’s message', () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-t-'));
    const r = bench(
      fakeBin({ gcc: 'echo "gcc: fatal error: cannot execute cc1" >&2; exit 1' }),
      out,
      'ok,needs-missing-tool',
    );
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      benchmarks: { variant: string; status: string; reason: string }[];
    };
    expect(r.status).toBe(1);
    expect(results.benchmarks.find((b) => b.variant === 'ok')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('build failed: gcc failed:\ngcc: fatal error: cannot execute cc1'),
    });
    expect(results.benchmarks.find((b) => b.variant === 'needs-missing-tool')?.status).toBe('skipped');
  });

  it('keeps timing when strace is broken, and says what is missing', () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-t-'));
    const r = bench(
      fakeBin({ strace: 'echo "strace: ptrace(PTRACE_TRACEME): Operation not permitted" >&2; exit 1' }),
      out,
    );
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      benchmarks: { status: string; reason: string; metrics: Record<string, unknown> }[];
    };
    expect(r.status).toBe(0);
    expect(results.benchmarks[0]?.status).toBe('ok');
    expect(results.benchmarks[0]?.metrics.wall_time).toBeDefined();
    expect(results.benchmarks[0]?.reason).toMatch(
      /syscall counts unavailable: strace run exited with status 1: strace: ptrace/,
    );
  });
});
