// The site in a real browser (Debian's chromium via playwright-core) against the committed
// fixture store, served from a sub-path like GitHub Pages project sites.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../harness/src/site/build-site.js';
import { launch } from './browser.js';
import { fixtureRun, writeFixtureStore } from './fixture-store.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const SUB = '/jsio-bench/';

let server: Server;
let base: string;
let browser: BrowserContext;
let errors: string[] = [];
/** Every URL the pages requested: nothing may come from another origin. */
const requested: string[] = [];
const sites: Record<string, string> = {};

/** Serves several built sites under /<name>/jsio-bench/ (a project-site sub-path). */
function serve(): Promise<string> {
  server = createServer((req, res) => {
    const [, name, ...rest] = decodeURIComponent((req.url ?? '/').split('?')[0]!).split('/');
    const dir = sites[name ?? ''];
    const path = `/${rest.join('/')}`;
    if (!dir || !path.startsWith(SUB)) return void res.writeHead(404).end();
    const file = join(dir, path.slice(SUB.length) || 'index.html');
    readFile(file.endsWith('/') ? join(file, 'index.html') : file).then(
      (b) =>
        res
          .writeHead(200, {
            'content-type': file.endsWith('.js')
              ? 'text/javascript'
              : file.endsWith('.css')
                ? 'text/css'
                : file.endsWith('.html')
                  ? 'text/html'
                  : 'application/json',
          })
          .end(b),
      () => res.writeHead(404).end(),
    );
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as { port: number }).port}`)),
  );
}

async function open(site: string, hash = ''): Promise<Page> {
  const page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(`${base}/${site}${SUB}${hash}`);
  return page;
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'jsio-site-'));
  sites.good = join(tmp, 'good');
  await buildSite(ROOT, join(import.meta.dirname, 'fixtures', 'store'), sites.good);
  // The first machine is calibrated: Compare calls a change only beyond a calibrated threshold.
  const thresholds: Record<string, number> = {};
  for (const b of fixtureRun(1, 0).benchmarks)
    for (const [name, metric] of Object.entries(b.metrics)) if (metric.samples) thresholds[`${b.id} ${name}`] = 0.05;
  writeFileSync(
    join(sites.good, 'data', 'bench-fast-0a1b2c3d', 'noise.json'),
    JSON.stringify({
      schema: 1,
      machine: 'bench-fast-0a1b2c3d',
      created: '2026-10-01T00:00:00Z',
      rounds: 6,
      thresholds,
    }),
  );
  sites.empty = join(tmp, 'empty');
  await buildSite(ROOT, join(tmp, 'no-store'), sites.empty);
  sites.broken = join(tmp, 'broken');
  await buildSite(ROOT, join(import.meta.dirname, 'fixtures', 'store'), sites.broken);
  writeFileSync(
    join(sites.broken, 'data', 'bench-fast-0a1b2c3d', 'trends', 'standard', 'catalog.json'),
    '{"schema":3,"windows":[{"id":',
  );
  sites.one = join(tmp, 'one');
  await writeFixtureStore(join(tmp, 'one-store'), 1);
  await buildSite(ROOT, join(tmp, 'one-store'), sites.one);
  base = await serve();
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  expect(requested.filter((u) => !u.startsWith(`${base}/`) && !u.startsWith('data:'))).toEqual([]);
});

describe('the trend site', () => {
  it('overview: findings, problems with reasons, machine and toolchains', async () => {
    errors = [];
    const page = await open('good');
    await page.waitForSelector('body[data-rendered="overview"]');
    const text = await page.innerText('main');
    expect(text).toContain('wc: the cost of a read() system call');
    // Each experiment leads with its picture (the manifest's `overview`) and a computed answer.
    for (const e of ['wc', 'streams', 'threadpool'])
      expect(await page.locator(`section[data-experiment="${e}"] .picture canvas`).count(), e).toBeGreaterThan(0);
    expect(await page.innerText('section[data-experiment="wc"] .answer-line')).toMatch(
      /^At 64 KiB, throughput is 1\.\d\dx of C's for bun and 0\.\d\dx for node-stream \(node22\)\.$/,
    );
    expect(await page.innerText('section[data-experiment="streams"] .answer-line')).toMatch(
      /^Async: each added transform costs 9\d\d\.\d µs \(core-transform \(node22\)\); sync: each added transform costs 3\d\d\.\d µs \(core-transform \(node22\)\)\.$/,
    );
    expect(await page.innerText('section[data-experiment="threadpool"] .answer-line')).toMatch(
      /^Warm: from 1 thread to 12 threads, p50 latency changes 0\.\d\dx \(c-pool\)\.$/,
    );
    // The tables stay, folded under the chart: the harness's summary model, ratios to C.
    for (const e of ['wc', 'threadpool']) await page.click(`section[data-experiment="${e}"] details.tables > summary`);
    const wcRows = await page.locator('section[data-experiment="wc"] details.tables tbody tr').allInnerTexts();
    expect(wcRows.find((r) => r.startsWith('node-stream (node22)'))).toMatch(/\t0\.\d\dx$/);
    expect(text).toContain('just(js) is not installed');
    expect(text).toContain('wrong result: bytes = 1, expected 2');
    expect(text).toContain('Fast CPU 9000');
    expect(text).toContain('hyperfine 1.20.0');
    // Ratios against the same variant at another parameter value; a variant without the
    // parameter (Bun has no pool size) is labelled and gets no ratio.
    const rows = await page.locator('section[data-experiment="threadpool"] details.tables tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t')[0])).toEqual([
      'c-pool (pool 1)',
      'c-pool (pool 4)',
      'c-pool (pool 12)',
      'bun (pool n/a)',
    ]);
    expect(rows.map((r) => r.split('\t').at(-1))).toEqual(
      ['4.00x', '1.00x', '1.00x', '—'].map((x, i) =>
        i === 0 ? expect.stringMatching(/^[34]\.\d\dx$/) : i === 2 ? expect.stringMatching(/^(0\.9\d|1\.0\d)x$/) : x,
      ),
    );
    expect(await page.innerText('section[data-experiment="threadpool"] details.tables thead')).toContain(
      'p50 latency vs pool 4',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'site-overview.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('trends: non-empty charts, hover tooltip, the planted change point listed, log toggle', async () => {
    errors = [];
    const page = await open('good', '#/trends?machine=bench-fast-0a1b2c3d&experiment=wc&metric=wall_time');
    await page.waitForSelector('body[data-rendered="trends"]');
    await page.waitForSelector('.chart canvas');
    const charts = await page.locator('.chart canvas').count();
    expect(charts).toBeGreaterThanOrEqual(2);
    const changes = await page.innerText('#changes');
    expect(changes).toMatch(
      /node-stream \(node22\): ×1\.2\d\d \(worse\) at 1020f+ Switch stream reads to a slower path/,
    );
    // bun's program changed at commit 25: its step is found like any other, and marked.
    expect(changes).toMatch(/bun: ×0\.7\d\d \(better\) at 1025f+ Commit number 25 \(program changed here\)/);
    const over = page.locator('.chart .u-over').first();
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2);
    const tip = page.locator('.chart .tooltip').first();
    await tip.waitFor({ state: 'visible' });
    expect(await tip.innerText()).toMatch(
      /^10\d\dffffff · 2026-1\d-\d\d \d\d:\d\d\n.+\n[\s\S]*node-stream \(node22\): .*ms ± /,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'site-trends.png') });
    await page.check('#log');
    await page.waitForFunction(() => location.hash.includes('log=1'));
    expect(errors).toEqual([]);
  });

  it('sweeps: the parameter on the x-axis, overlaying a second commit', async () => {
    errors = [];
    const page = await open(
      'good',
      `#/sweeps?machine=bench-fast-0a1b2c3d&experiment=wc&metric=throughput&vs=${'1005'.padEnd(40, 'f')}`,
    );
    await page.waitForSelector('body[data-rendered="sweeps"]');
    await page.waitForSelector('.chart canvas');
    const legend = await page.innerText('.chart .u-legend');
    expect(legend).toContain('c @1029ffffff');
    expect(legend).toContain('c @1005ffffff');
    await page.screenshot({ path: join(ARTIFACTS, 'site-sweeps.png') });
    expect(errors).toEqual([]);
  });

  it('sweeps: a variant that does not take the swept parameter is one flat line, labelled as such', async () => {
    errors = [];
    const page = await open('good', '#/sweeps?machine=bench-fast-0a1b2c3d&experiment=threadpool&metric=latency_p50');
    await page.waitForSelector('body[data-rendered="sweeps"]');
    await page.waitForSelector('.chart canvas');
    expect(await page.innerText('.chart')).toContain('p50 latency against pool');
    const legend = await page.innerText('.chart .u-legend');
    expect(legend).toContain('bun (pool n/a) @1029ffffff');
    expect(legend).toContain('c-pool @1029ffffff');
    // The cursor at pool 1 and at pool 12: c-pool's value changes, bun's stays the same.
    const over = (await page.locator('.chart .u-over').first().boundingBox())!;
    const at = async (fx: number) => {
      await page.mouse.move(over.x + over.width * fx, over.y + over.height / 2);
      const rows = await page.$$eval('.chart .u-legend tr.u-series', (trs) =>
        trs.map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelector('td.u-value')?.textContent ?? '']),
      );
      const value = (label: string) => rows.find(([name]) => name?.startsWith(label))?.[1];
      return { bun: value('bun (pool n/a)'), c: value('c-pool') };
    };
    const left = await at(0.01);
    const right = await at(0.99);
    expect(left.bun).toMatch(/\d/);
    expect(right.bun).toBe(left.bun);
    expect(right.c).not.toBe(left.c);
    expect(errors).toEqual([]);
  });

  it('compare: two commits give ratios and verdicts, the planted step is slower', async () => {
    errors = [];
    const b = '1015'.padEnd(40, 'f');
    const h = '1025'.padEnd(40, 'f');
    const page = await open('good', `#/compare?machine=bench-fast-0a1b2c3d&base=${b}&head=${h}`);
    await page.waitForSelector('table.compare');
    const slower = await page.locator('table.compare tr.slower td:first-child').allInnerTexts();
    expect(slower).toEqual(
      expect.arrayContaining(['wc/node-stream/bs=4096,runtime=node22', 'wc/node-stream/bs=65536,runtime=node22']),
    );
    expect(slower.every((s) => s.includes('runtime=node22'))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'site-compare.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('compare on an uncalibrated machine calls nothing: two unpaired runs cannot support it', async () => {
    errors = [];
    const b = '2015'.padEnd(40, 'f');
    const h = '2025'.padEnd(40, 'f');
    const page = await open('good', `#/compare?machine=bench-slow-4e5f6a7b&base=${b}&head=${h}`);
    await page.waitForSelector('table.compare');
    expect(await page.locator('table.compare tr.slower, table.compare tr.faster').count()).toBe(0);
    expect(new Set(await page.locator('table.compare tbody td:last-child').allInnerTexts())).toEqual(
      new Set(['not called', 'not called (program changed)']),
    );
    expect(await page.innerText('main')).toMatch(/^0 slower, 0 faster, 0 within noise, \d+ not called/m);
    expect(errors).toEqual([]);
  });

  it('switches machine and keeps permalinks', async () => {
    errors = [];
    const page = await open('good', '#/trends?machine=bench-fast-0a1b2c3d&experiment=streams');
    await page.waitForSelector('body[data-rendered="trends"]');
    await page.selectOption('#machine', 'bench-slow-4e5f6a7b');
    await page.waitForSelector('body[data-rendered="trends"] .permalink[href*="machine=bench-slow-4e5f6a7b"]');
    const link = await page.locator('.permalink').first().getAttribute('href');
    expect(link).toMatch(
      /^#\/trends\?machine=bench-slow-4e5f6a7b&profile=standard&experiment=\w+&metric=wall_time&chart=/,
    );
    const again = await open('good', link!);
    await again.waitForSelector('.chart.highlight canvas');
    expect(errors).toEqual([]);
  });

  it('workload selector: standard by default, smoke apart on its own series, and kept in permalinks', async () => {
    errors = [];
    const page = await open('good', '#/trends?machine=bench-fast-0a1b2c3d&experiment=wc&metric=wall_time');
    await page.waitForSelector('body[data-rendered="trends"]');
    expect(await page.inputValue('#profile')).toBe('standard');
    expect(await page.locator('#profile option').allInnerTexts()).toEqual([
      'standard (30 commits)',
      'smoke (3 commits)',
    ]);
    await page.selectOption('#profile', 'smoke');
    await page.waitForSelector('body[data-rendered="trends"] .permalink[href*="profile=smoke"]');
    expect(await page.innerText('.controls')).toContain('3 commits');
    const link = await page.locator('.permalink').first().getAttribute('href');
    expect(link).toContain('profile=smoke');
    const again = await open('good', link!);
    await again.waitForSelector('.chart.highlight canvas');
    expect(await again.inputValue('#profile')).toBe('smoke');
    expect(errors).toEqual([]);
  });

  it('regressions: the planted step, newest first, with links to its chart and commits; the same list as JSON', async () => {
    errors = [];
    const page = await open('good', '#/regressions?machine=bench-fast-0a1b2c3d');
    await page.waitForSelector('body[data-rendered="regressions"]');
    const rows = await page.locator('table.regressions tbody tr').allInnerTexts();
    expect(rows.length).toBeGreaterThan(0);
    const step = rows.find((r) => r.includes('wc/node-stream/bs=65536,runtime=node22') && r.includes('wall time'));
    expect(step).toMatch(/\+2\d\.\d%/);
    expect(step).toContain('1019ffffff');
    expect(step).toContain('1020ffffff');
    const dates = rows.map((r) => r.slice(0, 10));
    expect([...dates].sort().reverse()).toEqual(dates);
    await page.screenshot({ path: join(ARTIFACTS, 'site-regressions.png') });
    const json = await page.locator('a', { hasText: 'this list as JSON' }).getAttribute('href');
    const file = (await (await page.request.get(new URL(json!, page.url()).href)).json()) as {
      regressions: { benchmark: string; metric: string; worse: boolean; to: { sha: string } }[];
    };
    expect(
      file.regressions.some(
        (r) => r.benchmark === 'wc/node-stream/bs=65536,runtime=node22' && r.worse && r.to.sha.startsWith('1020'),
      ),
    ).toBe(true);
    // The wall-time row's link (the same step is also in counted work: instructions per read).
    await page
      .locator('table.regressions tr', { hasText: 'wall time' })
      .locator('a', { hasText: 'wc/node-stream/bs=65536,runtime=node22' })
      .first()
      .click();
    await page.waitForSelector('.chart.highlight canvas');
    expect(page.url()).toContain('chart=wall_time%7Cbs%3D65536');
    expect(errors).toEqual([]);
  });

  it('one commit, an empty store and a malformed store each show a clear message', async () => {
    const one = await open('one', '#/trends?machine=bench-fast-0a1b2c3d');
    await one.waitForSelector('body[data-rendered="trends"]');
    expect(await one.innerText('main')).toContain('Only one commit so far');
    const empty = await open('empty');
    await empty.waitForSelector('.notice');
    expect(await empty.innerText('main')).toContain('No results yet');
    const broken = await open('broken');
    await broken.waitForSelector('.error');
    expect(await broken.innerText('.error')).toContain(
      'bench-fast-0a1b2c3d/trends/standard/catalog.json is not valid JSON (corrupt or truncated)',
    );
    await broken.screenshot({ path: join(ARTIFACTS, 'site-error.png') });
  });
});
