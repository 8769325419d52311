// Trend marks in chromium: a commit marked in the store (marks.json, as `npm run pages` writes it)
// is drawn on every trend chart at its commit, said in the tooltip there, and listed below the
// charts with its reason and where it comes from; a reason full of markup is shown as text.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, serveSite } from '../../harness/src/site/build-site.js';
import { storeMarks } from '../../harness/src/store/mark-store.js';
import { publishRun } from '../../harness/src/store/publish-run.js';
import { wcResults } from '../../harness/test/helpers/results.js';
import { launch } from './browser.js';
import { CLEAN, injected, openView } from './page-checks.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SHAS = ['1', '2', '3'].map((c) => c.repeat(40));
const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> & "quoted"`;
let browser: BrowserContext;
let server: { url: string; close: () => void };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-site-marks-'));
  const store = join(dir, 'store');
  for (const [i, sha] of SHAS.entries()) {
    const r = wcResults(sha);
    r.run.commit.date = `2026-11-2${i}T00:00:00Z`;
    r.run.commit.subject = `commit ${i}`;
    await publishRun(store, r);
  }
  const marked = { sha: SHAS[1]!, date: '2026-11-21T00:00:00Z', subject: 'commit 1' };
  storeMarks(store, 'test-machine', {
    commit: marked,
    profile: 'smoke',
    decided: ['sandbox', 'harness'],
    marks: [
      {
        kind: 'sandbox',
        profile: 'smoke',
        reason: "measured in the sandbox (bubblewrap) from this commit on; the previous commit's runs were not",
        source: `test-machine/runs/${SHAS[0]}/smoke.json`,
      },
      { kind: 'harness', profile: 'smoke', reason: `the harness changed: ${HOSTILE}`, source: `verdict ${HOSTILE}` },
    ],
  });
  await buildSite(ROOT, store, join(dir, 'site'));
  server = await serveSite(join(dir, 'site'));
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

const TRENDS = '#/trends?machine=test-machine&profile=smoke&experiment=wc&metric=wall_time';

describe('trend marks on the site', () => {
  it('a marked commit is drawn on the charts at its position and listed below them with its reason', async () => {
    const { page, errors } = await openView(browser, server.url + TRENDS, 'trends');
    const drawn = await page.locator('.chart[data-marks]').first().getAttribute('data-marks');
    expect(drawn).toBe('sandbox@1 harness@1');
    const items = page.locator('#marks li.mark');
    expect(await items.count()).toBe(2);
    const sandbox = await page.innerText('#marks li.mark[data-kind="sandbox"]');
    expect(sandbox).toContain('sandbox or toolchain at 2222222222 commit 1');
    expect(sandbox).toContain(
      "measured in the sandbox (bubblewrap) from this commit on; the previous commit's runs were not",
    );
    expect(sandbox).toContain(`(from test-machine/runs/${SHAS[0]}/smoke.json)`);
    // The tooltip at the marked commit says why (the middle of three commits).
    const over = page.locator('.u-over').first();
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('.tooltip .tip-mark').first().waitFor();
    expect(await page.innerText('.tooltip')).toContain('sandbox: measured in the sandbox (bubblewrap)');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a reason and a source full of markup are shown as text: nothing created, nothing run', async () => {
    const { page, errors } = await openView(browser, server.url + TRENDS, 'trends');
    const harness = await page.innerText('#marks li.mark[data-kind="harness"]');
    expect(harness).toContain(`the harness changed: ${HOSTILE}`);
    expect(harness).toContain(`(from verdict ${HOSTILE})`);
    const over = page.locator('.u-over').first();
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('.tooltip .tip-mark').first().waitFor();
    expect(await page.innerText('.tooltip')).toContain(HOSTILE);
    expect(await injected(page)).toEqual(CLEAN);
    expect(errors).toEqual([]);
    await page.close();
  });
});
