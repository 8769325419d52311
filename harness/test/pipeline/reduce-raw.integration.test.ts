// Every run keeps its raw samples, and `bench --reduce` makes the same benchmarks from them without
// running anything: real gcc builds and real runs (a hyperfine-timed point and a self-timed one), then
// the reduction, compared number for number. Bad input names the file and the field, and loses nothing.
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RawSamplesFile } from '../../src/formats/raw-samples-format.js';
import { Results } from '../../src/formats/results-format.js';
import { runCli } from '../helpers/cli.js';

const SELECT = ['--profile', 'smoke', '--experiments', 'wc,threadpool', '--variants', 'c,c-pool', '--no-store'];
let dir: string;
let measured: string;

const results = (out: string) => Results.parse(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-reduce-'));
  measured = join(dir, 'measured');
  const r = runCli(['bench', ...SELECT, '--counts', 'none', '--out', measured]);
  expect(r.status, r.stderr).toBe(0);
}, 600_000);

describe('raw samples and bench --reduce', () => {
  it('a run keeps every benchmark raw samples, the self-timed report lines and the clock among them', () => {
    const raw = RawSamplesFile.parse(JSON.parse(readFileSync(join(measured, 'raw-samples.json'), 'utf8')));
    const ids = results(measured).benchmarks.map((b) => b.id);
    expect(Object.keys(raw.benchmarks).sort()).toEqual([...ids].sort());
    const self = Object.entries(raw.benchmarks).find(([id]) => id.startsWith('threadpool/'))?.[1];
    expect(self?.timer).toBe('harness');
    expect(self?.runs.every((run) => run.wall > 0 && run.report && run.items?.latency?.length)).toBe(true);
    // What each run printed and GNU time wrote, as written: a reducing harness reads them again itself.
    for (const run of self?.runs ?? []) {
      expect(JSON.parse(run.output!.trim().split('\n').at(-1)!)).toMatchObject({ batch_ms: run.report?.batch_ms });
      expect(run.time).toMatch(/max_rss_kib=\d+/);
    }
  });

  it('makes the same numbers from them, running nothing and storing nothing', () => {
    const out = join(dir, 'reduced');
    const store = join(dir, 'store');
    const r = runCli([
      'bench',
      ...SELECT.filter((a) => a !== '--no-store'),
      '--store',
      store,
      '--out',
      out,
      '--reduce',
      join(measured, 'raw-samples.json'),
    ]);
    expect(r.status, r.stderr).toBe(0);
    const [a, b] = [results(measured), results(out)];
    // Nothing run, and nothing added to a history.
    expect(a.run.timing?.measuredSeconds).toBeGreaterThan(0);
    expect(b.run.timing?.measuredSeconds).toBe(0);
    expect(existsSync(store)).toBe(false);
    expect(b.benchmarks.map((x) => x.id)).toEqual(a.benchmarks.map((x) => x.id));
    for (const x of a.benchmarks) {
      const y = b.benchmarks.find((z) => z.id === x.id)!;
      expect(y.status).toBe(x.status);
      expect(y.metrics, x.id).toEqual(x.metrics);
    }
  });

  it('reduced into the folder it reads from, it keeps the raw samples it was made from', () => {
    const same = join(dir, 'same');
    cpSync(measured, same, { recursive: true });
    const before = readFileSync(join(same, 'raw-samples.json'), 'utf8');
    const r = runCli(['bench', ...SELECT, '--out', same, '--reduce', join(same, 'raw-samples.json')]);
    expect(r.status, r.stderr).toBe(0);
    const after = RawSamplesFile.parse(JSON.parse(readFileSync(join(same, 'raw-samples.json'), 'utf8')));
    expect(after).toEqual(RawSamplesFile.parse(JSON.parse(before)));
  });

  it('a malformed file is refused naming the file and the field; a missing point is skipped, not invented', () => {
    const raw = JSON.parse(readFileSync(join(measured, 'raw-samples.json'), 'utf8'));
    const [first] = Object.keys(raw.benchmarks);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...raw, benchmarks: { [first!]: { ...raw.benchmarks[first!], runs: 'x' } } }));
    const refused = runCli(['bench', ...SELECT, '--out', join(dir, 'refused'), '--reduce', bad]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(bad);
    expect(refused.stderr).toContain('runs');
    expect(existsSync(join(dir, 'refused'))).toBe(false);
    const partial = join(dir, 'partial.json');
    const { [first!]: _, ...rest } = raw.benchmarks;
    writeFileSync(partial, JSON.stringify({ ...raw, benchmarks: rest }));
    const out = join(dir, 'partial');
    const r = runCli(['bench', ...SELECT, '--out', out, '--reduce', partial]);
    expect(r.status, r.stderr).toBe(0);
    const skipped = results(out).benchmarks.find((x) => x.id === first);
    expect(skipped).toMatchObject({ status: 'skipped', reason: 'not in the raw samples this run reduces' });
    expect(runCli(['bench', ...SELECT, '--runs', '3', '--reduce', partial]).stderr).toContain(
      '--reduce measures nothing: --runs',
    );
  });
});
