// summary.md: the manifest's chosen point as a table with ratios to reference variants, then
// every skipped or failed benchmark with its reason, escaped.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../../src/plan/experiments.js';
import { renderSummary } from '../../src/report/summary.js';
import { ROOT } from '../helpers/cli.js';
import { wcResults } from '../helpers/results.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));

describe('renderSummary', () => {
  const md = renderSummary(wcResults(), [wc]);

  it('renders the run, the 64 KiB table and the problems', () => {
    expect(md).toMatchInlineSnapshot(`
      "# jsio-bench run 20261121T000000Z-aaaaaaa

      Profile **smoke** on machine \`test-machine\` (Test CPU, 2 cores), commit \`aaaaaaaaaaaa\` “a commit \\| with &lt;html&gt;”.

      ## wc: the cost of a read() system call

      _What does a read() system call cost from JavaScript compared with C? Each program counts the bytes piped to its stdin, reading in fixed-size blocks._

      At bs = 64 KiB:

      | variant | cost per read | steady throughput | start-up | throughput | max RSS | reads | read calls | epoll_wait calls | epoll_pwait calls | cost per read vs c | steady throughput vs dd-null |
      | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
      | c | 43.9 µs | 1422 MB/s | 5.00 ms | 1280 MB/s | 1.5 MiB | 1,024 | 1,026 | — | — | 1.00x | 0.90x |
      | node-stream (node20) | 87.9 µs | 711 MB/s | 10.00 ms | 640 MB/s | 50.0 MiB | 1,024 | 1,026 | — | — | 2.00x | 0.45x |
      | node-stream (node22) | 70.3 µs | 889 MB/s | 8.00 ms | 800 MB/s | 50.0 MiB | 1,024 | 1,026 | — | — | 1.60x | 0.56x |
      | dd-null | 39.6 µs | 1580 MB/s | 4.50 ms | 1422 MB/s | 50.0 MiB | 1,024 | 1,026 | — | — | 0.90x | 1.00x |

      7 benchmarks: 5 ok, 1 skipped, 1 failed.

      - **skipped** wc/just-sync/bs=65536: just(js) is not installed — \`install it\`
      - **failed** wc/bun/bs=65536: wrong result: bytes = 1 \\| 2, expected 3

      Toolchains: node 20.20.2; hyperfine 1.15.0.
      "
    `);
  });

  it('computes ratios against the reference at the same block size', () => {
    // node 22: 0.08 / 0.05 of C's cost per read; 0.045 / 0.08 of dd-null's steady throughput
    expect(md).toMatch(/node-stream \(node22\) .* 1\.60x \| 0\.56x \|/);
  });

  it('marks a partial run', () => {
    const r = wcResults();
    r.run.partial = true;
    expect(renderSummary(r, [wc])).toMatch(/^# jsio-bench PARTIAL run \(interrupted\)/);
  });
});
