// Every chart of every view is drawn at every common width, in Debian's chromium, on two stores
// made from real runs of this project (harness/test/fixtures/site-stores/, see its README): one
// with quick runs of every experiment, several commits and some runtime releases, one with a
// single commit. Per view and width: no console error, no "null"/"NaN"/"undefined"/"--" in the
// text, the legends or the axis ticks, nothing wider than the viewport, every chart box holds a
// drawn chart (as many at 360 px as at 1920 px), no chart draws more than eight lines by default,
// and a line left in a legend is drawn by one click on its name.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, serveSite } from '../../harness/src/site/build-site.js';
import { launch } from './browser.js';
import { openView, overflowing } from './page-checks.js';

const ROOT = join(import.meta.dirname, '..', '..');
const STORES = join(ROOT, 'harness', 'test', 'fixtures', 'site-stores');
const WIDTHS = [360, 420, 768, 1024, 1280, 1920];

/** A placeholder where a value should be: what a failed format leaves in a sentence or a tick. */
const PLACEHOLDER = /(^|[^\w/.-])(null|NaN|undefined)(?![\w/-])/m;
/** What an undrawn uPlot legend shows in place of each value: an element holding only this. */
const EMPTY_VALUES = ['--', 'null', 'NaN', 'undefined'];

let browser: BrowserContext;
afterAll(async () => {
  await browser?.close();
});
beforeAll(async () => {
  browser = await launch();
}, 60_000);

async function serve(store: string) {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-widths-'));
  // A copy: the build must never write beside the committed fixture.
  cpSync(join(STORES, store), join(dir, 'store'), { recursive: true });
  await buildSite(ROOT, join(dir, 'store'), join(dir, 'site'));
  return serveSite(join(dir, 'site'));
}

/** Scrolls every chart box into view (Trends draws on sight), then counts boxes and drawn charts. */
async function charts(page: Page) {
  return page.evaluate(async () => {
    const boxes = [...document.querySelectorAll<HTMLElement>('.chart')];
    for (const b of boxes) {
      b.scrollIntoView();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 20)));
    }
    window.scrollTo(0, 0);
    const drawn = (b: HTMLElement) => {
      const c = b.querySelector('canvas, svg');
      return c !== null && c.getBoundingClientRect().width > 0;
    };
    return { boxes: boxes.length, drawn: boxes.filter(drawn).length };
  });
}

/** A chart draws at most this many lines by default (the rest wait in its legend). */
const MAX_DRAWN = 8;

/**
 * Per chart box, the lines it draws now: uPlot's (recorded on the box as the legend shows and
 * hides them) or an SVG chart's polylines.
 */
async function drawnLines(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.chart')].map((b, i) => ({
      chart: `${i + 1} ${b.querySelector('.u-title')?.textContent ?? b.querySelector('h3')?.textContent ?? ''}`,
      drawn: b.dataset.shown === undefined ? b.querySelectorAll('svg polyline').length : Number(b.dataset.shown),
      legend: b.querySelectorAll('.u-legend .u-series').length,
    })),
  );
}

/** Every chart with a line left in its legend: one click on the first such name draws it. */
async function oneClickShows(page: Page): Promise<string[]> {
  const problems: string[] = [];
  const boxes = page.locator('.chart');
  for (let i = 0; i < (await boxes.count()); i++) {
    const box = boxes.nth(i);
    const off = box.locator('.u-legend .u-series.u-off');
    if (!(await off.count())) continue;
    const before = Number(await box.getAttribute('data-shown'));
    const name = (await off.first().innerText()).trim();
    // uPlot listens on the name's cell, not the row.
    await off.first().locator('th').click();
    const after = Number(await box.getAttribute('data-shown'));
    if (after !== before + 1) problems.push(`chart ${i + 1}: a click on "${name}" drew ${after - before} lines`);
  }
  return problems;
}

/** Text a reader can see (legends included) and the recorded axis ticks: any placeholder in them. */
async function placeholders(page: Page) {
  return page.evaluate(
    ([source, empty]) => {
      const re = new RegExp(source, 'm');
      const found: string[] = [];
      const text = document.body.innerText;
      const m = re.exec(text);
      if (m) found.push(`text: …${text.slice(Math.max(0, m.index - 40), m.index + 40)}…`);
      for (const el of document.querySelectorAll<HTMLElement>('body *'))
        if (!el.children.length && empty.includes((el.textContent ?? '').trim()) && el.getClientRects().length)
          found.push(`${el.tagName.toLowerCase()}.${el.className}: ${el.textContent}`);
      // Invisible characters travel into copied names (a variant pasted into a terminal).
      const zw = /[\u200b-\u200d\u2060\ufeff]/.exec(text);
      if (zw)
        found.push(
          `invisible U+${zw[0].charCodeAt(0).toString(16)}: …${text.slice(Math.max(0, zw.index - 40), zw.index + 10)}…`,
        );
      for (const el of document.querySelectorAll<HTMLElement>('[data-xticks], [data-yticks]'))
        for (const ticks of [el.dataset.xticks, el.dataset.yticks])
          if (ticks && re.test((JSON.parse(ticks) as string[]).join(' , '))) found.push(`ticks: ${ticks}`);
      return found;
    },
    [PLACEHOLDER.source, EMPTY_VALUES] as [string, string[]],
  );
}

/** The views to walk: the Overview's experiments give Trends and Sweeps, its commits Compare. */
async function views(url: string): Promise<[string, string][]> {
  const { page } = await openView(browser, `${url}#/overview`, 'overview');
  const experiments = await page
    .locator('section[data-experiment]')
    .evaluateAll((s) => s.map((e) => (e as HTMLElement).dataset.experiment!));
  const commits = await page.locator('#commit option').evaluateAll((o) => o.map((e) => (e as HTMLOptionElement).value));
  await page.close();
  const [head, base] = commits;
  return [
    ['overview', '#/overview'],
    ...experiments.map((e): [string, string] => ['trends', `#/trends?experiment=${e}`]),
    ...experiments.map((e): [string, string] => ['sweeps', `#/sweeps?experiment=${e}`]),
    ['compare', base && head ? `#/compare?base=${base}&head=${head}` : '#/compare'],
    ['regressions', '#/regressions'],
    ['runtimes', '#/runtimes'],
  ];
}

async function walk(store: string) {
  const server = await serve(store);
  const problems: string[] = [];
  const counts = new Map<string, number[]>();
  /** Per view, the most names one chart's legend holds. */
  const legends = new Map<string, number>();
  try {
    for (const [view, hash] of await views(server.url))
      for (const width of WIDTHS) {
        const where = `${store} ${hash} at ${width}px`;
        const { page, errors } = await openView(browser, server.url + hash, view, width);
        const n = await charts(page);
        counts.set(hash, [...(counts.get(hash) ?? []), n.drawn]);
        if (n.drawn < n.boxes) problems.push(`${where}: ${n.boxes - n.drawn} of ${n.boxes} charts not drawn`);
        const lines = await drawnLines(page);
        for (const c of lines.filter((x) => x.drawn > MAX_DRAWN))
          problems.push(`${where}: chart ${c.chart} draws ${c.drawn} lines by default (at most ${MAX_DRAWN})`);
        legends.set(hash, Math.max(legends.get(hash) ?? 0, ...lines.map((c) => c.legend)));
        // One width is enough for the clicks: the legend is the same at every width.
        if (width === 1280) for (const p of await oneClickShows(page)) problems.push(`${where}: ${p}`);
        // Every experiment on the Overview answers with its picture (a run narrowed to other
        // experiments must not leave one without).
        if (view === 'overview')
          for (const e of await page
            .locator('section[data-experiment]')
            .evaluateAll((ss) =>
              ss.filter((x) => !x.querySelector('.chart canvas')).map((x) => (x as HTMLElement).dataset.experiment),
            ))
            problems.push(`${where}: ${e} has no picture`);
        for (const e of errors) problems.push(`${where}: console: ${e}`);
        for (const p of await placeholders(page)) problems.push(`${where}: placeholder in ${p}`);
        const o = await overflowing(page);
        if (o.pageWidth > o.viewport || o.wide.length)
          problems.push(`${where}: ${o.pageWidth} px wide in ${o.viewport}: ${o.wide.join(', ')}`);
        await page.close();
      }
  } finally {
    server.close();
  }
  return { problems, counts, legends };
}

// The two stores' walks are independent: they run at once, in pages of the one browser.
describe.concurrent('every chart of every view at every width', () => {
  it('on quick runs of every experiment over several commits, with runtime releases', async () => {
    const { problems, counts, legends } = await walk('full');
    expect(problems).toEqual([]);
    // The cap is exercised: wc's trend charts hold more lines than they draw by default.
    expect(legends.get('#/trends?experiment=wc')).toBeGreaterThan(MAX_DRAWN + 1);
    const overview = counts.get('#/overview')!;
    // The Overview draws a picture for every experiment: wc, streams, records, threadpool, scan.
    expect(overview[0]).toBeGreaterThanOrEqual(5);
    for (const [hash, n] of counts) expect(new Set(n).size, `${hash}: charts per width ${n.join(', ')}`).toBe(1);
    expect(counts.get('#/runtimes')![0]).toBeGreaterThan(0);
  }, 900_000);

  it('on a store with a single commit', async () => {
    const { problems, counts } = await walk('single');
    expect(problems).toEqual([]);
    expect(counts.get('#/overview')![0]).toBeGreaterThanOrEqual(5);
    for (const [hash, n] of counts) expect(new Set(n).size, `${hash}: charts per width ${n.join(', ')}`).toBe(1);
  }, 900_000);
});
