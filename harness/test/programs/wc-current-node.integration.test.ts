// The real wc programs in C and Node on this machine's own node (no runtime downloads): a smoke
// sweep with real gcc, hyperfine, GNU time and strace, where every answer validates.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseResults } from '../../src/formats/read-results.js';
import type { Results } from '../../src/formats/results-format.js';
import { CURRENT_NODE_MAJOR } from '../../src/machine/toolchains.js';
import { type CliResult, runCli } from '../helpers/cli.js';

describe('wc smoke run of c, node-stream and node-pipe on the running node', () => {
  let cli: CliResult;
  let results: Results;

  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-wc-node-'));
    cli = runCli([
      'bench',
      '--profile',
      'smoke',
      '--experiments',
      'wc',
      '--variants',
      'c,node-stream,node-pipe',
      '--param',
      `runtime=node${CURRENT_NODE_MAJOR}`,
      // Timed runs only: counted work has tests of its own.
      '--counts',
      'none',
      '--out',
      dir,
      '--no-store',
    ]);
    results = parseResults('results.json', readFileSync(join(dir, 'results.json'), 'utf8'));
  });

  it('succeeds without installing any runtime', () => {
    expect(cli.status).toBe(0);
    expect(cli.stderr).not.toMatch(/installing /);
    expect(results.run.toolchains.node).toBe(process.versions.node);
  });

  it('measures exactly the chosen variants at both smoke block sizes, node ones on this node', () => {
    expect(results.benchmarks.map((b) => b.id)).toEqual([
      'wc/c/bs=4096',
      'wc/c/bs=65536',
      `wc/node-stream/bs=4096,runtime=node${CURRENT_NODE_MAJOR}`,
      `wc/node-stream/bs=65536,runtime=node${CURRENT_NODE_MAJOR}`,
      `wc/node-pipe/bs=4096,runtime=node${CURRENT_NODE_MAJOR}`,
      `wc/node-pipe/bs=65536,runtime=node${CURRENT_NODE_MAJOR}`,
    ]);
  });

  it('validates every count against the bytes sent', () => {
    for (const b of results.benchmarks) {
      expect(b.status, `${b.id}: ${b.reason}`).toBe('ok');
      expect(b.validation?.ok, b.id).toBe(true);
      const bytes = b.validation?.checks.find((c) => c.field === 'bytes');
      expect(bytes?.skipped, b.id).toBeUndefined();
      expect(bytes?.seen, b.id).toBe(b.derived.bytes);
      expect(b.metrics.reads?.value, b.id).toBeGreaterThan(0);
    }
  });

  it('holds C and node-stream to at least bytes / bs reads, and says why node-pipe is exempt', () => {
    for (const b of results.benchmarks) {
      const reads = b.validation?.checks.find((c) => c.field === 'reads');
      if (b.variant === 'node-pipe') expect(reads?.skipped).toMatch(/libuv chooses the read size/);
      else {
        expect(reads?.skipped, b.id).toBeUndefined();
        expect(reads?.seen, b.id).toBeGreaterThanOrEqual(b.derived.min_reads!);
      }
    }
    // C reads exactly one block per read() from a pipe fed in blocks of the same size.
    const c = results.benchmarks.find((b) => b.id === 'wc/c/bs=4096');
    expect(c?.metrics.reads?.value).toBe(c?.derived.min_reads);
  });
});
