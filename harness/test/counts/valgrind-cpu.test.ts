// The CPU as a counted program sees it: a cpuid probe run under the real Valgrind, whose answer
// (Valgrind's emulated CPU, not the host's) goes into every count's key, read once and cached.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { valgrindCpu } from '../../src/counts/valgrind-cpu.js';
import { probe } from '../../src/lib/exec.js';

const version = probe(['valgrind', '--version']);

describe.skipIf(!version)('valgrindCpu', () => {
  it('reads the vendor and feature words Valgrind presents, and caches them', () => {
    const cache = mkdtempSync(join(tmpdir(), 'jsio-vgcpu-'));
    const line = valgrindCpu('valgrind', version!, cache)!;
    expect(line).toMatch(/^(GenuineIntel|AuthenticAMD)( [0-9a-f]{8}){3,6}$/);
    const cached = readdirSync(join(cache, 'valgrind-cpu')).find((f) => f.endsWith('.txt'))!;
    // A second call answers from the cache: a planted answer is what it returns.
    writeFileSync(join(cache, 'valgrind-cpu', cached), 'GenuineIntel 00000001 00000002 00000003\n');
    expect(valgrindCpu('valgrind', version!, cache)).toBe('GenuineIntel 00000001 00000002 00000003');
  });

  it('is undefined when the probe cannot run under it', () => {
    expect(valgrindCpu('/nonexistent/valgrind', version!, mkdtempSync(join(tmpdir(), 'jsio-vgcpu-')))).toBeUndefined();
  });
});
