// The site on data the harness really produced, not on a hand-made fixture: a smoke run of every
// experiment (percentile metrics, slopes, ratios at another parameter value, variants that ignore
// a parameter, skipped just(js) points) published as two commits, then every view of every
// experiment opened in Debian's chromium. A shape the fixture lacks must not break a view. The
// run is the tests' shared one (helpers/shared-smoke.ts), which counts no work: wc's C and dd points
// are measured again with their work counted and published into the second commit, the way a
// filtered re-run merges into a commit's results (store/merge.ts), so the Overview shows real counts.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, serveSite } from '../../harness/src/site/build-site.js';
import { ROOT, runCli } from '../../harness/test/helpers/cli.js';
import { SHARED_SMOKE_TIMEOUT_MS, sharedResultsFile, sharedSmokeRun } from '../../harness/test/helpers/shared-smoke.js';
import { launch } from './browser.js';

const EXPERIMENTS = ['wc', 'streams', 'records', 'threadpool', 'scan'];
let browser: BrowserContext;
let server: { url: string; close: () => void };
let errors: string[] = [];
const shas: string[] = [];
let counted: { run: { commit: unknown; toolchains: Record<string, string> } };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-site-real-'));
  // The tests' one smoke run of every experiment (its smoke pools are 1 and 4).
  const bench = await sharedSmokeRun();
  expect(bench.status, bench.stderr.slice(-3000)).toBe(0);
  // The same measurements as two commits a day apart: enough for trends and compare.
  const results = JSON.parse(readFileSync(sharedResultsFile(bench), 'utf8'));
  for (const [i, sha] of ['1'.repeat(40), '2'.repeat(40)].entries()) {
    results.run.commit = {
      ...results.run.commit,
      sha,
      dirty: false,
      date: new Date(Date.UTC(2026, 10, 20 + i)).toISOString(),
    };
    writeFileSync(join(dir, `r${i}.json`), JSON.stringify(results));
    const pub = runCli(['publish-run', join(dir, `r${i}.json`), '--store', join(dir, 'store')]);
    expect(pub.status, pub.stderr).toBe(0);
    shas.push(sha);
  }
  // The line says calls per read where a counted point's cost fit names the operation, which start-up
  // noise on a busy machine can withhold from a few smoke runs: twenty runs each (as wc's C reference
  // gets in release sweeps), and dd's point counted beside C's.
  const wcC = ['--experiments', 'wc', '--variants', 'c,dd-null', '--param', 'bs=65536', '--counts', 'all'];
  wcC.push('--runs', '20');
  const again = runCli(['bench', '--profile', 'smoke', ...wcC, '--no-store', '--out', join(dir, 'counted')]);
  expect(again.status, again.stderr).toBe(0);
  counted = JSON.parse(readFileSync(join(dir, 'counted', 'results.json'), 'utf8'));
  counted.run.commit = results.run.commit;
  writeFileSync(join(dir, 'counted.json'), JSON.stringify(counted));
  const merged = runCli(['publish-run', join(dir, 'counted.json'), '--store', join(dir, 'store')]);
  expect(merged.status, merged.stderr).toBe(0);
  await buildSite(ROOT, join(dir, 'store'), join(dir, 'site'));
  server = await serveSite(join(dir, 'site'));
  browser = await launch();
}, SHARED_SMOKE_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  server?.close();
});

async function view(hash: string, rendered: string): Promise<Page> {
  const page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${hash}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${hash}: ${String(e)}`));
  await page.goto(`${server.url}${hash}`);
  await page.waitForSelector(`body[data-rendered="${rendered}"]`, { state: 'attached' });
  return page;
}

describe('the site on a real smoke run', () => {
  it('overview: every experiment has its table, threadpool with Bun and Deno labelled pool n/a', async () => {
    errors = [];
    const page = await view('#/overview', 'overview');
    for (const e of EXPERIMENTS)
      expect(await page.locator(`section[data-experiment="${e}"] details.tables tbody tr`).count(), e).toBeGreaterThan(
        0,
      );
    // The tables are folded under the picture: open threadpool's.
    await page.click('section[data-experiment="threadpool"] details.tables > summary');
    const labels = await page
      .locator('section[data-experiment="threadpool"] details.tables tbody tr td:first-child')
      .allInnerTexts();
    expect(labels).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^bun \(.*pool n\/a\)$/),
        expect.stringMatching(/^deno \(.*pool n\/a\)$/),
        expect.stringMatching(/^c-pool \(.*pool 4\)$/),
      ]),
    );
    expect(await page.innerText('main')).not.toContain('could not be shown');
    // Each experiment leads with its picture and an answer computed from this run.
    for (const e of EXPERIMENTS) {
      expect(await page.locator(`section[data-experiment="${e}"] .picture canvas`).count(), e).toBeGreaterThan(0);
      const answer = await page.innerText(`section[data-experiment="${e}"] .answer-line`);
      expect(answer, e).toMatch(/^[A-Z].*\d.*\.$/);
      expect(answer, e).not.toContain('Not enough points');
    }
    // Where the run counted work (Valgrind installed), wc states C's instructions and read() calls
    // per read beside its cost.
    if (counted.run.toolchains.valgrind)
      expect(await page.innerText('section[data-experiment="wc"] .work-lines li:first-child')).toMatch(
        /^C \(c\): [\d.,]+ instructions and \d\.\d\d read\(\) per read/,
      );
    // The manifest's questions, answered per scenario and variant.
    const answers = await page.locator('section[data-experiment="threadpool"] details.tables .answer').allInnerTexts();
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'real-overview.png'), fullPage: true });
    expect(answers.join('\n')).toMatch(
      /Is parsing the bottleneck once reads are cached\?[\s\S]*pool n\/a: bun \d+\.\d\dx/,
    );
    expect(errors).toEqual([]);
  });

  it.each(EXPERIMENTS)('trends and sweeps of %s draw charts', async (e) => {
    errors = [];
    for (const v of ['trends', 'sweeps']) {
      const page = await view(`#/${v}?experiment=${e}`, v);
      await page.waitForSelector('.chart canvas');
      expect(await page.innerText('main')).not.toContain('could not be shown');
    }
    expect(errors).toEqual([]);
  });

  it('trends: Bun and Deno threadpool series get their own chart, titled pool n/a', async () => {
    errors = [];
    const page = await view('#/trends?experiment=threadpool&metric=latency_p50', 'trends');
    const box = page.locator('.chart[data-key="latency_p50|cache=warm,work=read"]');
    await box.scrollIntoViewIfNeeded();
    await box.locator('canvas').waitFor();
    const text = await box.innerText();
    expect(text).toContain('work=read cache=warm pool n/a');
    expect(text).toMatch(/bun[\s\S]*deno/);
    expect(errors).toEqual([]);
  });

  it('regressions: opens on the real run (two commits: too few to detect anything, and it says so)', async () => {
    errors = [];
    const page = await view('#/regressions', 'regressions');
    expect(await page.innerText('main')).toMatch(
      /No regressions can be detected yet: detection needs at least \d+ commits[^.]*, and it has 2 commits\./,
    );
    expect(await page.innerText('main')).toContain('this list as JSON');
    expect(errors).toEqual([]);
  });

  it('compare: the two commits give a table with verdicts', async () => {
    errors = [];
    const page = await view(`#/compare?base=${shas[0]}&head=${shas[1]}`, 'compare');
    await page.waitForSelector('table.compare');
    expect(await page.locator('table.compare tbody tr').count()).toBeGreaterThan(10);
    expect(errors).toEqual([]);
  });
});
