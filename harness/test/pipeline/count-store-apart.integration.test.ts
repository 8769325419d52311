// Counts kept as main's runners keep them (bench.yml): `bench --no-store --count-store DIR` reads
// the machine's stored counts from a gh-pages checkout's data/ and never writes there; the counts it
// made or re-checked go into its own counts.json, which `npm run pages` merges into the store. A
// second run of the same commit then takes the stored counts and counts only its live re-check.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CountStoreFile } from '../../src/formats/count-store-format.js';
import type { Results } from '../../src/formats/results-format.js';
import { runCli } from '../helpers/cli.js';

const readJson = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;

describe('bench apart from the store, with the store of counts read from gh-pages', () => {
  const pages = mkdtempSync(join(tmpdir(), 'jsio-count-pages-'));
  const data = join(pages, 'data');
  const bench = (...flags: string[]) => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-count-apart-'));
    const r = runCli([
      ...['bench', '--profile', 'smoke', '--experiments', 'wc', '--variants', 'c', '--param', 'bs=16384,65536'],
      ...['--counts', 'all', '--out', out, ...flags],
    ]);
    return { r, out };
  };
  const publish = (out: string) => {
    const r = runCli(['pages', join(out, 'results.json'), '--dir', pages]);
    expect(r.status, r.stderr).toBe(0);
  };
  const storedCounts = () => {
    const machine = readdirSync(data).find((d) => d !== 'machines.json')!;
    return join(data, machine, 'counts.json');
  };

  it('is refused with a store: a stored run keeps its counts there', () => {
    const { r } = bench('--count-store', data);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--count-store is for a run added to no store');
  });

  it('refuses a malformed counts.json before measuring, naming the file and the field', () => {
    const bad = mkdtempSync(join(tmpdir(), 'jsio-count-bad-'));
    const machine = runCli(['machine-id']).stdout.trim();
    mkdirSync(join(bad, machine));
    writeFileSync(join(bad, machine, 'counts.json'), JSON.stringify({ schema: 1, counts: { k: { id: 'wc/c' } } }));
    const { r, out } = bench('--no-store', '--count-store', bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('refusing the stored counts (--count-store)');
    expect(r.stderr).toMatch(/counts\.json[\s\S]*counts\.k\.family/);
    expect(existsSync(join(out, 'results.json'))).toBe(false);
  });

  it('counts every point on an empty store, leaves the counts in its counts.json, and pages stores them; the next run re-checks one and takes the other', () => {
    // gh-pages has no data yet (the first run): nothing stored, every point counted.
    const first = bench('--no-store', '--count-store', data);
    expect(first.r.status, first.r.stderr).toBe(0);
    expect(existsSync(data)).toBe(false);
    expect(readJson<Results>(join(first.out, 'results.json')).run.counting).toMatchObject({
      store: 'reused',
      reused: 0,
      counted: 2,
    });
    const own = readJson<CountStoreFile>(join(first.out, 'counts.json'));
    expect(
      Object.values(own.counts)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['wc/c/bs=16384', 'wc/c/bs=65536']);
    publish(first.out);
    expect(readJson<CountStoreFile>(storedCounts())).toEqual(own);

    const storeBefore = readFileSync(storedCounts(), 'utf8');
    const second = bench('--no-store', '--count-store', data);
    expect(second.r.status, second.r.stderr).toBe(0);
    const results = readJson<Results>(join(second.out, 'results.json'));
    expect(results.run.counting).toMatchObject({ reused: 1, counted: 1, dropped: [] });
    expect(results.run.counting?.rechecked).toEqual([expect.objectContaining({ family: 'native', agreed: true })]);
    // The store is only read by bench; the run's file holds just the re-checked count, once more checked.
    expect(readFileSync(storedCounts(), 'utf8')).toBe(storeBefore);
    const rechecked = readJson<CountStoreFile>(join(second.out, 'counts.json'));
    expect(Object.values(rechecked.counts).map((c) => [c.id, c.checks])).toEqual([
      [results.run.counting!.rechecked[0]!.id, 1],
    ]);
    publish(second.out);
    const merged = readJson<CountStoreFile>(storedCounts());
    expect(Object.keys(merged.counts).sort()).toEqual(Object.keys(own.counts).sort());
    expect(
      Object.values(merged.counts)
        .map((c) => c.checks)
        .sort(),
    ).toEqual([0, 1]);

    // --recount takes nothing from the store and leaves no counts for it.
    const third = bench('--no-store', '--count-store', data, '--recount');
    expect(third.r.status, third.r.stderr).toBe(0);
    expect(existsSync(join(third.out, 'counts.json'))).toBe(false);
  });
});
