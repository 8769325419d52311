// The Runtimes view in a real browser (Debian's chromium via playwright-core): a store with a few
// measured Node 22 and Bun releases and one confirmed change, some strings in it hostile. Charts
// per line and suite point in version order with dates, C as the reference line, the change
// marked and listed, permalinks, and nothing from the data ever becomes markup.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASES_SCHEMA } from '../../harness/src/model/store-layout.js';
import type { ReleaseChange, ReleaseEntry } from '../../harness/src/releases/model/release-store.js';
import { publishRelease, writeReleaseChanges } from '../../harness/src/releases/store/release-files.js';
import { buildSite } from '../../harness/src/site/build-site.js';
import { launch } from './browser.js';
import { writeFixtureStore } from './fixture-store.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MACHINE = 'bench-fast-0a1b2c3d';
const HOSTILE = '<img src=x onerror="window.__pwned=1">';
let server: Server;
let site = '';
let tmp = '';
let url = '';
let browser: BrowserContext;
const errors: string[] = [];

function entry(family: 'node' | 'bun', version: string, date: string, cost: number): ReleaseEntry {
  const v = (variant: string, value: number, reference: boolean) => ({
    experiment: 'wc',
    variant,
    params: { bs: 65536 },
    metric: 'read_cost',
    unit: 'ns',
    direction: 'smaller' as const,
    value,
    reference,
  });
  return {
    family,
    line: family === 'node' ? 'node22' : 'bun',
    version,
    date,
    profile: 'standard',
    measured: '2026-11-24T12:00:00.000Z',
    commit: 'a'.repeat(40),
    experiments: ['wc'],
    problems: [],
    values: [v('readsync', cost, false), v('c', 9000, true)],
  };
}

const change: ReleaseChange = {
  family: 'node',
  line: 'node22',
  experiment: 'wc',
  variant: 'readsync',
  params: { bs: 65536 },
  metric: 'read_cost',
  unit: 'ns',
  direction: 'smaller',
  from: '22.4.1',
  to: '22.5.0',
  fromDate: '2024-07-08T00:00:00.000Z',
  toDate: '2024-07-17T00:00:00.000Z',
  ratio: 1.18,
  status: 'confirmed',
  confirmation: { pairs: 24, change: 0.17, ci: [0.12, 0.22], verdict: 'slower', date: '2026-11-24T12:00:00.000Z' },
  profile: {
    tool: 'v8-cpu-prof',
    functions: [
      { name: 'readSync (node:fs:735)', before: 12.5, after: 19.5 },
      { name: HOSTILE, before: 1, after: 0 },
    ],
  },
  text: `node 22.4.1 → 22.5.0: wc readsync bs 65536 read_cost +17% (95% CI +12% … +22%), confirmed by 24 pairs (the release timeline showed +18%) ${HOSTILE}`,
};

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'jsio-site-runtimes-'));
  const store = join(tmp, 'store');
  await writeFixtureStore(store, 3);
  const releases = [
    entry('node', '22.4.0', '2024-07-02T00:00:00.000Z', 20_000),
    entry('node', '22.4.1', '2024-07-08T00:00:00.000Z', 20_100),
    entry('node', '22.5.0', '2024-07-17T00:00:00.000Z', 23_600),
    entry('node', '22.10.0', '2024-10-16T00:00:00.000Z', 23_500),
    entry('bun', '1.3.11', '2026-03-20T00:00:00.000Z', 12_000),
    entry('bun', '1.4.0', '2026-08-20T00:00:00.000Z', 11_900),
  ];
  for (const r of releases) await publishRelease(store, MACHINE, r, new Map());
  await writeReleaseChanges(store, MACHINE, {
    schema: RELEASES_SCHEMA,
    machine: MACHINE,
    changes: [change],
    candidates: [],
  });
  site = join(tmp, 'site');
  await buildSite(ROOT, store, site);
  server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const file = join(site, path === '/' ? 'index.html' : path);
    readFile(file).then(
      (b) =>
        res
          .writeHead(200, {
            'content-type': file.endsWith('.js')
              ? 'text/javascript'
              : file.endsWith('.html')
                ? 'text/html'
                : 'application/json',
          })
          .end(b),
      () => res.writeHead(404).end(),
    );
  });
  url = await new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as { port: number }).port}/`)),
  );
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function open(hash: string): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${url}${hash}`);
  await page.waitForSelector('body[data-rendered="runtimes"]');
  return page;
}

describe('the Runtimes view', () => {
  it('draws one chart per line, releases in version order with their dates, C beside them, the change marked', async () => {
    const page = await open(`#/runtimes?machine=${MACHINE}`);
    const titles = await page.locator('.chart.runtime h3').allInnerTexts();
    expect(titles).toEqual(['bun: readsync (bs 65536)', 'node22: readsync (bs 65536)']);
    const node = page.locator('.chart.runtime').nth(1);
    const ticks = await node.locator('text.tick[text-anchor="end"][transform]').allTextContents();
    expect(ticks).toEqual([
      '22.4.0 · 2024-07-02',
      '22.4.1 · 2024-07-08',
      '22.5.0 · 2024-07-17',
      '22.10.0 · 2024-10-16',
    ]);
    expect(await node.locator('polyline.reference').count()).toBe(1);
    // A confirmed change is labelled with its paired size, not the timeline's step (+18%).
    expect(await node.locator('g.change.worse text').textContent()).toBe('+17.0%');
    expect(await page.locator('.chart.runtime').nth(0).locator('g.change').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('lists confirmed changes as text, escaped, with the JSON beside them', async () => {
    const page = await open(`#/runtimes?machine=${MACHINE}`);
    const item = await page.locator('ul.release-changes > li').innerText();
    expect(item).toContain('node 22.4.1 → 22.5.0: wc readsync bs 65536 read_cost +17% (95% CI');
    expect(item).toContain(HOSTILE);
    const profile = page.locator('ul.release-changes details.release-profile');
    expect(await profile.locator('summary').innerText()).toBe("profile: the runtime's V8 profiler (--cpu-prof)");
    await profile.locator('summary').click();
    expect(await profile.locator('li').first().innerText()).toBe('readSync (node:fs:735): 12.5 ms → 19.5 ms');
    expect(await profile.locator('li').nth(1).innerText()).toContain(HOSTILE);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('a', { hasText: 'this list as JSON' }).getAttribute('href')).toBe(
      `data/releases/${MACHINE}/changes.json`,
    );
  });

  it('a chart permalink opens that chart highlighted', async () => {
    const page = await open(`#/runtimes?machine=${MACHINE}`);
    const link = await page.locator('.chart.runtime h3 a').nth(1).getAttribute('href');
    expect(link).toContain('chart=');
    const again = await open(link!);
    expect(await again.locator('.chart.runtime.highlight h3').innerText()).toBe('node22: readsync (bs 65536)');
  });
});
