// A store whose every free-text field holds markup (units, commit subjects, machine
// names, reasons, titles, parameter values...) is shown as text on every view, in chromium: no
// element or handler is created, no script runs, the Content-Security-Policy is never tripped
// (and uPlot and the site work under it).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, serveSite } from '../../harness/src/site/build-site.js';
import { launch } from './browser.js';
import { AA, DAY_MACHINE, daySha, PARTIAL, PAYLOADS, writeHostileStore } from './day-store.js';
import { CLEAN, injected, openView } from './page-checks.js';

const ROOT = join(import.meta.dirname, '..', '..');
let browser: BrowserContext;
let server: { url: string; close: () => void };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-site-hostile-'));
  const inject = await writeHostileStore(join(dir, 'store'));
  await buildSite(ROOT, join(dir, 'store'), join(dir, 'site'));
  inject(join(dir, 'site', 'data'));
  server = await serveSite(join(dir, 'site'));
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

const m = `machine=${DAY_MACHINE}`;
const VIEWS: [string, string][] = [
  ['overview', '#/overview'],
  ['overview', `#/overview?${m}&commit=${daySha(PARTIAL)}`],
  ['trends', `#/trends?${m}&experiment=wc&metric=wall_time`],
  ['trends', `#/trends?${m}&experiment=streams&metric=wall_time`],
  // Counted work drawn alone: its settings in the note under the chart.
  ['trends', `#/trends?${m}&experiment=wc&metric=instructions_per_op`],
  ['sweeps', `#/sweeps?${m}&experiment=wc&metric=wall_time&vs=${daySha(1)}`],
  ['sweeps', `#/sweeps?${m}&experiment=streams`],
  ['compare', `#/compare?${m}&base=${daySha(AA[0])}&head=${daySha(AA[1])}`],
  ['compare', `#/compare?${m}&base=${daySha(0)}&head=${daySha(PARTIAL)}`],
  ['regressions', `#/regressions?${m}&log=1`],
];

describe('a store with markup in every free-text field', () => {
  for (const [view, hash] of VIEWS)
    it(`${hash}: shows it as text, creates nothing, runs nothing`, async () => {
      const { page, errors } = await openView(browser, server.url + hash, view);
      // Hover every chart: tooltips and live legends render store strings too.
      for (const over of await page.locator('.u-over').all()) {
        const box = await over.boundingBox();
        if (box) await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
      }
      await page.waitForTimeout(50);
      expect(await injected(page)).toEqual(CLEAN);
      expect(errors).toEqual([]);
      await page.close();
    });

  it('the markup is on the page, as text (the fields were rendered, not dropped)', async () => {
    const { page } = await openView(browser, `${server.url}#/overview`, 'overview');
    const text = await page.innerText('body');
    // Commit subject, machine, toolchain, title, question, skip reason and hint.
    for (const p of PAYLOADS.slice(0, 3)) expect(text).toContain(p);
    for (const field of ['subject', 'cpu', 'toolchain', 'title', 'question', 'reason', 'hint'])
      expect(text, field).toMatch(new RegExp(`window\\.__pwned=\\d\\S*\\s${field}\\b`));
    // The counted work's lines: Bun's reason it could not be counted, as text.
    expect(await page.innerText('section[data-experiment="wc"] .work-lines')).toMatch(
      /bun: not counted \(bun has no deterministic settings .*reason\)/,
    );
    await page.click('section[data-experiment="wc"] .work-settings > summary');
    expect(await page.innerText('section[data-experiment="wc"] .work-settings')).toMatch(
      /V8 made predictable .*settings/,
    );
    expect(await page.locator('canvas').count()).toBeGreaterThan(0);
    await page.close();
  });
});
