// Stored files of the previous schema (a committed v1 store) are migrated when read, and the
// next publish writes the current version without losing the old commits.
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IndexFile, SeriesFile, STORE_SCHEMA } from '../src/model/store.js';
import { migrate } from '../src/store/migrate.js';
import { publishRun } from '../src/store/store.js';
import { FIXTURES } from './helpers/cli.js';
import { wcResults } from './helpers/results.js';

const V1 = join(FIXTURES, 'store-v1');
const M = 'bench-slow-4e5f6a7b';

describe('store migrations', () => {
  it('migrates a v1 series file: every old column gets an unknown definition', () => {
    const raw = JSON.parse(readFileSync(join(V1, M, 'series', 'wc.json'), 'utf8'));
    expect(raw.schema).toBe(1);
    const s = SeriesFile.parse(migrate('series', raw, STORE_SCHEMA));
    expect(s.schema).toBe(2);
    for (const e of Object.values(s.series)) expect(e.definitions).toEqual([null, null, null]);
  });

  it('publishes into a v1 store, keeping its commits and writing v2', async () => {
    const store = mkdtempSync(join(tmpdir(), 'jsio-mig-'));
    cpSync(V1, store, { recursive: true });
    const r = wcResults('e'.repeat(40));
    r.run.machine.id = M;
    r.run.commit.date = '2026-12-01T00:00:00Z';
    r.benchmarks = r.benchmarks.map((b) => ({ ...b, definition: 'def-now' }));
    await publishRun(store, r);
    const index = IndexFile.parse(JSON.parse(readFileSync(join(store, M, 'index.json'), 'utf8')));
    expect(index.schema).toBe(2);
    expect(index.commits).toHaveLength(4);
    const s = SeriesFile.parse(JSON.parse(readFileSync(join(store, M, 'series', 'wc.json'), 'utf8')));
    expect(s.commits).toHaveLength(4);
    expect(s.series['wc/c/bs=65536']?.definitions).toEqual([null, null, null, 'def-now']);
    expect(s.series['wc/c/bs=65536']?.metrics.wall_time?.values.slice(0, 3).every((v) => typeof v === 'number')).toBe(
      true,
    );
  });
});
