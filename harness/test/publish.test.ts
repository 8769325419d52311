// npm run publish: the trend store is idempotent per commit, written atomically, refuses what it
// cannot read, and keeps both of two racing publishes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IndexFile, SeriesFile } from '../src/model/store.js';
import { publishRun } from '../src/store/store.js';
import { ROOT, runCli } from './helpers/cli.js';
import { wcResults } from './helpers/results.js';

const sha = (c: string) => c.repeat(40);
const index = (store: string) =>
  IndexFile.parse(JSON.parse(readFileSync(join(store, 'test-machine', 'index.json'), 'utf8')));

function resultsFile(dir: string, c: string, date: string): string {
  const r = wcResults(sha(c));
  r.run.commit.date = date;
  const f = join(dir, `${c}.json`);
  writeFileSync(f, JSON.stringify(r));
  return f;
}

describe('publish', () => {
  it('adds a commit once; publishing it again replaces its entry', async () => {
    const store = mkdtempSync(join(tmpdir(), 'jsio-pub-'));
    const first = await publishRun(store, wcResults(sha('a')));
    const again = await publishRun(store, wcResults(sha('a')));
    expect([first.replaced, again.replaced]).toEqual([false, true]);
    expect(index(store).commits.map((c) => c.sha)).toEqual([sha('a')]);
    const series = SeriesFile.parse(JSON.parse(readFileSync(join(store, 'test-machine', 'series', 'wc.json'), 'utf8')));
    expect(series.commits).toEqual([sha('a')]);
    expect(series.series['wc/c/bs=65536']?.metrics.wall_time?.values).toEqual([0.05]);
  });

  it('keeps commits in date order with aligned series columns', async () => {
    const store = mkdtempSync(join(tmpdir(), 'jsio-pub-'));
    const late = wcResults(sha('b'));
    late.run.commit.date = '2026-11-22T00:00:00Z';
    await publishRun(store, late);
    await publishRun(store, wcResults(sha('a'))); // older, published later
    expect(index(store).commits.map((c) => c.sha)).toEqual([sha('a'), sha('b')]);
    const series = SeriesFile.parse(JSON.parse(readFileSync(join(store, 'test-machine', 'series', 'wc.json'), 'utf8')));
    expect(series.commits).toEqual([sha('a'), sha('b')]);
    expect(series.series['wc/c/bs=65536']?.metrics.wall_time?.values).toHaveLength(2);
  });

  it('leaves no temporary files behind', async () => {
    const store = mkdtempSync(join(tmpdir(), 'jsio-pub-'));
    await publishRun(store, wcResults(sha('a')));
    const all = readdirSync(store, { recursive: true }).map(String);
    expect(all.filter((f) => f.includes('.tmp-') || f.endsWith('.lock'))).toEqual([]);
  });

  it('refuses a corrupt index, naming it, and leaves it unchanged', async () => {
    const store = mkdtempSync(join(tmpdir(), 'jsio-pub-'));
    await publishRun(store, wcResults(sha('a')));
    const file = join(store, 'test-machine', 'index.json');
    writeFileSync(file, '{"schema":1,"commits":[');
    await expect(publishRun(store, wcResults(sha('b')))).rejects.toThrow(
      `refusing to touch the store: ${file} is not valid JSON (truncated or corrupt?)`,
    );
    expect(readFileSync(file, 'utf8')).toBe('{"schema":1,"commits":[');
  });

  it('keeps both of two publishes racing from separate processes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-race-'));
    const store = join(dir, 'store');
    const files = ['a', 'b', 'c', 'd'].map((c, i) => resultsFile(dir, c, `2026-11-2${i}T00:00:00Z`));
    // Warm the bundle once so the racers start together.
    expect(runCli(['publish', files[0]!, '--store', store]).status).toBe(0);
    const racers = files.slice(1).map(
      (f) =>
        new Promise<number | null>((resolve) => {
          const p = spawn(
            process.execPath,
            [join(ROOT, '.cache', 'harness', 'cli.mjs'), 'publish', f, '--store', store],
            { cwd: ROOT, stdio: 'ignore' },
          );
          p.on('close', resolve);
        }),
    );
    expect(await Promise.all(racers)).toEqual([0, 0, 0]);
    expect(index(store).commits.map((c) => c.sha[0])).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses to publish a partial run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-pub-'));
    const r = wcResults(sha('a'));
    r.run.partial = true;
    writeFileSync(join(dir, 'r.json'), JSON.stringify(r));
    const cli = runCli(['publish', join(dir, 'r.json'), '--store', join(dir, 'store')]);
    expect(cli.status).toBe(2);
    expect(cli.stderr).toContain('is a partial (interrupted) run: it is never published');
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
    const ok = runCli(['publish', '--noise', noise('bench-a', 0.1), '--store', store]);
    expect(ok.stderr).toBe('');
    expect(JSON.parse(readFileSync(join(store, 'bench-a', 'noise.json'), 'utf8')).thresholds).toEqual({
      'wc/c/bs=1 wall_time': 0.1,
    });
    // A later calibration of the same machine replaces the earlier one.
    expect(runCli(['publish', '--noise', noise('bench-a', 0.2), '--store', store]).status).toBe(0);
    expect(JSON.parse(readFileSync(join(store, 'bench-a', 'noise.json'), 'utf8')).thresholds).toEqual({
      'wc/c/bs=1 wall_time': 0.2,
    });
    const bad = runCli(['publish', '--noise', noise('bench-a', -1), '--store', store]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/noise--1\.json is invalid:[\s\S]*thresholds/);
    const outside = runCli(['publish', '--noise', noise('../etc', 0.3), '--store', store]);
    expect(outside.stderr).toMatch(/noise-0\.3\.json is invalid:\n {2}machine: letters, digits/);
    expect(readdirSync(store)).toEqual(['bench-a']);
  });
});
