/**
 * The site's performance benchmark (not a test): a synthetic store of 5,000 commits and 300
 * series, then headless chromium measures navigation -> first chart drawn, -> all charts of the
 * trends view drawn, overview rendered, bytes transferred, and the JS bundle size.
 */
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildSite, serveSite } from './build-site.js';

const COMMITS = 5000;
const EXPERIMENTS = ['wc', 'streams', 'records'];
const SERIES_PER_EXPERIMENT = 100;

function syntheticStore(dir: string): void {
  const machine = {
    id: 'perf-machine',
    hostname: 'p',
    cpu: 'Synthetic CPU',
    cores: 8,
    memoryBytes: 2 ** 35,
    kernel: 'Linux',
    governor: 'performance',
    runner: 'perf',
  };
  const shas = Array.from({ length: COMMITS }, (_, i) => i.toString(16).padStart(40, '0'));
  const dates = shas.map((_, i) => new Date(Date.UTC(2020, 0, 1) + i * 3600_000 * 8).toISOString());
  const m = join(dir, machine.id);
  mkdirSync(join(m, 'series'), { recursive: true });
  mkdirSync(join(m, 'runs'), { recursive: true });
  writeFileSync(
    join(dir, 'machines.json'),
    JSON.stringify({ schema: 1, machines: { [machine.id]: { machine, lastRun: dates.at(-1), commits: COMMITS } } }),
  );
  const commits = shas.map((sha, i) => ({
    sha,
    date: dates[i],
    subject: `Commit ${i}`,
    ref: 'main',
    runId: `r${i}`,
    profile: 'standard',
    partial: false,
    file: `runs/${sha}.json`,
    counts: { ok: 300, skipped: 0, failed: 0 },
    experiments: EXPERIMENTS,
  }));
  writeFileSync(join(m, 'index.json'), JSON.stringify({ schema: 1, machine, commits }));
  const benchmarks = [];
  for (const exp of EXPERIMENTS) {
    const series: Record<string, unknown> = {};
    for (let s = 0; s < SERIES_PER_EXPERIMENT; s++) {
      const variant = `variant-${s % 10}`;
      const bs = 2 ** (8 + Math.floor(s / 10));
      const id = `${exp}/${variant}/bs=${bs}`;
      const values = shas.map((_, i) =>
        Number(
          (0.01 * (1 + (s % 10)) * (1 + 0.02 * Math.sin(i + s)) * (i > 2500 && s % 7 === 0 ? 1.2 : 1)).toPrecision(5),
        ),
      );
      series[id] = {
        variant,
        params: { bs },
        metrics: {
          wall_time: {
            unit: 's',
            direction: 'smaller',
            values,
            ranges: values.map((v) => Number((v * 0.01).toPrecision(3))),
          },
        },
      };
      benchmarks.push({
        id,
        experiment: exp,
        variant,
        params: { bs },
        status: 'ok',
        derived: {},
        metrics: {
          wall_time: {
            unit: 's',
            direction: 'smaller',
            value: values.at(-1),
            deterministic: false,
            source: 'hyperfine',
          },
        },
      });
    }
    writeFileSync(
      join(m, 'series', `${exp}.json`),
      JSON.stringify({ schema: 1, experiment: exp, commits: shas, series }),
    );
  }
  const last = {
    schema: 1,
    run: {
      id: 'last',
      profile: 'standard',
      partial: false,
      start: dates.at(-1),
      end: dates.at(-1),
      commit: { sha: shas.at(-1), ref: 'main', subject: 'last', date: dates.at(-1), dirty: false },
      machine,
      toolchains: { node: '22' },
    },
    experiments: Object.fromEntries(
      EXPERIMENTS.map((e) => [
        e,
        { title: e, question: `${e}?`, parameters: { bs: { description: 'bs', unit: 'B' } } },
      ]),
    ),
    benchmarks,
  };
  writeFileSync(join(m, 'runs', `${shas.at(-1)}.json`), JSON.stringify(last));
}

export async function sitePerf(root: string): Promise<Record<string, number>> {
  const tmp = mkdtempSync(join(tmpdir(), 'jsio-site-perf-'));
  syntheticStore(join(tmp, 'store'));
  await buildSite(root, join(tmp, 'store'), join(tmp, 'site'));
  const { url, close } = await serveSite(join(tmp, 'site'));
  const ctx = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'jsio-chromium-')), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const measure = async (hash: string, ready: string) => {
    const page = await ctx.newPage();
    let bytes = 0;
    page.on('response', async (r) => {
      bytes += (await r.body().catch(() => Buffer.alloc(0))).length;
    });
    const t0 = Date.now();
    await page.goto(`${url}${hash}`);
    await page.waitForSelector(ready, { timeout: 60_000 });
    const first = Date.now() - t0;
    await page.waitForSelector(`body[data-rendered]`, { timeout: 60_000 });
    // Every chart box in the first viewport drawn (the rest draw as they scroll into view).
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.chart')]
          .filter((c) => c.getBoundingClientRect().top < innerHeight)
          .every((c) => c.querySelector('canvas')),
      undefined,
      { timeout: 60_000 },
    );
    const all = Date.now() - t0;
    await page.waitForLoadState('networkidle');
    await page.close();
    return { first, all, bytes };
  };
  const overview = await measure('#/overview', 'section.experiment');
  const trends = await measure('#/trends?machine=perf-machine&experiment=wc&metric=wall_time', '.chart canvas');
  await ctx.close();
  close();
  return {
    overview_rendered_ms: overview.all,
    overview_bytes: overview.bytes,
    trends_first_chart_ms: trends.first,
    trends_visible_charts_ms: trends.all,
    trends_bytes: trends.bytes,
    bundle_bytes: statSync(join(tmp, 'site', 'app.js')).size,
    css_bytes: statSync(join(tmp, 'site', 'app.css')).size,
  };
}
