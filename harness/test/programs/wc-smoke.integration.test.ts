// The wc experiment for real on this machine: gcc builds, hyperfine times, GNU time and strace
// count, every variant's answer is validated. The measurements are wc's part of the tests' shared
// smoke run of every experiment (helpers/shared-smoke.ts), which measures exactly these points; a
// run of wc's C point alone lands in a custom store (which gets no site: the run says how to build
// one). just(js)'s variants are checked in just-variants and just-hidden.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseResults } from '../../src/formats/read-results.js';
import type { Results } from '../../src/formats/results-format.js';
import { type CliResult, runCli } from '../helpers/cli.js';
import {
  ofExperiment,
  SHARED_SMOKE_TIMEOUT_MS,
  type SharedSmokeRun,
  sharedResultsFile,
  sharedSmokeRun,
} from '../helpers/shared-smoke.js';

describe('wc smoke run', () => {
  let shared: SharedSmokeRun;
  let results: Results;
  let dir: string;
  let cli: CliResult;
  let stored: Results;
  const at = (variant: string, bs = 65536) =>
    results.benchmarks.filter((b) => b.variant === variant && b.params.bs === bs);

  beforeAll(async () => {
    shared = await sharedSmokeRun();
    results = ofExperiment(parseResults('results.json', readFileSync(sharedResultsFile(shared), 'utf8')), 'wc');
    dir = mkdtempSync(join(tmpdir(), 'jsio-wc-'));
    cli = runCli([
      ...['bench', '--profile', 'smoke', '--experiments', 'wc', '--variants', 'c', '--param', 'bs=65536'],
      ...['--counts', 'none', '--out', join(dir, 'out'), '--store', join(dir, 'store')],
    ]);
    stored = parseResults('results.json', readFileSync(join(dir, 'out', 'results.json'), 'utf8'));
  }, SHARED_SMOKE_TIMEOUT_MS);

  it('finishes without failures and prints where everything is', () => {
    expect(shared.status, shared.stderr.slice(-3000)).toBe(0);
    expect(results.benchmarks.filter((b) => b.status === 'failed')).toEqual([]);
    expect(shared.stderr).toMatch(/\[\d+\/\d+\] wc › c › bs=65536/);
    expect(cli.stderr).not.toMatch(/failed:/);
    expect(cli.status).toBe(0);
    expect(cli.stdout).toMatch(/results: +.*out\/results\.json/);
    expect(cli.stdout).toMatch(
      /site: +not rebuilt for a custom store \(npm run site -- --store .*store --out SITE_DIR\)/,
    );
    expect(cli.stderr).toMatch(/\[1\/1\] wc › c › bs=65536/);
  });

  it('validates every variant that ran', () => {
    const ran = results.benchmarks.filter((b) => b.status === 'ok' && !b.variant.startsWith('just'));
    expect(new Set(ran.map((b) => b.variant))).toEqual(
      new Set(['c', 'node-stream', 'node-pipe', 'readsync', 'system-wc', 'dd-null']),
    );
    for (const b of ran) {
      expect(b.validation?.ok, b.id).toBe(true);
      const bytes = b.validation?.checks.find((c) => c.field === 'bytes');
      if (!bytes?.skipped) expect(bytes?.seen, b.id).toBe(b.derived.bytes);
    }
  });

  it('measures C with samples, throughput, RSS, reads and syscalls', () => {
    const [c] = at('c');
    expect(c?.build).toMatchObject({ kind: 'gcc', flags: ['-O3', '-Wall'] });
    expect(c?.metrics.wall_time?.samples).toHaveLength(3);
    expect(c?.metrics.throughput?.unit).toBe('MB/s');
    expect(c?.metrics.max_rss?.value).toBeGreaterThan(100_000);
    expect(c?.metrics.reads?.value).toBe(256);
    expect(c?.metrics['syscalls.read']?.value).toBeGreaterThanOrEqual(257);
  });

  it('fits time = start-up + reads × cost over two input sizes, with its interval and R², or says why not', () => {
    for (const variant of ['c', 'node-stream', 'readsync', 'dd-null']) {
      for (const b of at(variant)) {
        const cost = b.metrics.read_cost;
        // The full size's own runs stay: whole-process time and throughput, secondary.
        expect(b.metrics.wall_time?.samples).toHaveLength(3);
        // At smoke sizes start-up noise can exceed the reads' time: then no cost, and the reason.
        if (!cost) {
          expect(b.reason, b.id).toMatch(/no cost per operation/);
          expect(b.metrics.startup, b.id).toBeUndefined();
          continue;
        }
        // 1/8 of the input and all of it: 32 and 256 reads at 64 KiB (dd-null reports none: the expected count).
        expect(cost.fit, b.id).toMatchObject({ x: 'reads', xs: [32, 256], scales: [0.125, 1], n: 6 });
        expect(cost.unit).toBe('ns');
        expect(cost.value).toBeGreaterThan(0);
        expect(cost.samples).toHaveLength(3);
        // Three runs per size are too few for a 95% interval of the robust slope (from four on there is one).
        expect(cost.fit?.ci, b.id).toBeUndefined();
        expect(cost.fit?.r2, b.id).toBeLessThanOrEqual(1);
        expect(b.metrics.startup).toMatchObject({ unit: 's', source: 'fit' });
      }
    }
  });

  it('runs the same readSync program under Node, Bun and Deno', () => {
    const runtimes = at('readsync').map((b) => String(b.params.runtime));
    expect(runtimes).toEqual(expect.arrayContaining(['bun', 'deno', `node${process.versions.node.split('.')[0]}`]));
  });

  it('runs node variants under each node version as a parameter', () => {
    expect(
      at('node-stream')
        .map((b) => b.params.runtime)
        .sort(),
    ).toEqual([...new Set([process.versions.node.split('.')[0], '22', '24'])].map((m) => `node${m}`).sort());
  });

  it('records machine, toolchains and conditions', () => {
    expect(results.run.machine.cores).toBeGreaterThan(0);
    expect(results.run.toolchains).toMatchObject({
      gcc: expect.any(String),
      hyperfine: expect.any(String),
      strace: expect.any(String),
    });
    expect(results.run.conditions?.loadAverage).toHaveLength(3);
    expect(results.run.partial).toBe(false);
  });

  it('writes the summary, the github-action-benchmark inputs and the store', () => {
    expect(readFileSync(join(shared.out, 'summary.md'), 'utf8')).toContain('steady throughput vs dd-null');
    const bigger = (
      JSON.parse(readFileSync(join(shared.out, 'gab', 'customBiggerIsBetter.json'), 'utf8')) as { name: string }[]
    ).filter((e) => e.name.startsWith('wc/'));
    // The headline's bigger-is-better series: steady throughput of every point whose fit resolved.
    const resolved = results.benchmarks
      .filter((b) => b.metrics.steady_throughput && b.params.bs === 65536 && !b.variant.startsWith('just'))
      .map((b) => `${b.id} steady_throughput`);
    expect(resolved.length).toBeGreaterThan(0);
    expect(bigger.map((e) => e.name).sort()).toEqual(expect.arrayContaining(resolved.sort()));
    expect(bigger.every((e) => e.name.endsWith(' steady_throughput'))).toBe(true);
    const index = JSON.parse(readFileSync(join(dir, 'store', stored.run.machine.id, 'index.json'), 'utf8')) as {
      commits: { sha: string }[];
    };
    expect(index.commits.map((c) => c.sha)).toEqual([stored.run.commit.sha]);
    // One run file per commit and profile (store v3).
    expect(
      existsSync(
        join(dir, 'store', stored.run.machine.id, 'runs', stored.run.commit.sha, `${stored.run.profile}.json`),
      ),
    ).toBe(true);
  });
});
