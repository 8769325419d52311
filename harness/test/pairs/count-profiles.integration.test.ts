// Main counts the pull requests' profile too (bench --count-profiles, as bench.yml runs it): a
// bench at the smoke profile also counts, untimed, the quick profile's points (their counted sizes
// are quick's, so their keys are others than smoke's), once per key; a paired diff at the quick
// profile (pr.yml's) then takes every base count from the store and counts only the heads. The
// counting budget is shared, the run's own points first, and what waits says so. The counts decide
// here, under the real Valgrind; no timing assertion.
import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CountStoreFile } from '../../src/formats/count-store-format.js';
import { PairRecordDocument } from '../../src/formats/pair-record-format.js';
import { PairsComparison } from '../../src/formats/pairs-format.js';
import type { Results } from '../../src/formats/results-format.js';
import { ROOT, runCli, runPairs } from '../helpers/cli.js';
import { editProgram, programCheckout } from '../helpers/program-checkout.js';

const SELECT = [
  ...['--experiments', 'wc,records', '--variants', 'c', '--param', 'bs=65536'],
  ...['--param', 'op=write', '--param', 'record=4096', '--param', 'cache=warm'],
];
const WC = 'wc/c/bs=65536';
const CONTROL = 'records/c/cache=warm,op=write,record=4096';

function bench(store: string, more: string[] = []) {
  const out = mkdtempSync(join(tmpdir(), 'jsio-count-profiles-bench-'));
  const r = runCli([
    'bench',
    '--profile',
    'smoke',
    ...SELECT,
    '--counts',
    'all',
    '--store',
    store,
    '--out',
    out,
    ...more,
  ]);
  expect(r.status, r.stderr).toBe(0);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
  return { results, stderr: r.stderr };
}

function storedCounts(store: string) {
  const machine = readdirSync(store).find((d) => d !== 'machines.json')!;
  return CountStoreFile.parse(JSON.parse(readFileSync(join(store, machine, 'counts.json'), 'utf8'))).counts;
}

/** A checkout with this tree's package files too: the records generator's identity reads them, as main's bench did. */
function checkout(name: string): string {
  const dir = programCheckout(name);
  for (const f of ['package.json', 'package-lock.json']) cpSync(join(ROOT, f), join(dir, f));
  return dir;
}

describe('bench --count-profiles refuses what it cannot keep', () => {
  it('needs a store to keep the counts in, no --recount, and profiles it knows, before measuring anything', () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-count-profiles-refused-'));
    const common = ['bench', '--profile', 'smoke', ...SELECT, '--out', out];
    const noStore = runCli([...common, '--no-store', '--count-profiles', 'quick']);
    expect(noStore.status).toBe(2);
    expect(noStore.stderr).toContain('--count-profiles keeps counts for later runs: it needs a store');
    const recount = runCli([...common, '--recount', '--count-profiles', 'quick']);
    expect(recount.status).toBe(2);
    const typo = runCli([...common, '--no-store', '--count-store', out, '--count-profiles', 'quik']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('--count-profiles quik: "quik" is not a profile');
    expect(readdirSync(out)).toEqual([]);
  });
});

describe("bench --count-profiles counts the pull requests' profile once per key; the diff at that profile takes its bases", () => {
  const store = mkdtempSync(join(tmpdir(), 'jsio-count-profiles-store-'));
  let first: ReturnType<typeof bench>;
  let again: ReturnType<typeof bench>;
  let tight: ReturnType<typeof bench>;
  let diff: { c: PairsComparison; record: PairRecordDocument; stderr: string };
  // Three smoke benches with counts and a quick diff: minutes on a loaded 2-core machine.
  beforeAll(() => {
    first = bench(store, ['--count-profiles', 'quick']);
    again = bench(store, ['--count-profiles', 'quick']);
    tight = bench(mkdtempSync(join(tmpdir(), 'jsio-count-profiles-tight-')), [
      ...['--count-profiles', 'quick', '--count-budget', '1'],
    ]);
    const [base, head] = [checkout('base'), checkout('more')];
    editProgram(head, 'wc/wc-c.c', (s) =>
      s.replace('reads++;', 'reads++;\n      { static volatile unsigned long sink; sink += 1; sink += 2; }'),
    );
    const out = mkdtempSync(join(tmpdir(), 'jsio-count-profiles-diff-'));
    const r = runPairs({ base, head, out, budget: '1', seed: 5 }, [
      ...['--control', '1', '--noise-store', join(out, 'none'), '--count-store', store],
      ...['--profile', 'quick', ...SELECT],
    ]);
    expect(r.status, r.stderr).toBe(0);
    diff = {
      c: PairsComparison.parse(JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'))),
      record: PairRecordDocument.parse(JSON.parse(readFileSync(join(out, 'pairs.json'), 'utf8'))),
      stderr: r.stderr,
    };
  }, 1_200_000);

  it("counts the other profile's points beside the run's own, under their own keys, and says so in the run", () => {
    expect(first.results.run.counting).toMatchObject({
      counted: 2,
      profiles: [{ profile: 'quick', reused: 0, counted: 2, deferred: 0, failed: 0 }],
    });
    // Two keys per point: smoke's sizes and quick's.
    const ids = Object.values(storedCounts(store)).map((c) => c.id);
    expect(ids.sort()).toEqual([CONTROL, CONTROL, WC, WC]);
    // The quick points were not timed: the run's results hold its own smoke points only.
    expect(first.results.benchmarks.map((b) => b.id).sort()).toEqual([CONTROL, WC]);
    expect(first.stderr).toMatch(/counts of the quick profile: 0 of its points' keys stored, 2 counted in \d+ s/);
  });

  it('counts them once per key: the same commit again counts none of them', () => {
    expect(again.results.run.counting?.profiles).toEqual([
      { profile: 'quick', reused: 2, counted: 0, deferred: 0, failed: 0 },
    ]);
    expect(Object.keys(storedCounts(store))).toHaveLength(4);
  });

  it("shares the budget, the run's own new points first; what waits is said", () => {
    expect(tight.results.run.counting).toMatchObject({ deferred: 1, budget: 1 });
    expect(tight.results.run.counting?.profiles).toEqual([
      { profile: 'quick', reused: 0, counted: 0, deferred: 2, failed: 0 },
    ]);
    expect(tight.stderr).toContain("counts of the quick profile: 0 of its points' keys stored, 0 counted");
    expect(tight.stderr).toContain(
      '2 new key(s) left for a later run: the counting budget of new points per run was spent',
    );
  });

  it('the diff at the quick profile takes every base count from the store and counts only the heads', () => {
    expect(diff.c.counts?.storedBase).toEqual({
      store: 'used',
      taken: 2,
      rechecked: [{ benchmark: CONTROL, family: 'native', by: 'head', agreed: true }],
    });
    for (const id of [WC, CONTROL])
      expect(diff.record.counts.find((c) => c.benchmark === id)?.source, id).toEqual({
        base: 'stored',
        head: 'counted',
      });
    expect(diff.c.points.find((p) => p.benchmark === WC)?.work).toMatchObject({
      status: 'counted',
      verdict: 'changed',
    });
  });
});
