// The screenshots in docs/reading-results.md: every view of the day store (gh-pages/test/day-store.ts)
// at 1400 and 420 px. A tool more than a test: it runs only when asked,
//   UPDATE_SCREENSHOTS=1 npx vitest run gh-pages/test/screenshots.e2e.test.ts
// and writes docs/images/site-<view>.png and site-<view>-420.png.
import { mkdtempSync } from 'node:fs';
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
