// The committed fixture store is exactly what the generator writes (regenerate with
// UPDATE_FIXTURES=1 npx vitest run gh-pages/test/fixture-store.test.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { writeFixtureStore } from './fixture-store.js';

const committed = join(import.meta.dirname, 'fixtures', 'store');
const files = (d: string) =>
  readdirSync(d, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.json'))
    .sort();

it('matches the generator', async () => {
  if (process.env.UPDATE_FIXTURES) {
    rmSync(committed, { recursive: true, force: true });
    await writeFixtureStore(committed);
  }
  const fresh = mkdtempSync(join(tmpdir(), 'jsio-fixture-'));
  await writeFixtureStore(fresh);
  expect(files(fresh)).toEqual(files(committed));
  for (const f of files(fresh))
    expect(readFileSync(join(fresh, f), 'utf8'), f).toBe(readFileSync(join(committed, f), 'utf8'));
});
