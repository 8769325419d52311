// Counts reused by their key, as a user runs it: `npm run bench` with a store counts C's wc points
// under the real Valgrind and stores each count under its key; the same bench again takes them
// from the store (its run record says none was counted anew but the one live re-check); a planted
// edit of a stored count is found by the next run's re-check, which drops the family's stored
// counts and counts them again; `--recount` takes nothing from the store.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CountStoreFile } from '../../src/formats/count-store-format.js';
import type { Results } from '../../src/formats/results-format.js';
import { runCli } from '../helpers/cli.js';

const read = (out: string) => JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;

describe('bench reuses the counts stored under their keys', () => {
  const store = mkdtempSync(join(tmpdir(), 'jsio-count-store-'));
  const bench = (...flags: string[]) => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-count-reuse-'));
    const r = runCli([
      ...['bench', '--profile', 'smoke', '--experiments', 'wc', '--variants', 'c', '--param', 'bs=16384,65536'],
      ...['--counts', 'all', '--store', store, '--out', out, ...flags],
    ]);
    expect(r.status, r.stderr).toBe(0);
    outs.set(read(out).run.id, out);
    return read(out);
  };
  const outs = new Map<string, string>();
  const countsFile = () => {
    const machine = readdirSync(store).find((d) => d !== 'machines.json')!;
    return join(store, machine, 'counts.json');
  };
  let first: Results;
  let second: Results;
  beforeAll(() => {
    first = bench();
    second = bench();
  });

  it('an empty store: every point counted and stored under its key', () => {
    expect(first.run.counting).toMatchObject({ store: 'reused', reused: 0, counted: 2, deferred: 0 });
    const stored = JSON.parse(readFileSync(countsFile(), 'utf8')) as CountStoreFile;
    expect(
      Object.values(stored.counts)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['wc/c/bs=16384', 'wc/c/bs=65536']);
  });

  it('the same commit again counts nothing new: one point taken from the store, the other re-checked live and agreeing', () => {
    expect(second.run.counting).toMatchObject({ reused: 1, counted: 1, dropped: [] });
    expect(second.run.counting?.rechecked).toEqual([expect.objectContaining({ family: 'native', agreed: true })]);
    const fromStore = second.benchmarks.filter((b) => b.counts?.status === 'ok' && b.counts.stored);
    expect(fromStore).toHaveLength(1);
    const same = first.benchmarks.find((b) => b.id === fromStore[0]!.id)!;
    expect(fromStore[0]!.metrics.instructions_per_op?.value).toBe(same.metrics.instructions_per_op?.value);
  });

  it('a re-count that made another number of operations is no comparison: the family keeps its counts, another point is re-checked next', () => {
    const file = countsFile();
    const stored = JSON.parse(readFileSync(file, 'utf8')) as CountStoreFile;
    // As a pipe-fed point's stored repeats can be: one more read at each size than the re-count will make.
    const [key, planted] = Object.entries(stored.counts).sort(([, a], [, b]) => a.checks - b.checks)[0]!;
    expect(planted.runs.every((r) => r.x !== undefined)).toBe(true);
    stored.counts[key] = { ...planted, runs: planted.runs.map((r) => ({ ...r, x: r.x! + 1 })) };
    writeFileSync(file, JSON.stringify(stored));
    const r = bench();
    expect(r.run.counting).toMatchObject({ dropped: [], reused: 1, counted: 1 });
    expect(r.run.counting?.rechecked).toEqual([{ id: planted.id, family: 'native', agreed: false, otherWork: true }]);
    const summary = readFileSync(join(outs.get(r.run.id)!, 'summary.md'), 'utf8');
    expect(summary).toContain(`not compared: ${planted.id} (native) made another number of operations`);
    // Every stored point of its variant is passed over once: the next run re-checks another variant's.
    const after = JSON.parse(readFileSync(file, 'utf8')) as CountStoreFile;
    for (const [k, c] of Object.entries(after.counts)) expect(c.checks).toBe(stored.counts[k]!.checks + 1);
    // Put its operations back for what follows.
    after.counts[key] = { ...after.counts[key]!, runs: planted.runs };
    writeFileSync(file, JSON.stringify(after));
  });

  it('a planted edit of a stored count is found by the next re-check, dropped and counted again', () => {
    const file = countsFile();
    const stored = JSON.parse(readFileSync(file, 'utf8')) as CountStoreFile;
    // The re-check takes the least checked point next (the first by id among equals): plant the edit there.
    const [key, planted] = Object.entries(stored.counts).sort(
      ([, a], [, b]) => a.checks - b.checks || (a.id < b.id ? -1 : 1),
    )[0]!;
    const real = planted.runs.map((r) => r.instructions);
    stored.counts[key] = { ...planted, runs: planted.runs.map((r) => ({ ...r, instructions: r.instructions + 1000 })) };
    writeFileSync(file, JSON.stringify(stored));
    const third = bench();
    expect(third.run.counting).toMatchObject({ dropped: ['native'], reused: 0, counted: 2 });
    expect(third.run.counting?.rechecked).toEqual([{ id: planted.id, family: 'native', agreed: false }]);
    const summary = readFileSync(join(outs.get(third.run.id)!, 'summary.md'), 'utf8');
    expect(summary).toContain('a re-count disagreed with the stored counts of native');
    const after = JSON.parse(readFileSync(file, 'utf8')) as CountStoreFile;
    expect(after.counts[key]?.runs.map((r) => r.instructions)).toEqual(real);
  });

  it('--recount takes nothing from the store', () => {
    const r = bench('--recount');
    expect(r.run.counting).toMatchObject({ store: 'not reused: --recount', reused: 0, counted: 2 });
    expect(r.benchmarks.some((b) => b.counts?.status === 'ok' && b.counts.stored)).toBe(false);
  });
});
