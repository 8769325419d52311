// summary.md with a sweep in the table: each ratio is taken against the reference variant at
// the same parameters (never another block size), a missing reference gives "—", and text
// from programs (reasons, hints) cannot break the markdown.
import { describe, expect, it } from 'vitest';
import { Manifest } from '../../src/formats/manifest-format.js';
import { renderSummary } from '../../src/report/summary.js';
import { bench, results, timed } from '../helpers/results.js';

// Parsed by the real schema so defaults (and any section added later) are filled in.
const experiment = {
  id: 'wc',
  manifest: Manifest.parse({
    schema: 1,
    title: 'reads',
    question: 'What does a read cost?',
    parameters: {
      bs: {
        description: 'block size',
        unit: 'B',
        values: { smoke: [4096, 65536], quick: [1], standard: [1], full: [1] },
      },
    },
    profiles: Object.fromEntries(['smoke', 'quick', 'standard', 'full'].map((p) => [p, { runs: 1, warmup: 0 }])),
    variants: [
      { id: 'c', description: 'd', runtime: 'system', command: 'wc -c', output: 'number', numberField: 'bytes' },
    ],
    summary: { at: { bs: [4096, 65536] }, metrics: ['throughput'], ratios: [{ metric: 'throughput', to: 'c' }] },
    headline: { at: { bs: 65536 }, metrics: ['throughput'] },
  }),
};
const mbps = (v: number) => ({ throughput: timed([v], 'MB/s', 'bigger') });

function run() {
  return results([
    bench('c', { bs: 4096 }, mbps(400)),
    bench('c', { bs: 65536 }, mbps(2000)),
    bench('node', { bs: 4096 }, mbps(100)),
    bench('node', { bs: 65536 }, mbps(1000)),
    // No reference at this point: its ratio is unknown, not taken against another block size.
    bench('bun', { bs: 65536 }, mbps(1500)),
    bench('bun', { bs: 4096 }, mbps(300)),
    bench('c', { bs: 1024 }, mbps(1)),
    bench(
      'deno',
      { bs: 4096 },
      {},
      { status: 'skipped', reason: 'deno is not installed', hint: 'install it from the npm registry' },
    ),
    bench(
      'deno',
      { bs: 65536 },
      {},
      { status: 'skipped', reason: 'deno is not installed', hint: 'install it from the npm registry' },
    ),
    bench(
      'evil',
      { bs: 65536 },
      {},
      {
        status: 'failed',
        reason:
          'exited with status 1: <img src=x onerror=alert(1)> | col\n# heading [link](http://x) `code` @octocat ![i](y) *bold*',
      },
    ),
  ]);
}

describe('renderSummary over a sweep', () => {
  it('renders ratios per block size, unknown ones as —, and the problems escaped', () => {
    const r = run();
    // c at 4096 is 400 MB/s; break the same-bs link for bun by failing c at 65536.
    r.benchmarks[1] = { ...r.benchmarks[1]!, status: 'failed', reason: 'wrong result', metrics: {} };
    expect(renderSummary(r, [experiment])).toMatchInlineSnapshot(`
      "# jsio-bench run 20261121T000000Z-aaaaaaa

      Profile **smoke** on machine \`test-machine\` (Test CPU, 2 cores), commit \`aaaaaaaaaaaa\` “a commit \\| with &lt;html&gt;”.

      ## wc: reads

      _What does a read cost?_

      At bs = 4 KiB, 64 KiB:

      | variant | throughput | throughput vs c |
      | --- | ---: | ---: |
      | c (bs 4096) | 400 MB/s | 1.00x |
      | node (bs 4096) | 100 MB/s | 0.25x |
      | node (bs 65536) | 1000 MB/s | — |
      | bun (bs 65536) | 1500 MB/s | — |
      | bun (bs 4096) | 300 MB/s | 0.75x |

      10 benchmarks: 6 ok, 2 skipped, 2 failed.

      - **failed** wc/c/bs=65536: wrong result
      - **skipped** deno (2 points): deno is not installed — \`install it from the npm registry\`
      - **failed** wc/evil/bs=65536: exited with status 1: &lt;img src=x onerror=alert(1)&gt; \\| col # heading \\[link\\](http:/​/x) \\\`code\\\` @​octocat \\!\\[i\\](y) \\*bold\\*

      Toolchains: node 20.20.2; hyperfine 1.15.0.
      "
    `);
  });

  it('divides by the reference at the same block size', () => {
    const md = renderSummary(run(), [experiment]);
    expect(md).toMatch(/^\| node \(bs 4096\) \| 100 MB\/s \| 0\.25x \|$/m);
    expect(md).toMatch(/^\| node \(bs 65536\) \| 1000 MB\/s \| 0\.50x \|$/m);
    expect(md).toMatch(/^\| bun \(bs 65536\) \| 1500 MB\/s \| 0\.75x \|$/m);
    expect(md).toMatch(/^\| c \(bs 4096\) \| 400 MB\/s \| 1\.00x \|$/m);
    expect(md).not.toContain('bs 1024');
  });

  it('keeps each problem on one line with no live markup', () => {
    const md = renderSummary(run(), [experiment]);
    const line = md.split('\n').find((l) => l.includes('wc/evil/'));
    expect(line).toBeDefined();
    expect(md).not.toMatch(/^# heading/m);
    expect(line).not.toMatch(/<img|[^\\]\||[^\\]\[link\]|[^\\]`|@octocat/);
    expect(line).toContain(
      '&lt;img src=x onerror=alert(1)&gt; \\| col # heading \\[link\\](http:/\u200b/x) \\`code\\` @\u200boctocat \\!\\[i\\](y) \\*bold\\*',
    );
  });

  it('groups a runtime skipped at every point into one line', () => {
    const md = renderSummary(run(), [experiment]);
    expect(md.match(/deno is not installed/g)).toHaveLength(1);
    expect(md).toContain('- **skipped** deno (2 points): deno is not installed — `install it from the npm registry`');
  });
});

describe('names stay copyable', () => {
  it('puts no invisible character into a name with an @ inside a word (node@22)', async () => {
    const { escapeCell } = await import('../../src/lib/markdown.js');
    expect(escapeCell('readsync (node@22.23.1)')).toBe('readsync (node@22.23.1)');
    expect(escapeCell('@octocat and (@team)')).toBe('@\u200boctocat and (@\u200bteam)');
  });
});
