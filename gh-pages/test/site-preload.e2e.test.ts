// The preloader fetches each first view's data files before the bundle runs, and the app reads
// them from it: no file is requested twice, the files the view reads are exactly those the
// preloader asked for, no script is fetched (the page holds them), and the views that draw charts
// draw them with uPlot (as their entries in views/index.ts say), the others draw none.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreloadPlan } from '../../harness/src/model/preload-plan.js';
import { buildSite, serveSite } from '../../harness/src/site/build-site.js';
import { preloadFiles } from '../src/preload-files.js';
import { route } from '../src/views/index.js';
import { launch } from './browser.js';

const ROOT = join(import.meta.dirname, '..', '..');
let browser: BrowserContext;
let server: { url: string; close: () => void };

beforeAll(async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'jsio-site-preload-')), 'site');
  await buildSite(ROOT, join(import.meta.dirname, 'fixtures', 'store'), out);
  server = await serveSite(out);
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

const VIEWS: [string, string, boolean][] = [
  ['overview', '#/overview', true],
  ['trends', '#/trends?experiment=wc&metric=wall_time', true],
  ['sweeps', '#/sweeps?experiment=wc', true],
  ['compare', '#/compare', false],
  ['regressions', '#/regressions', false],
];

describe('the first view of each kind', () => {
  for (const [view, hash, charts] of VIEWS)
    it(`${view}: its files asked for once, by the preloader`, async () => {
      const page = await browser.newPage();
      const asked: string[] = [];
      page.on('request', (r) => asked.push(r.url().slice(server.url.length)));
      await page.goto(server.url + hash);
      await page.waitForSelector(`body[data-rendered="${view}"]`);
      await page.waitForLoadState('networkidle');
      const plan = JSON.parse((await page.locator('#preload-plan').textContent()) ?? '') as PreloadPlan;
      const drawn = await page.locator('.uplot').count();
      await page.close();
      expect(new Set(asked).size, asked.join('\n')).toBe(asked.length);
      const data = asked.filter((u) => u.endsWith('.json')).sort();
      expect(data.length).toBeGreaterThan(2);
      expect(data).toEqual(preloadFiles(plan, hash).sort());
      expect(asked.filter((u) => /\.(js|css)$/.test(u))).toEqual([]);
      expect(drawn > 0).toBe(charts);
      expect(route(hash).view.charts).toBe(charts);
    });
});
