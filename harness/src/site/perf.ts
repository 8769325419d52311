/**
 * The site's performance benchmark (not a test): a synthetic store of 5,000 commits and 300
 * series in store v3's layout, then headless chromium measures, per view, navigation -> first
 * chart drawn and -> every chart of the first viewport drawn, the bytes transferred, and the JS
 * bundle size. Limits: first view <= FIRST_VIEW_BYTES, first chart <= FIRST_CHART_MS (docs/pages.md,
 * "The site's own benchmark").
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './browser.js';
import { buildSite, serveSite } from './build-site.js';
import { type LandingView, loadViewTable } from './bundle.js';
import { syntheticStore } from './perf-store.js';

// Seven: chromium's timings vary widely between fresh profiles on a small machine, and a median of
// three does not settle (docs/pages.md).
export const REPETITIONS = 7;

/** A first view's bytes as downloaded (gzip, as GitHub Pages serves it), and its first chart's median. */
export const FIRST_VIEW_BYTES = 300_000;
export const FIRST_CHART_MS = 200;
/**
 * The views a visitor lands on, from the front page or a shared link (their entries' `landing` in
 * gh-pages/src/views/index.ts): each one's URL, and what shows its first chart drawn (a view
 * without charts: the view drawn).
 */
export function firstViews(views: readonly LandingView[]): Record<string, [hash: string, ready: string]> {
  const out: Record<string, [string, string]> = {};
  for (const { name, charts, landing } of views) {
    if (landing === undefined) continue;
    const hash = `#/${name}${landing ? `?${landing}` : ''}`;
    // A view without charts (Compare's answer is a table): its first "chart" is the view drawn.
    out[name] = [hash, charts ? '.chart canvas, .picture canvas' : `body[data-rendered="${name}"]`];
  }
  return out;
}

/** The limits a result is over (its first views: `first_views`), one line each; empty when it meets them all. */
export function overLimits(r: Record<string, number | string>, opts: { times: boolean }): string[] {
  const over: string[] = [];
  for (const v of String(r.first_views ?? '')
    .split(' ')
    .filter(Boolean)) {
    const bytes = Number(r[`${v}_bytes`]);
    const ms = Number(r[`${v}_first_chart_ms`]);
    if (bytes > FIRST_VIEW_BYTES) over.push(`${v}: ${bytes} bytes > ${FIRST_VIEW_BYTES}`);
    if (opts.times && ms > FIRST_CHART_MS) over.push(`${v}: first chart ${ms} ms > ${FIRST_CHART_MS} ms`);
  }
  return over;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Builds the synthetic site and measures each view `repetitions` times, each in a fresh browser
 * profile (nothing cached): bytes transferred (headers and compressed bodies, all same-origin) and the time
 * from navigation to the first chart drawn and to every chart in the first viewport drawn.
 * Returns the medians, the individual runs and the host's load average before and after.
 */
export async function sitePerf(root: string, repetitions = REPETITIONS): Promise<Record<string, number | string>> {
  const tmp = mkdtempSync(join(tmpdir(), 'jsio-site-perf-'));
  try {
    return await measureSite(root, tmp, repetitions);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function measureSite(root: string, tmp: string, repetitions: number): Promise<Record<string, number | string>> {
  const t0 = Date.now();
  syntheticStore(join(tmp, 'store'));
  await buildSite(root, join(tmp, 'store'), join(tmp, 'site'));
  const buildMs = Date.now() - t0;
  const { url, close } = await serveSite(join(tmp, 'site'));
  const loadBefore = loadavg()[0]!;
  const first = firstViews(await loadViewTable(join(root, 'gh-pages')));
  // An older window is loaded on demand, not part of a first view: reported, held to no limit.
  const trends = first.trends;
  const views: Record<string, [string, string]> = {
    ...first,
    ...(trends ? { trends_older: [`${trends[0]}&older=5`, trends[1]] } : {}),
  };
  const out: Record<string, number | string> = {};
  for (const [name, [hash, ready]] of Object.entries(views)) {
    const runs = [];
    for (let i = 0; i < repetitions; i++) runs.push(await measureView(url, hash, ready));
    out[`${name}_first_chart_ms`] = median(runs.map((r) => r.first));
    out[`${name}_visible_charts_ms`] = median(runs.map((r) => r.all));
    out[`${name}_bytes`] = median(runs.map((r) => r.bytes));
    out[`${name}_raw_bytes`] = median(runs.map((r) => r.raw));
    out[`${name}_runs_ms`] = runs.map((r) => r.first).join(' ');
    out[`${name}_script_data_chart_ms`] = runs.map((r) => `${r.script}/${r.data}/${r.first}`).join(' ');
  }
  close();
  // The page holds the site: its stylesheet, its scripts and config.json.
  out.first_views = Object.keys(first).join(' ');
  out.page_bytes = statSync(join(tmp, 'site', 'index.html')).size;
  out.store_and_build_ms = buildMs;
  out.repetitions = repetitions;
  out.load_before = loadBefore.toFixed(2);
  out.load_after = loadavg()[0]!.toFixed(2);
  return out;
}

/**
 * One view, in a fresh browser profile: navigation -> first element matching `ready`, -> every
 * chart of the first viewport drawn, the bytes transferred, and where the time before the first
 * chart went.
 */
async function measureView(url: string, hash: string, ready: string) {
  const ctx = await launch();
  const page = await ctx.newPage();
  // Timed inside the page, from the navigation's start: the moment the first element matching
  // `ready` appears (a MutationObserver, no polling delay). The page says so on its console, and
  // only then does Playwright query it: its injected helper script costs the page's main thread
  // time that no visitor pays.
  await page.addInitScript((sel: string) => {
    // The browser keeps 250 resource entries by default: a view loading more would be undercounted.
    performance.setResourceTimingBufferSize(100_000);
    const w = window as unknown as { firstChart?: number };
    new MutationObserver((_m, obs) => {
      if (document.querySelector(sel)) {
        w.firstChart = performance.now();
        obs.disconnect();
        console.debug('jsio-first-chart');
      }
    }).observe(document, { childList: true, subtree: true, attributes: true });
  }, ready);
  let foreign = 0;
  page.on('request', (r) => {
    if (!r.url().startsWith(url) && !r.url().startsWith('data:')) foreign++;
  });
  const drawn = page.waitForEvent('console', { predicate: (m) => m.text() === 'jsio-first-chart', timeout: 60_000 });
  await page.goto(`${url}${hash}`, { waitUntil: 'commit' });
  await drawn;
  await page.waitForSelector('body[data-rendered]', { timeout: 60_000 });
  // Every chart box in the first viewport drawn (the rest draw as they scroll into view);
  // Playwright polls for it, so this one includes its helper script: an upper bound.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('.chart')]
        .filter((c) => c.getBoundingClientRect().top < innerHeight)
        .every((c) => c.querySelector('canvas')),
    undefined,
    { timeout: 60_000 },
  );
  const all = await page.evaluate(() => performance.now());
  await page.waitForLoadState('networkidle');
  // Bytes: the document and every resource it loaded as they came over the wire (headers and gzip
  // bodies: what a visitor downloads), and their bodies decoded.
  const { first, bytes, raw, script, data } = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const first = (window as unknown as { firstChart?: number }).firstChart ?? Number.NaN;
    // Where the time before the first chart went: the bundle's arrival (in the page, so the
    // page's, or a script's where one is loaded), then the last data response that arrived before
    // the chart (the rest is the page's own work).
    const before = res.filter((r) => r.responseEnd <= first);
    const end = (xs: PerformanceResourceTiming[]) => Math.max(0, ...xs.map((r) => r.responseEnd));
    return {
      first,
      bytes: nav.transferSize + res.reduce((n, r) => n + r.transferSize, 0),
      raw: nav.decodedBodySize + res.reduce((n, r) => n + r.decodedBodySize, 0),
      script: Math.max(nav.responseEnd, end(before.filter((r) => r.name.endsWith('.js')))),
      data: end(before.filter((r) => r.name.endsWith('.json'))),
    };
  });
  await ctx.close();
  if (foreign) throw new Error(`${hash}: ${foreign} responses from outside ${url}`);
  return {
    first: Math.round(first),
    all: Math.round(all),
    bytes,
    raw,
    script: Math.round(script),
    data: Math.round(data),
  };
}
