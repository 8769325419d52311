// The machine's cold-read latency (machine/cold-read.ts): the tool's line parsed strictly, and the
// real tool, built with gcc, evicting and timing reads on this machine's disk.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureColdRead, parseColdRead } from '../../src/machine/cold-read.js';
import { ROOT } from '../helpers/cli.js';

describe('parseColdRead', () => {
  it('reads the last JSON line into microseconds', () => {
    expect(parseColdRead('{"reads":128,"block_bytes":4096,"median_us":28.5,"p90_us":61.02}\n')).toEqual({
      medianMicros: 28.5,
      p90Micros: 61.02,
      reads: 128,
      blockBytes: 4096,
    });
  });
  it('refuses anything else', () => {
    expect(parseColdRead('')).toBeUndefined();
    expect(parseColdRead('{"reads":0,"block_bytes":4096,"median_us":1,"p90_us":2}')).toBeUndefined();
    expect(parseColdRead('{"median_us":"fast"}')).toBeUndefined();
  });
});

describe('measureColdRead on this machine', () => {
  it('builds the tool, evicts its file, and times every read', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'jsio-cold-read-'));
    const log: string[] = [];
    const r = await measureColdRead('gcc', ROOT, cache, (s) => log.push(s));
    expect(log).toEqual([]);
    expect(r?.reads).toBe(128);
    expect(r?.blockBytes).toBe(4096);
    expect(r!.p90Micros).toBeGreaterThanOrEqual(r!.medianMicros);
    expect(r!.medianMicros).toBeGreaterThan(0);
    // Built once per source and compiler: tools/cold-read-<digest>.
    expect(readdirSync(join(cache, 'tools')).filter((f) => /^cold-read-[0-9a-f]+$/.test(f))).toHaveLength(1);
    expect(statSync(join(cache, 'cold-read', 'cold-read.bin')).size).toBe(4096 * 2048);
  });
});
