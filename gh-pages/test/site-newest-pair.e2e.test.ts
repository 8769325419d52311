// Compare opens on the site build's comparison of the two newest commits (newest-pair.json): no
// run file is fetched, and the table is the one the page draws when it compares the two runs
// itself, which it does when the file is of another pair or of other noise thresholds.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../harness/src/formats/parts/store-layout.js';
import { buildSite, serveSite } from '../../harness/src/site/build-site.js';
import { launch } from './browser.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FAST = 'bench-fast-0a1b2c3d';
const tmp = mkdtempSync(join(tmpdir(), 'jsio-site-newest-pair-'));
let browser: BrowserContext;

/** A copy of the fixture store with the fast machine calibrated at `threshold` for every wall time. */
function store(name: string, threshold: number): string {
  const dir = join(tmp, name);
  cpSync(join(import.meta.dirname, 'fixtures', 'store'), dir, { recursive: true });
  const run = JSON.parse(readFileSync(join(dir, FAST, 'runs', '1029'.padEnd(40, 'f'), 'standard.json'), 'utf8'));
  const thresholds = Object.fromEntries(run.benchmarks.map((b: { id: string }) => [`${b.id} wall_time`, threshold]));
  const noise = { schema: 2, machine: FAST, created: '2026-10-01T00:00:00Z', method: 'paired', repeats: 6, thresholds };
  writeFileSync(join(dir, paths.noise(FAST)), JSON.stringify(noise));
  return dir;
}

async function site(name: string, threshold: number): Promise<string> {
  const out = join(tmp, `${name}-site`);
  await buildSite(ROOT, store(name, threshold), out);
  return out;
}

/** Compare's first view: its table and summary, and the JSON files the page asked for. */
async function compareView(dir: string) {
  const server = await serveSite(dir);
  const page = await browser.newPage();
  const files: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => files.push(r.url().slice(server.url.length)));
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  await page.goto(`${server.url}#/compare`);
  await page.waitForSelector('body[data-rendered="compare"]');
  const table = await page.innerHTML('#table');
  await page.close();
  server.close();
  return {
    table,
    runs: files.filter((f) => f.includes('/runs/')),
    pair: files.some((f) => f.endsWith('newest-pair.json')),
    errors,
  };
}

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe("Compare's first view", () => {
  it('is drawn from the build: no run fetched, the same table as compared in the page', async () => {
    const built = await site('built', 0.04);
    const fromBuild = await compareView(built);
    expect(fromBuild).toMatchObject({ runs: [], pair: true, errors: [] });
    expect(fromBuild.table).toContain('within noise');
    // The same site, its file naming another pair: the page compares the two runs itself.
    const other = join(tmp, 'other-site');
    cpSync(built, other, { recursive: true });
    const file = join(other, 'data', paths.newestPair(FAST, 'standard'));
    const pair = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...pair, base: pair.head, head: pair.base }));
    const inPage = await compareView(other);
    expect(inPage.runs).toHaveLength(2);
    expect(inPage.table).toBe(fromBuild.table);
  });

  it('is compared in the page when the thresholds changed after the build (a calibration)', async () => {
    const stale = await site('stale', 0.04);
    const fresh = await site('fresh', 0.5);
    const before = await compareView(stale);
    cpSync(join(fresh, 'data', paths.noise(FAST)), join(stale, 'data', paths.noise(FAST)));
    const [after, truth] = [await compareView(stale), await compareView(fresh)];
    expect(after.runs).toHaveLength(2);
    expect(truth.runs).toEqual([]);
    expect(after.table).toBe(truth.table);
    expect(after.table).not.toBe(before.table);
  });
});
