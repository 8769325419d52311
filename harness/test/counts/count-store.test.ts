// A machine's stored counts are read like every store file: a missing file is an empty store of
// counts, a crafted one is refused naming the file and the field (before a bench measures), and a
// newer version is refused by its number.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCountStore, writeCountStore } from '../../src/counts/count-store.js';
import { checkStore } from '../../src/store/check.js';

const entry = {
  id: 'wc/c/bs=65536',
  family: 'native',
  runs: [{ size: 'small', instructions: 120763, x: 256 }],
  commit: 'unknown',
  counted: '2026-11-28T23:00:00Z',
  checks: 0,
};

/** A store as publishing leaves it: machines.json at the top (counts are written beside a published run). */
function storeDir(): string {
  const store = mkdtempSync(join(tmpdir(), 'jsio-cs-'));
  writeFileSync(join(store, 'machines.json'), JSON.stringify({ schema: 4, machines: {} }));
  return store;
}

describe('the stored counts file', () => {
  it('is empty when absent, and reads back what was written', () => {
    const store = storeDir();
    expect(readCountStore(store, 'vm-1')).toEqual({ schema: 1, counts: {} });
    writeCountStore(store, 'vm-1', { schema: 1, counts: { abc: entry as never } });
    expect(readCountStore(store, 'vm-1').counts.abc?.runs[0]?.instructions).toBe(120763);
    expect(() => checkStore(store)).not.toThrow();
  });

  it('a negative count or a newer version is refused, naming the file and the field', () => {
    const store = storeDir();
    mkdirSync(join(store, 'vm-1'));
    const file = join(store, 'vm-1', 'counts.json');
    const bad = { ...entry, runs: [{ size: 'small', instructions: -5 }] };
    writeFileSync(file, JSON.stringify({ schema: 1, counts: { abc: bad } }));
    expect(() => checkStore(store)).toThrow(/counts\.json.*\n.*counts\.abc\.runs\.0\.instructions/s);
    writeFileSync(file, JSON.stringify({ schema: 2, counts: {} }));
    expect(() => readCountStore(store, 'vm-1')).toThrow(/counts\.json.*schema 2/s);
  });
});
