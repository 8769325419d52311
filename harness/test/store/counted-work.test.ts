// Counted work reaches the trend store: `instructions` and `instructions_per_op` are series of their
// own (never a timing's), each commit's count says whether it decides or is evidence, whether its
// repeats agreed and what settings it was counted with (store v4), and the run file keeps the
// whole `counts` record. A v3 store is read as it is and gains the new facts as it is published
// into; a file of a newer store is refused in one line.
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seriesKey } from '../../src/formats/parts/store-layout.js';
import type { Benchmark, Counts, Results } from '../../src/formats/results-format.js';
import { checkStore } from '../../src/store/check.js';
import { publishRun } from '../../src/store/publish-run.js';
import { FIXTURES } from '../helpers/cli.js';
import { wcResults } from '../helpers/results.js';
import { catalogOf, trendOf } from '../helpers/store.js';

const sha = (c: string) => c.repeat(40);
const tmp = () => mkdtempSync(join(tmpdir(), 'jsio-work-'));
const SETTINGS = 'V8 made predictable (--predictable --single-threaded)';

function counted(
  b: Benchmark,
  perRun: number,
  perOp: number,
  counts: Partial<Counts & { status: 'ok' }> = {},
): Benchmark {
  const metric = (value: number) => ({
    unit: 'instructions',
    direction: 'smaller' as const,
    value,
    deterministic: false,
    source: 'valgrind',
  });
  return {
    ...b,
    metrics: { ...b.metrics, instructions: metric(perRun), instructions_per_op: metric(perOp) },
    counts: {
      status: 'ok',
      settings: SETTINGS,
      role: 'decides',
      spread: 0,
      tolerance: 0.005,
      repeats: 1,
      deterministic: true,
      ...counts,
    },
  };
}

/** A wc run of commit c on day `day`; node-stream (node20) counted, its repeats agreeing or not. */
function run(c: string, day: number, agreed = true): Results {
  const r = wcResults(sha(c));
  r.schema = 2;
  r.run.commit.date = `2026-11-${String(day).padStart(2, '0')}T00:00:00Z`;
  r.benchmarks = r.benchmarks.map((b) => {
    const w = { ...b, workload: 'w', definition: `${b.variant}-p1` };
    if (b.id === 'wc/c/bs=65536') return counted(w, 118_804, 17.1);
    if (b.id === 'wc/node-stream/bs=65536,runtime=node20')
      return counted(w, 2.07e8, 74_269, agreed ? {} : { deterministic: false, spread: 0.012 });
    if (b.id === 'wc/dd-null/bs=65536')
      return counted(w, 353_618, 190, { role: 'evidence', because: 'the pipe decides its cost' });
    if (b.id === 'wc/node-stream/bs=65536,runtime=node22')
      return { ...w, counts: { status: 'unavailable', reason: 'valgrind is not installed' } };
    return w;
  });
  return r;
}

const NODE20 = seriesKey('wc/node-stream/bs=65536,runtime=node20', 'w', 'instructions');

describe('counted work in the store', () => {
  it('keeps the instruction metrics as series of their own, with each commit’s count facts', async () => {
    const store = tmp();
    await publishRun(store, run('a', 1));
    await publishRun(store, run('b', 2, false));
    await publishRun(store, run('c', 3));
    const metrics = catalogOf(store, 'smoke').experiments.wc!.metrics;
    expect(metrics.instructions_per_op).toMatchObject({ unit: 'instructions', source: 'valgrind' });
    expect(metrics.instructions).toMatchObject({ unit: 'instructions', source: 'valgrind' });
    const perOp = trendOf(store, 'smoke', 'wc', 'instructions_per_op');
    expect(perOp.series[NODE20]!.values).toEqual([74_269, 74_269, 74_269]);
    const decides = { role: 'decides', deterministic: true, settings: SETTINGS };
    expect(perOp.series[NODE20]!.counts).toEqual([decides, { ...decides, deterministic: false }, decides]);
    const ddNull = perOp.series[seriesKey('wc/dd-null/bs=65536', 'w', 'instructions')]!;
    expect(ddNull.counts![0]).toEqual({ ...decides, role: 'evidence', because: 'the pipe decides its cost' });
    // A point whose count was unavailable has no instruction series at all.
    expect(Object.keys(perOp.series).some((k) => k.includes('node22'))).toBe(false);
    // Run-length encoded as stored: three runs for node20 (agreed, not, agreed).
    const shard = JSON.parse(
      readFileSync(join(store, 'test-machine', 'trends', 'smoke', '0000', 'wc', 'instructions_per_op.json'), 'utf8'),
    );
    expect(shard.schema).toBe(4);
    expect(shard.series[NODE20].counts.map(([at]: [number]) => at)).toEqual([0, 1, 2]);
    // A timing's shard carries no count facts.
    const wall = trendOf(store, 'smoke', 'wc', 'wall_time');
    expect(Object.values(wall.series).every((s) => s.counts === undefined)).toBe(true);
    // The run file keeps the whole record (spread, tolerance, repeats).
    const stored = JSON.parse(
      readFileSync(join(store, 'test-machine', 'runs', sha('b'), 'smoke.json'), 'utf8'),
    ) as Results;
    expect(stored.benchmarks.find((b) => b.id === 'wc/node-stream/bs=65536,runtime=node20')!.counts).toMatchObject({
      deterministic: false,
      spread: 0.012,
      tolerance: 0.005,
    });
  });

  // docs/counts.md, "not measurable at this span": an older run's negative count per read is no cost.
  it('leaves a gap, never a negative point, where an older run holds a negative count per operation', async () => {
    const store = tmp();
    await publishRun(store, run('a', 1));
    const older = run('b', 2);
    older.benchmarks = older.benchmarks.map((b) =>
      b.id === 'wc/node-stream/bs=65536,runtime=node20' ? counted(b, 2.07e8, -212_126) : b,
    );
    await publishRun(store, older);
    await publishRun(store, run('c', 3));
    const perOp = trendOf(store, 'smoke', 'wc', 'instructions_per_op');
    expect(perOp.series[NODE20]!.values).toEqual([74_269, null, 74_269]);
    // The count per run of the same commit is a total, and stays.
    expect(trendOf(store, 'smoke', 'wc', 'instructions').series[NODE20]!.values).toEqual([2.07e8, 2.07e8, 2.07e8]);
  });

  it('reads a v3 store as it is and writes what it rewrites as v4', async () => {
    const store = tmp();
    cpSync(join(FIXTURES, 'site-stores', 'single'), store, { recursive: true });
    const machine = readdirSync(store).find((f) => f !== 'machines.json')!;
    const schemaOf = (f: string) => (JSON.parse(readFileSync(join(store, f), 'utf8')) as { schema: number }).schema;
    expect(schemaOf('machines.json')).toBe(3);
    checkStore(store);
    const r = run('d', 1);
    r.run.machine.id = machine;
    r.run.profile = 'quick';
    r.run.commit.date = '2030-01-01T00:00:00Z';
    await publishRun(store, r);
    checkStore(store);
    expect(schemaOf('machines.json')).toBe(4);
    expect(schemaOf(`${machine}/index.json`)).toBe(4);
    expect(schemaOf(`${machine}/trends/quick/catalog.json`)).toBe(4);
    // A shard this publish did not touch stays as it was, and is still read.
    expect(schemaOf(`${machine}/trends/quick/0000/scan/wall_time.json`)).toBe(3);
    const t = trendOf(store, 'quick', 'wc', 'instructions_per_op', machine);
    expect(t.series[NODE20]!.counts!.at(-1)).toMatchObject({ role: 'decides', deterministic: true });
  });

  it('refuses a file of a newer store in one line, without touching it', async () => {
    const store = tmp();
    await publishRun(store, run('a', 1));
    const file = join(store, 'test-machine', 'trends', 'smoke', 'catalog.json');
    const newer = readFileSync(file, 'utf8').replace('"schema":4', '"schema":5');
    writeFileSync(file, newer);
    await expect(publishRun(store, run('b', 2))).rejects.toThrow(/schema 5, newer than this harness understands \(4\)/);
    expect(() => checkStore(store)).toThrow(/schema 5, newer than this harness understands/);
    expect(readFileSync(file, 'utf8')).toBe(newer);
  });
});
