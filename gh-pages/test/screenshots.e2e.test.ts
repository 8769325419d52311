// The screenshots in docs/reading-results.md: every view of the day store (gh-pages/test/day-store.ts)
// at 1400 and 420 px. A tool more than a test: it runs only when asked,
//   UPDATE_SCREENSHOTS=1 npx vitest run gh-pages/test/screenshots.e2e.test.ts
// and writes docs/images/site-<view>.png and site-<view>-420.png. The second one,
//   UPDATE_SITE_WIDTHS=<name> npx vitest run gh-pages/test/screenshots.e2e.test.ts
// shoots every view of the full fixture store (harness/test/fixtures/site-stores/full) at 420 and
// 1280 px, the first 1000 px of each page, into docs/images/site-widths/<name>-<view>-<width>.png.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { buildSite, serveSite } from '../../harness/src/site/build-site.js';
import { launch } from './browser.js';
import { AA, DAY_MACHINE, daySha, writeDayStore } from './day-store.js';
import { openView } from './page-checks.js';

const ROOT = join(import.meta.dirname, '..', '..');

it.runIf(process.env.UPDATE_SCREENSHOTS)('docs screenshots of every view', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-shots-'));
  await writeDayStore(join(dir, 'store'));
  await buildSite(ROOT, join(dir, 'store'), join(dir, 'site'));
  const server = await serveSite(join(dir, 'site'));
  const browser = await launch();
  const m = `machine=${DAY_MACHINE}`;
  const views: [string, string][] = [
    ['overview', '#/overview'],
    ['trends', `#/trends?${m}&experiment=wc`],
    ['sweeps', `#/sweeps?${m}&experiment=wc`],
    ['compare', `#/compare?${m}&base=${daySha(AA[0])}&head=${daySha(AA[1])}`],
    ['regressions', `#/regressions?${m}&log=1`],
  ];
  try {
    for (const width of [1400, 420])
      for (const [view, hash] of views) {
        const { page, errors } = await openView(browser, server.url + hash, view, width);
        await page.waitForTimeout(300);
        const name = `site-${view}${width === 420 ? '-420' : ''}.png`;
        await page.screenshot({ path: join(ROOT, 'docs', 'images', name) });
        expect(errors).toEqual([]);
        await page.close();
      }
  } finally {
    await browser.close();
    server.close();
  }
});

const WIDTHS_SHOTS = process.env.UPDATE_SITE_WIDTHS;

it.runIf(WIDTHS_SHOTS)('site-widths screenshots of every view of the full fixture store', async () => {
  expect(WIDTHS_SHOTS, 'UPDATE_SITE_WIDTHS names the shots: letters, digits and dashes').toMatch(/^[\w-]+$/);
  const dir = mkdtempSync(join(tmpdir(), 'jsio-shots-'));
  // A copy: the build must never write beside the committed fixture.
  cpSync(join(ROOT, 'harness', 'test', 'fixtures', 'site-stores', 'full'), join(dir, 'store'), { recursive: true });
  await buildSite(ROOT, join(dir, 'store'), join(dir, 'site'));
  const server = await serveSite(join(dir, 'site'));
  const browser = await launch();
  // wc: the experiment with the most variants, where the eight-line cap shows.
  const views: [string, string][] = [
    ['overview', '#/overview'],
    ['trends', '#/trends?experiment=wc'],
    ['sweeps', '#/sweeps?experiment=wc'],
    ['compare', '#/compare'],
    ['regressions', '#/regressions'],
    ['runtimes', '#/runtimes'],
  ];
  try {
    for (const width of [420, 1280])
      for (const [view, hash] of views) {
        const { page, errors } = await openView(browser, server.url + hash, view, width);
        await page.waitForTimeout(300);
        const path = join(ROOT, 'docs', 'images', 'site-widths', `${WIDTHS_SHOTS}-${view}-${width}.png`);
        await page.screenshot({ path, fullPage: true, clip: { x: 0, y: 0, width, height: 1000 } });
        expect(errors).toEqual([]);
        await page.close();
      }
  } finally {
    await browser.close();
    server.close();
  }
});
