// A machine's stored traces, one file per commit: a run's traces are laid over the commit's file
// (another profile added, a point traced again replaced), the machines' traces of one point are
// joined (every path either saw), only the newest files are kept, and a crafted file is refused
// naming the file and the field, by the plan's reader and by the store check before a bench.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredTrace, TraceStoreFile } from '../../src/formats/trace-store-format.js';
import { checkStore } from '../../src/store/check.js';
import {
  joinTraces,
  mergeTraceFiles,
  storedTracesOf,
  storeTraces,
  TRACE_FILES_KEPT,
} from '../../src/store/trace-store.js';

const sha = (n: number) => n.toString(16).padStart(40, '0');
const trace = (paths: string[], traced = '2026-11-29T01:00:00.000Z'): StoredTrace => ({
  paths,
  listed: [],
  refusedWrites: [],
  traced,
});
const file = (commit: string, profiles: TraceStoreFile['profiles']): TraceStoreFile => ({
  schema: 2,
  commit,
  profiles,
});

function storeDir(): string {
  const store = mkdtempSync(join(tmpdir(), 'jsio-ts-'));
  writeFileSync(join(store, 'machines.json'), JSON.stringify({ schema: 4, machines: {} }));
  return store;
}

describe('stored traces', () => {
  it("a run's traces go over the commit's file: a new profile added, a point traced again replaced", () => {
    const a = file(sha(1), { quick: { 'wc/c/bs=1': trace(['programs/wc']), 'wc/c/bs=2': trace(['x']) } });
    const b = file(sha(1), { quick: { 'wc/c/bs=1': trace(['y']) }, standard: { 'wc/c/bs=1': trace(['z']) } });
    const m = mergeTraceFiles(a, b);
    expect(m.profiles.quick?.['wc/c/bs=1']?.paths).toEqual(['y']);
    expect(m.profiles.quick?.['wc/c/bs=2']?.paths).toEqual(['x']);
    expect(m.profiles.standard?.['wc/c/bs=1']?.paths).toEqual(['z']);
  });

  it("two machines' traces of a point join into every path either saw", () => {
    const j = joinTraces(
      { ...trace(['a', 'b'], '2026-01-01'), refusedWrites: ['w'] },
      { ...trace(['c', 'a'], '2026-02-01'), notFullyTraced: 'io_uring' },
    );
    expect(j).toEqual({
      paths: ['a', 'b', 'c'],
      listed: [],
      notFullyTraced: 'io_uring',
      refusedWrites: ['w'],
      traced: '2026-02-01',
    });
  });

  it("reads back per point the commit's traces of a profile from every machine, and passes the store check", () => {
    const store = storeDir();
    storeTraces(store, 'vm-1', file(sha(1), { quick: { 'wc/c/bs=1': trace(['a']) } }));
    storeTraces(store, 'vm-2', file(sha(1), { quick: { 'wc/c/bs=1': trace(['b']), 'wc/c/bs=2': trace(['c']) } }));
    const got = storedTracesOf(store, sha(1), 'quick');
    expect(got.files).toHaveLength(2);
    expect(got.byPoint.get('wc/c/bs=1')?.paths).toEqual(['a', 'b']);
    expect(got.byPoint.get('wc/c/bs=2')?.paths).toEqual(['c']);
    expect(storedTracesOf(store, sha(1), 'standard').byPoint.size).toBe(0);
    expect(storedTracesOf(store, sha(2), 'quick').byPoint.size).toBe(0);
    expect(() => checkStore(store)).not.toThrow();
  });

  it("a schema-1 file (the program's run only, no build or generator) is read as holding no point, and a run's traces replace it", () => {
    const store = storeDir();
    mkdirSync(join(store, 'vm-1', 'traces'), { recursive: true });
    const old = { ...file(sha(1), { quick: { 'wc/c/bs=1': trace(['a']) } }), schema: 1 };
    writeFileSync(join(store, 'vm-1', 'traces', `${sha(1)}.json`), JSON.stringify(old));
    expect(storedTracesOf(store, sha(1), 'quick').byPoint.size).toBe(0);
    expect(() => checkStore(store)).not.toThrow();
    storeTraces(store, 'vm-1', file(sha(1), { standard: { 'wc/c/bs=1': trace(['b']) } }));
    expect(storedTracesOf(store, sha(1), 'quick').byPoint.size).toBe(0);
    expect(storedTracesOf(store, sha(1), 'standard').byPoint.get('wc/c/bs=1')?.paths).toEqual(['b']);
  });

  it('keeps only the newest files of a machine', () => {
    const store = storeDir();
    for (let i = 0; i <= TRACE_FILES_KEPT; i++)
      storeTraces(
        store,
        'vm-1',
        file(sha(i + 1), { quick: { 'wc/c/bs=1': trace(['a'], new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString()) } }),
      );
    const kept = readdirSync(join(store, 'vm-1', 'traces'));
    expect(kept).toHaveLength(TRACE_FILES_KEPT);
    // The oldest one went.
    expect(kept).not.toContain(`${sha(1)}.json`);
    expect(kept).toContain(`${sha(TRACE_FILES_KEPT + 1)}.json`);
  });

  it('a crafted file is refused naming the file and the field, by the reader and by the store check', () => {
    const store = storeDir();
    mkdirSync(join(store, 'vm-1', 'traces'), { recursive: true });
    const bad = join(store, 'vm-1', 'traces', `${sha(1)}.json`);
    writeFileSync(
      bad,
      JSON.stringify(file(sha(1), { quick: { 'wc/c/bs=1': { ...trace(['a']), refusedWrites: [7] as never } } })),
    );
    expect(() => storedTracesOf(store, sha(1), 'quick')).toThrow(bad);
    expect(() => storedTracesOf(store, sha(1), 'quick')).toThrow('profiles.quick.wc/c/bs=1.refusedWrites.0');
    expect(() => checkStore(store)).toThrow('profiles.quick.wc/c/bs=1.refusedWrites.0');
    // The plan reads every stored path in both checkouts: none may lead out of them.
    writeFileSync(bad, JSON.stringify(file(sha(1), { quick: { 'wc/c/bs=1': trace(['programs/../../etc/passwd']) } })));
    expect(() => storedTracesOf(store, sha(1), 'quick')).toThrow(
      'profiles.quick.wc/c/bs=1.paths.0: a path inside the checkout',
    );
    writeFileSync(bad, JSON.stringify({ ...file(sha(1), {}), schema: 3 }));
    expect(() => storedTracesOf(store, sha(1), 'quick')).toThrow(/schema|version/);
  });
});
