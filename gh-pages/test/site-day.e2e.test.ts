// The site tells the truth at a glance, on a busy day's store (gh-pages/test/day-store.ts:
// sixteen series in one chart, six commits of one day, an A/A pair, a partial run on top, a planted
// step, implausible values), in chromium at 1400 and 420 px.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, serveSite } from '../../harness/src/site/build-site.js';
import { launch } from './browser.js';
import { AA, DAY_MACHINE, daySha, PARTIAL, STEP, WC_SERIES, writeDayStore } from './day-store.js';
import { openView, overflowing } from './page-checks.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const KEYS = /\b(read_cost|wall_time|steady_throughput|max_rss|latency_p50|latency_p99|throughput_|syscalls\.\w+)\b/;
let browser: BrowserContext;
let server: { url: string; close: () => void };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-site-day-'));
  await writeDayStore(join(dir, 'store'));
  // Commit and PR links need the repository: the build takes it from the workflow's environment.
  const before = process.env.GITHUB_REPOSITORY;
  process.env.GITHUB_REPOSITORY = 'example/jsio-bench';
  try {
    await buildSite(ROOT, join(dir, 'store'), join(dir, 'site'));
  } finally {
    if (before === undefined) delete process.env.GITHUB_REPOSITORY;
    else process.env.GITHUB_REPOSITORY = before;
  }
  server = await serveSite(join(dir, 'site'));
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

const m = `machine=${DAY_MACHINE}`;
const open = async (hash: string, view: string, width = 1400) => {
  const o = await openView(browser, server.url + hash, view, width);
  await o.page.waitForTimeout(50);
  return o;
};
const dataset = (page: Page, sel: string, key: string) =>
  page.$$eval(sel, (els, k) => els.map((e) => JSON.parse((e as HTMLElement).dataset[k] ?? '[]') as string[]), key);
/** Every word a reader can see, folded tables and option labels included. */
const readable = (page: Page) => page.evaluate(() => document.querySelector('main')!.textContent ?? '');

describe('compare between two stored commits', () => {
  it('calls the A/A pair within noise, with the paired diff named and + = worse in the legend', async () => {
    const { page, errors } = await open(`#/compare?${m}&base=${daySha(AA[0])}&head=${daySha(AA[1])}`, 'compare');
    const verdicts = await page.locator('table.compare tbody td:last-child').allInnerTexts();
    expect(verdicts.length).toBeGreaterThan(30);
    // No change is called; "within noise" only where the interval lies inside the threshold, the
    // rest undecided ("inconclusive"), never "unchanged" beyond what the interval shows.
    expect(verdicts).toContain('within noise');
    expect(new Set(verdicts.filter((v) => v !== 'within noise' && v !== 'inconclusive'))).toEqual(new Set());
    const text = await page.innerText('main');
    expect(text).toMatch(/^0 slower, 0 faster, \d+ within noise(, \d+ inconclusive)?\.$/m);
    expect(text).toContain('A trustworthy A/B is the paired PR diff');
    expect(text).toContain('+ = worse');
    // Intervals are ratios: every bound a positive ×number, never a percentage below −100%.
    for (const ci of await page.locator('table.compare tbody td:nth-child(6)').allInnerTexts())
      expect(ci).toMatch(/^×\d+\.\d{3} … ×\d+\.\d{3}$/);
    await page.screenshot({ path: join(ARTIFACTS, 'site-day-compare.png') });
    expect(errors).toEqual([]);
  });

  it('calls the planted step slower (worse, +) and links the PR of adjacent commits', async () => {
    const { page } = await open(`#/compare?${m}&base=${daySha(STEP - 1)}&head=${daySha(STEP)}`, 'compare');
    const slower = await page.locator('table.compare tr.slower').allInnerTexts();
    expect(
      slower.some((r) => r.includes('wc/node-stream/bs=65536,runtime=node22') && r.includes('cost per read')),
    ).toBe(true);
    for (const r of slower) expect(r).toMatch(/\t\+\d+\.\d%\t/);
    expect(await page.locator('.paired a').getAttribute('href')).toBe(
      `https://github.com/example/jsio-bench/pull/${40 + STEP}`,
    );
  });
});

describe('labels, ticks, styles and defaults', () => {
  it('trends opens on the headline metric; unique ticks with times; sixteen distinct styles; no key', async () => {
    const { page, errors } = await open(`#/trends?${m}&experiment=wc`, 'trends');
    expect(await page.inputValue('#metric')).toBe('read_cost');
    await page.waitForSelector('.chart canvas');
    const ticks = (await dataset(page, '.chart[data-xticks]', 'xticks'))[0]!;
    expect(ticks.length).toBeGreaterThan(2);
    expect(new Set(ticks).size).toBe(ticks.length);
    for (const t of ticks) expect(t).toMatch(/^11-24 \d\d:\d\d$/);
    const styles = (await dataset(page, '.chart[data-styles]', 'styles'))[0]!;
    expect(styles.length).toBe(WC_SERIES);
    expect(new Set(styles).size).toBe(styles.length);
    expect(await readable(page)).not.toMatch(KEYS);
    expect(errors).toEqual([]);
  });

  it('sweeps opens on the Overview axis (bs, log), ticks at sizes, no "--" placeholder, no key', async () => {
    const { page, errors } = await open(`#/sweeps?${m}&experiment=wc`, 'sweeps');
    expect(await page.isChecked('#log')).toBe(true);
    await page.waitForSelector('.chart canvas');
    expect((await dataset(page, '.chart[data-xticks]', 'xticks'))[0]).toEqual(['4 KiB', '16 KiB', '64 KiB']);
    const y = (await dataset(page, '.chart[data-yticks]', 'yticks'))[0]!;
    expect(new Set(y).size).toBe(y.length);
    expect(await page.innerText('.u-legend')).not.toContain('--');
    expect(await readable(page)).not.toMatch(KEYS);
    const streams = await open(`#/sweeps?${m}&experiment=streams`, 'sweeps');
    await streams.page.waitForSelector('.chart canvas');
    for (const t of await dataset(streams.page, '.chart[data-xticks]', 'xticks')) expect(t).toEqual(['0', '10', '20']);
    expect(errors).toEqual([]);
  });

  it('overview: the newest complete run by default, headlines from intervals, the implausible flagged', async () => {
    const { page, errors } = await open('#/overview', 'overview');
    expect(await page.inputValue('#commit')).toBe(daySha(AA[1]));
    expect(await page.innerText('main')).toContain('A newer partial run');
    const answer = await page.innerText('section[data-experiment="wc"] .answer-line');
    expect(answer).toMatch(/^At 64 KiB, cost per read is \d\.\d\dx of C's for /);
    expect(answer).not.toContain('node-pipe (node20)');
    expect(await page.innerText('section[data-experiment="wc"] .suspect')).toContain('node-pipe (node20) 0.');
    for (const styles of await dataset(page, '.chart[data-styles]', 'styles'))
      expect(new Set(styles).size).toBe(styles.length);
    for (const ticks of await dataset(page, '.chart[data-xticks]', 'xticks'))
      expect(new Set(ticks).size).toBe(ticks.length);
    for (const label of await page.$$eval('.chart[data-xlabel]', (els) =>
      els.map((e) => (e as HTMLElement).dataset.xlabel),
    ))
      expect(label).not.toMatch(/^(\w+) \(\1\)$/);
    expect(await readable(page)).not.toMatch(KEYS);
    expect(errors).toEqual([]);
  });

  it('overview shows any commit (?commit=), the partial one too', async () => {
    const { page } = await open(`#/overview?${m}&commit=${daySha(PARTIAL)}`, 'overview');
    expect(await page.inputValue('#commit')).toBe(daySha(PARTIAL));
    expect(await page.innerText('main')).toContain('partial run');
    const { page: first } = await open(`#/overview?${m}&commit=${daySha(0)}`, 'overview');
    expect(await first.innerText('main')).toContain('Day commit 0');
  });
});

describe('at 420 px', () => {
  const views: [string, string][] = [
    ['overview', '#/overview'],
    ['trends', `#/trends?${m}&experiment=wc`],
    ['sweeps', `#/sweeps?${m}&experiment=wc`],
    ['compare', `#/compare?${m}&base=${daySha(AA[0])}&head=${daySha(AA[1])}`],
    ['regressions', `#/regressions?${m}&log=1`],
  ];
  for (const [view, hash] of views)
    it(`${view}: nothing wider than the viewport, every tab reachable`, async () => {
      const { page, errors } = await open(hash, view, 420);
      await page.waitForTimeout(100);
      expect(await overflowing(page)).toEqual({ pageWidth: 420, viewport: 420, wide: [] });
      for (const tab of await page.locator('nav a.tab').all()) {
        const box = (await tab.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(420);
      }
      await page.screenshot({ path: join(ARTIFACTS, `site-day-${view}-420.png`) });
      expect(errors).toEqual([]);
    });
});
