// The PR diff reuses the base's counts, as pr.yml runs it: `npm run bench` with a store counts
// C's wc and records points under the real Valgrind and keeps them under their keys; `npm run
// pairs --count-store` between a base with the same programs and a head that adds work to wc's C
// then counts only the heads (the bases come from the store, the records control's live head
// re-checks its stored base); a planted wrong stored count is caught by that re-check, and every
// base is then counted live; a malformed store is refused before anything runs. No timing
// assertion: the counts decide here.
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CountStoreFile } from '../../src/formats/count-store-format.js';
import { PairRecordDocument } from '../../src/formats/pair-record-format.js';
import { PairsComparison } from '../../src/formats/pairs-format.js';
import { ROOT, runCli, runPairs } from '../helpers/cli.js';
import { editProgram, programCheckout } from '../helpers/program-checkout.js';

const SELECT = [
  ...['--profile', 'smoke', '--experiments', 'wc,records', '--variants', 'c', '--param', 'bs=16384,65536'],
  ...['--param', 'op=write', '--param', 'record=4096', '--param', 'cache=warm'],
];
const WC = ['wc/c/bs=16384', 'wc/c/bs=65536'];
const CONTROL = 'records/c/cache=warm,op=write,record=4096';

/** A checkout with this tree's package files too: the records generator's identity reads them, as main's bench did. */
function checkout(name: string): string {
  const dir = programCheckout(name);
  for (const f of ['package.json', 'package-lock.json']) cpSync(join(ROOT, f), join(dir, f));
  return dir;
}

function diff(base: string, head: string, store: string, budget = '1') {
  const out = mkdtempSync(join(tmpdir(), 'jsio-stored-base-out-'));
  // A minute of budget: its third is the counting share, room for three points on a loaded machine.
  const r = runPairs({ base, head, out, budget, seed: 5 }, [
    ...['--control', '1', '--noise-store', join(out, 'none'), '--count-store', store, ...SELECT],
  ]);
  expect(r.status, r.stderr).toBe(0);
  const c = PairsComparison.parse(JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')));
  const record = PairRecordDocument.parse(JSON.parse(readFileSync(join(out, 'pairs.json'), 'utf8')));
  const md = readFileSync(join(out, 'comparison.md'), 'utf8');
  return { c, record, md, stderr: r.stderr };
}

const work = (d: ReturnType<typeof diff>, id: string) => d.c.points.find((p) => p.benchmark === id)?.work;
const source = (d: ReturnType<typeof diff>, id: string) => d.record.counts.find((c) => c.benchmark === id)?.source;

describe('the PR diff takes the base counts from the store where their keys match', () => {
  const store = mkdtempSync(join(tmpdir(), 'jsio-stored-base-store-'));
  const countsFile = () => {
    const machine = readdirSync(store).find((d) => d !== 'machines.json')!;
    return join(store, machine, 'counts.json');
  };
  let base: string;
  let head: string;
  let reused: ReturnType<typeof diff>;
  let planted: ReturnType<typeof diff>;
  let plantedRuns: number[];
  // A bench and two whole diffs with counts: minutes on a loaded 2-core machine.
  beforeAll(() => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-stored-base-bench-'));
    const b = runCli(['bench', ...SELECT, '--counts', 'all', '--store', store, '--out', out]);
    expect(b.status, b.stderr).toBe(0);
    base = checkout('base');
    head = checkout('more');
    editProgram(head, 'wc/wc-c.c', (s) =>
      s.replace('reads++;', 'reads++;\n      { static volatile unsigned long sink; sink += 1; sink += 2; }'),
    );
    reused = diff(base, head, store);
    // The re-check's point is the control: its stored count made wrong by half again.
    const stored = JSON.parse(readFileSync(countsFile(), 'utf8')) as CountStoreFile;
    const [key, control] = Object.entries(stored.counts).find(([, c]) => c.id === CONTROL)!;
    plantedRuns = control.runs.map((r) => Math.round(r.instructions * 1.5));
    stored.counts[key] = { ...control, runs: control.runs.map((r, i) => ({ ...r, instructions: plantedRuns[i]! })) };
    writeFileSync(countsFile(), JSON.stringify(stored));
    // Two minutes: the heads counted with the stored bases, then all six sides again live (22 s
    // of counting at load 6, past a one-minute budget's 20 s share: a side left uncounted).
    planted = diff(base, head, store, '2');
  }, 900_000);

  it("only the heads are counted: every base's count is the stored one, re-checked by the control's live head", () => {
    expect(reused.c.counts).toMatchObject({ trusted: true, counted: 3, notCounted: 0 });
    expect(reused.c.counts?.storedBase).toEqual({
      store: 'used',
      taken: 3,
      rechecked: [{ benchmark: CONTROL, family: 'native', by: 'head', agreed: true }],
    });
    for (const id of [...WC, CONTROL]) {
      expect(work(reused, id), id).toMatchObject({ status: 'counted', baseStored: { commit: expect.any(String) } });
      expect(source(reused, id)).toEqual({ base: 'stored', head: 'counted' });
    }
    expect(reused.stderr).toMatch(/counts: 3 of 3 points counted on both sides in \d+ s, 3 of their bases taken/);
  });

  it('a stored base against a live head still decides: two additions per read are work changed, exact', () => {
    for (const id of WC) expect(work(reused, id), id).toMatchObject({ verdict: 'changed', spread: 0 });
    expect(reused.md).toMatch(/the base's count from the stored counts \(counted at [0-9a-f]{12}\)/);
    expect(reused.md).toMatch(/Base counts: 3 of 3 taken from this machine's stored counts/);
  });

  it('a planted wrong stored count: the re-check disagrees, and every base of its family is counted live', () => {
    expect(planted.c.counts?.storedBase).toEqual({
      store: 'used',
      taken: 0,
      rechecked: [{ benchmark: CONTROL, family: 'native', by: 'head', agreed: false }],
    });
    expect(planted.stderr).toMatch(/the stored base counts of native were not confirmed live here/);
    for (const id of [...WC, CONTROL]) {
      expect(work(planted, id)).not.toHaveProperty('baseStored');
      expect(source(planted, id)).toEqual({ base: 'counted', head: 'counted' });
    }
    // The control counted live on both sides agrees with itself; the planted count is nowhere.
    const control = work(planted, CONTROL);
    expect(control).toMatchObject({ status: 'counted', verdict: 'same' });
    if (control?.status === 'counted') expect(control.base).not.toEqual(plantedRuns);
    expect(planted.c.counts?.trusted).toBe(true);
    for (const id of WC) expect(work(planted, id)).toMatchObject({ verdict: 'changed' });
  });

  it('a malformed store file is refused before anything runs, naming the file and the field', () => {
    const bad = mkdtempSync(join(tmpdir(), 'jsio-stored-base-bad-'));
    const machine = readdirSync(store).find((d) => d !== 'machines.json')!;
    cpSync(join(store, machine), join(bad, machine), { recursive: true });
    const file = join(bad, machine, 'counts.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as CountStoreFile;
    const [key] = Object.keys(stored.counts);
    (stored.counts[key!]!.runs[0] as { instructions: unknown }).instructions = 'many';
    writeFileSync(file, JSON.stringify(stored));
    const out = mkdtempSync(join(tmpdir(), 'jsio-stored-base-out-'));
    const r = runPairs({ base, head, out, budget: '1', seed: 5 }, ['--count-store', bad, ...SELECT]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`refusing the stored counts (--count-store): ${file} is invalid`);
    expect(r.stderr).toContain(`counts.${key}.runs.0.instructions`);
    expect(readdirSync(out)).toEqual([]);
  });
});
