// npm run publish-run: the trend store (v3) keeps each profile's run of a commit apart, merges a run
// into the same commit and profile by benchmark id, keys trend series by workload (a changed
// workload starts a new series, a changed program stays on it, marked), is idempotent, written
// atomically, refuses what it cannot read, and keeps both of two racing publishes.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { programChanges, STORE_SCHEMA, seriesKey } from '../../src/formats/parts/store-layout.js';
import type { Results } from '../../src/formats/results-format.js';
import { publishRun } from '../../src/store/publish-run.js';
import { placeInWindow } from '../../src/store/windows.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { timed, wcResults } from '../helpers/results.js';
import { catalogOf, indexOf, machinesOf, snapshot, trendOf } from '../helpers/store.js';

const sha = (c: string) => c.repeat(40);
const tmp = () => mkdtempSync(join(tmpdir(), 'jsio-pub-'));
const run = (store: string, c: string, profile = 'smoke') =>
  JSON.parse(readFileSync(join(store, 'test-machine', 'runs', sha(c), `${profile}.json`), 'utf8')) as Results;

/** A wc run of commit c on day `day`, every benchmark with workload w and program d. */
function wc(c: string, day: number, opts: { profile?: string; workload?: string; program?: string } = {}): Results {
  const r = wcResults(sha(c));
  r.run.commit.date = `2026-11-${String(day).padStart(2, '0')}T00:00:00Z`;
  r.run.profile = opts.profile ?? 'smoke';
  r.benchmarks = r.benchmarks.map((b) => ({
    ...b,
    workload: opts.workload ?? `w-${r.run.profile}`,
    definition: opts.program ?? `${b.variant}-p1`,
  }));
  return r;
}

const C64 = 'wc/c/bs=65536';

describe('publish', () => {
  it('adds a commit once; publishing the same run again changes no file', async () => {
    const store = tmp();
    const first = await publishRun(store, wc('a', 1));
    const before = snapshot(store);
    const again = await publishRun(store, wc('a', 1));
    expect([first.replaced, again.replaced]).toEqual([false, true]);
    expect(snapshot(store)).toEqual(before);
    expect(indexOf(store).commits.map((c) => c.sha)).toEqual([sha('a')]);
    const t = trendOf(store, 'smoke', 'wc', 'wall_time');
    expect(t.commits).toEqual([sha('a')]);
    expect(t.series[seriesKey(C64, 'w-smoke', 's')]?.values).toEqual([0.05]);
  });

  it('keeps commits in date order with aligned series columns', async () => {
    const store = tmp();
    await publishRun(store, wc('b', 22));
    await publishRun(store, wc('a', 1)); // older, published later
    expect(indexOf(store).commits.map((c) => c.sha)).toEqual([sha('a'), sha('b')]);
    const t = trendOf(store, 'smoke', 'wc', 'wall_time');
    expect(t.commits).toEqual([sha('a'), sha('b')]);
    expect(t.series[seriesKey(C64, 'w-smoke', 's')]?.values).toEqual([0.05, 0.05]);
  });

  it('merges a filtered run into the same commit and profile: replaced by id, every other benchmark kept', async () => {
    const store = tmp();
    await publishRun(store, wc('a', 1));
    const full = run(store, 'a');
    // A dispatch of one variant at one block size, measured again (slower).
    const filtered = wc('a', 1);
    filtered.run.id = 'dispatch';
    filtered.benchmarks = filtered.benchmarks
      .filter((b) => b.id === C64)
      .map((b) => ({ ...b, metrics: { ...b.metrics, wall_time: timed([0.07, 0.071, 0.069]) } }));
    const r = await publishRun(store, filtered);
    expect(r.replaced).toBe(true);
    const merged = run(store, 'a');
    expect(merged.benchmarks.map((b) => b.id)).toEqual(full.benchmarks.map((b) => b.id));
    expect(merged.benchmarks.find((b) => b.id === C64)?.metrics.wall_time?.value).toBe(0.07);
    expect(merged.benchmarks.find((b) => b.id === 'wc/dd-null/bs=65536')).toEqual(
      full.benchmarks.find((b) => b.id === 'wc/dd-null/bs=65536'),
    );
    // No trend value of another benchmark became null.
    const t = trendOf(store, 'smoke', 'wc', 'wall_time');
    expect(t.series[seriesKey(C64, 'w-smoke', 's')]?.values).toEqual([0.07]);
    expect(t.series[seriesKey('wc/dd-null/bs=65536', 'w-smoke', 's')]?.values).toEqual([0.045]);
    expect(t.series[seriesKey('wc/c/bs=4096', 'w-smoke', 's')]?.values).toEqual([0.2]);
    // The index counts the merged run and lists both publishes.
    const entry = indexOf(store).commits[0]!.runs.smoke!;
    expect(entry.counts).toEqual({ ok: 5, skipped: 1, failed: 1 });
    expect(entry.sources.map((s) => [s.runId, s.benchmarks])).toEqual([
      [full.run.id, 7],
      ['dispatch', 1],
    ]);
  });

  it('a benchmark that fails when measured again leaves a gap, not its old value', async () => {
    const store = tmp();
    await publishRun(store, wc('a', 1));
    const again = wc('a', 1);
    again.benchmarks = again.benchmarks
      .filter((b) => b.id === C64)
      .map((b) => ({ ...b, status: 'failed' as const, reason: 'wrong result', metrics: {} }));
    await publishRun(store, again);
    expect(run(store, 'a').benchmarks.find((b) => b.id === C64)?.status).toBe('failed');
    const t = trendOf(store, 'smoke', 'wc', 'wall_time');
    expect(t.series[seriesKey(C64, 'w-smoke', 's')]).toBeUndefined();
    expect(t.series[seriesKey('wc/c/bs=4096', 'w-smoke', 's')]?.values).toEqual([0.2]);
  });

  it('keeps a smoke run beside the standard run of the same commit, each in its own trends', async () => {
    const store = tmp();
    await publishRun(store, wc('a', 1, { profile: 'standard' }));
    const standard = snapshot(join(store, 'test-machine', 'trends', 'standard'));
    const standardRun = readFileSync(join(store, 'test-machine', 'runs', sha('a'), 'standard.json'), 'utf8');
    const smoke = wc('a', 1, { profile: 'smoke' });
    smoke.benchmarks = smoke.benchmarks.filter((b) => b.params.bs === 65536);
    const r = await publishRun(store, smoke);
    expect(r.replaced).toBe(false);
    expect(snapshot(join(store, 'test-machine', 'trends', 'standard'))).toEqual(standard);
    expect(readFileSync(join(store, 'test-machine', 'runs', sha('a'), 'standard.json'), 'utf8')).toBe(standardRun);
    const commit = indexOf(store).commits[0]!;
    expect(Object.keys(commit.runs).sort()).toEqual(['smoke', 'standard']);
    expect(commit.runs.standard!.counts.ok).toBe(5);
    expect(commit.runs.smoke!.counts.ok).toBe(4);
    expect(machinesOf(store).machines['test-machine']!.profiles).toEqual({
      smoke: { commits: 1, lastRun: smoke.run.end },
      standard: { commits: 1, lastRun: smoke.run.end },
    });
    expect(Object.keys(trendOf(store, 'smoke', 'wc', 'wall_time').series).every((k) => k.includes('|w-smoke|'))).toBe(
      true,
    );
  });

  it('a changed workload starts a new series; a changed program stays on its series, marked', async () => {
    const store = tmp();
    await publishRun(store, wc('a', 1, { workload: 'w1', program: 'p1' }));
    await publishRun(store, wc('b', 2, { workload: 'w1', program: 'p2' }));
    await publishRun(store, wc('c', 3, { workload: 'w2', program: 'p2' }));
    const t = trendOf(store, 'smoke', 'wc', 'wall_time');
    const before = t.series[seriesKey(C64, 'w1', 's')]!;
    const after = t.series[seriesKey(C64, 'w2', 's')]!;
    expect(before.values).toEqual([0.05, 0.05, null]);
    expect(after.values).toEqual([null, null, 0.05]);
    expect(before.programs).toEqual(['p1', 'p2', null]);
    expect(programChanges(before.programs)).toEqual([1]);
    expect(programChanges(after.programs)).toEqual([]);
  });

  it('results without a workload hash go to a series of their own', async () => {
    const store = tmp();
    const r = wc('a', 1);
    for (const b of r.benchmarks) delete b.workload;
    await publishRun(store, r);
    expect(Object.keys(trendOf(store, 'smoke', 'wc', 'wall_time').series)).toContain(seriesKey(C64, 'unrecorded', 's'));
  });

  it('records the newest run per experiment and the metrics with their sources in the catalog', async () => {
    const store = tmp();
    await publishRun(store, wc('b', 2));
    await publishRun(store, wc('a', 1));
    const c = catalogOf(store, 'smoke');
    expect(c.experiments.wc?.latest).toEqual({ date: '2026-11-02T00:00:00Z', sha: sha('b') });
    expect(c.experiments.wc?.metrics.wall_time).toEqual({
      unit: 's',
      direction: 'smaller',
      source: 'hyperfine',
      windows: [0, 0],
    });
    expect(Object.keys(c.experiments.wc!.metrics)).not.toContain('syscalls.read');
    expect(c.windows).toEqual([
      {
        id: '0000',
        first: { date: '2026-11-01T00:00:00Z', sha: sha('a') },
        last: { date: '2026-11-02T00:00:00Z', sha: sha('b') },
        commits: 2,
      },
    ]);
  });

  it('leaves no temporary files behind', async () => {
    const store = tmp();
    await publishRun(store, wcResults(sha('a')));
    const all = readdirSync(store, { recursive: true }).map(String);
    expect(all.filter((f) => f.includes('.tmp-') || f.endsWith('.lock'))).toEqual([]);
  });

  it('refuses a corrupt index, naming it, and leaves it unchanged', async () => {
    const store = tmp();
    await publishRun(store, wcResults(sha('a')));
    const file = join(store, 'test-machine', 'index.json');
    writeFileSync(file, '{"schema":3,"commits":[');
    await expect(publishRun(store, wcResults(sha('b')))).rejects.toThrow(
      `refusing to touch the store: ${file} is not valid JSON (truncated or corrupt?)`,
    );
    expect(readFileSync(file, 'utf8')).toBe('{"schema":3,"commits":[');
  });

  it('refuses a store file of a newer schema', async () => {
    const store = tmp();
    await publishRun(store, wcResults(sha('a')));
    const file = join(store, 'test-machine', 'trends', 'smoke', 'catalog.json');
    writeFileSync(file, `{"schema":${STORE_SCHEMA + 1}}`);
    await expect(publishRun(store, wcResults(sha('b')))).rejects.toThrow(
      `${file} has schema ${STORE_SCHEMA + 1}, newer than this harness understands (${STORE_SCHEMA})`,
    );
  });

  it('refuses the reserved profile "legacy" and a profile that is not a plain name', async () => {
    for (const profile of ['legacy', '../x', 'a/b']) {
      const r = wcResults(sha('a'));
      r.run.profile = profile;
      await expect(publishRun(tmp(), r)).rejects.toThrow(/run\.profile/);
    }
  });

  it('keeps both of two publishes racing from separate processes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-race-'));
    const store = join(dir, 'store');
    const files = ['a', 'b', 'c', 'd'].map((c, i) => {
      const f = join(dir, `${c}.json`);
      writeFileSync(f, JSON.stringify(wc(c, 20 + i)));
      return f;
    });
    // Warm the bundle once so the racers start together.
    expect(runCli(['publish-run', files[0]!, '--store', store]).status).toBe(0);
    const racers = files.slice(1).map(
      (f) =>
        new Promise<number | null>((resolve) => {
          const p = spawn(
            process.execPath,
            [join(ROOT, 'harness', 'bootstrap.mjs'), 'publish-run', f, '--store', store],
            { cwd: ROOT, stdio: 'ignore' },
          );
          p.on('close', resolve);
        }),
    );
    expect(await Promise.all(racers)).toEqual([0, 0, 0]);
    expect(indexOf(store).commits.map((c) => c.sha[0])).toEqual(['a', 'b', 'c', 'd']);
    expect(trendOf(store, 'smoke', 'wc', 'wall_time').commits.map((c) => c[0])).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses to publish a partial run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-pub-'));
    const r = wcResults(sha('a'));
    r.run.partial = true;
    writeFileSync(join(dir, 'r.json'), JSON.stringify(r));
    const cli = runCli(['publish-run', join(dir, 'r.json'), '--store', join(dir, 'store')]);
    expect(cli.status).toBe(2);
    expect(cli.stderr).toContain('is a partial (interrupted) run: it is never published');
    expect(existsSync(join(dir, 'store', 'test-machine'))).toBe(false);
  });

  it('stores calibrations per machine with --noise, refusing a bad file or machine id', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-pub-'));
    const store = join(dir, 'store');
    const noise = (machine: string, t: unknown) => {
      const f = join(dir, `noise-${t}.json`);
      writeFileSync(
        f,
        JSON.stringify({
          schema: 1,
          machine,
          created: '2026-11-21T00:00:00Z',
          rounds: 6,
          thresholds: { 'wc/c/bs=1 wall_time': t },
        }),
      );
      return f;
    };
    const ok = runCli(['publish-run', '--noise', noise('bench-a', 0.1), '--store', store]);
    expect(ok.stderr).toBe('');
    expect(JSON.parse(readFileSync(join(store, 'bench-a', 'noise.json'), 'utf8')).thresholds).toEqual({
      'wc/c/bs=1 wall_time': 0.1,
    });
    // A later calibration of the same machine replaces the earlier one.
    expect(runCli(['publish-run', '--noise', noise('bench-a', 0.2), '--store', store]).status).toBe(0);
    expect(JSON.parse(readFileSync(join(store, 'bench-a', 'noise.json'), 'utf8')).thresholds).toEqual({
      'wc/c/bs=1 wall_time': 0.2,
    });
    const bad = runCli(['publish-run', '--noise', noise('bench-a', -1), '--store', store]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/noise--1\.json is invalid:[\s\S]*thresholds/);
    const outside = runCli(['publish-run', '--noise', noise('../etc', 0.3), '--store', store]);
    expect(outside.stderr).toMatch(/noise-0\.3\.json is invalid:\n {2}machine: letters, digits/);
    expect(readdirSync(store)).toEqual(['bench-a']);
  });
});

describe('trend windows', () => {
  const at = (i: number) => ({
    date: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
    sha: sha('0').slice(0, 36) + String(i).padStart(4, '0'),
  });

  it('fill the newest window to its size, then start another; a back-filled commit joins the window of its date', () => {
    let windows: ReturnType<typeof placeInWindow>['windows'] = [];
    const ids: string[] = [];
    for (const i of [0, 1, 2, 4, 5, 6, 8]) {
      const p = placeInWindow(windows, at(i), 3);
      windows = p.windows;
      ids.push(p.id);
    }
    expect(ids).toEqual(['0000', '0000', '0000', '0001', '0001', '0001', '0002']);
    // Day 3 was skipped and is measured later: it belongs between day 2 and day 4.
    const back = placeInWindow(windows, at(3), 3);
    expect(back.id).toBe('0000');
    expect(back.windows[0]!.commits).toBe(4);
    expect(back.windows[0]!.last).toEqual(at(3));
    // Older than everything: the first window.
    expect(placeInWindow(windows, at(-5), 3).id).toBe('0000');
    // Between windows 1 and 2 (day 7): window 1, even though it is full.
    expect(placeInWindow(windows, at(7), 3).id).toBe('0001');
  });

  it('publishes into as many windows as the commits need, the site reading them joined', async () => {
    const store = tmp();
    for (let i = 0; i < 103; i++) {
      const r = wc(String(i % 10), 1, {});
      r.run.commit.sha = `${String(i).padStart(3, '0')}`.padEnd(40, 'a');
      r.run.commit.date = new Date(Date.UTC(2026, 0, 1, i)).toISOString();
      r.benchmarks = r.benchmarks.filter((b) => b.id === C64);
      await publishRun(store, r);
    }
    const t = trendOf(store, 'smoke', 'wc', 'wall_time');
    expect(t.windows.map((w) => [w.id, w.commits])).toEqual([
      ['0000', 100],
      ['0001', 3],
    ]);
    expect(t.commits).toHaveLength(103);
    expect(t.series[seriesKey(C64, 'w-smoke', 's')]!.values.every((v) => v === 0.05)).toBe(true);
    expect(indexOf(store).commits.at(-1)!.runs.smoke!.window).toBe('0001');
  });
});
