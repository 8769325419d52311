// Counted work on the site, in Debian's chromium, at 360 and 1920 px, on the fixture store (wc's
// headline point counted: C, node-stream per Node with node22's planted step in work too, node20's
// count unsteady at one commit, bun not countable; threadpool's c-pool counted as evidence). The
// Overview states per-read instructions and system calls beside the headline metric with its
// interval, says what a count covers and leaves out, and marks what is no figure to act on; the
// Trends view draws the counts on charts of their own, their exact step listed, the rest marked.
// Nothing sticks out of the page, and no console error.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, serveSite } from '../../harness/src/site/build-site.js';
import { launch } from './browser.js';
import { openView, overflowing } from './page-checks.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MACHINE = 'bench-fast-0a1b2c3d';
const WIDTHS = [360, 1920];

let browser: BrowserContext;
let server: { url: string; close: () => void };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-counts-'));
  await buildSite(ROOT, join(import.meta.dirname, 'fixtures', 'store'), join(dir, 'site'));
  server = await serveSite(join(dir, 'site'));
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
});

describe.each(WIDTHS)('counted work at %i px', (width) => {
  it('the Overview states instructions and system calls beside the headline metric, with what a count covers', async () => {
    const { page, errors } = await openView(browser, `${server.url}#/overview?machine=${MACHINE}`, 'overview', width);
    const wc = page.locator('section[data-experiment="wc"] .work');
    await wc.waitFor();
    const lead = await wc.locator('.work-lead').innerText();
    expect(lead).toContain('the user-space instructions of the measured process');
    expect(lead).toContain('kernel work is not in the count, the system calls (traced with strace) stand for it');
    expect(await wc.locator('.work-at').allInnerTexts()).toEqual(['At bs 64 KiB:']);
    const lines = await wc.locator('.work-lines li').allInnerTexts();
    // The reference first; per read where the point is a fit's, the headline metric with its interval.
    expect(lines[0]).toMatch(
      /^C \(c\): 17\.1 instructions per read, 16,419 system calls per run; throughput \d+ MB\/s \(range of the runs: \d+ MB\/s … \d+ MB\/s\)$/,
    );
    expect(lines).toContainEqual(expect.stringMatching(/^node-stream \(node22\): 19,054 instructions per read, /));
    expect(lines).toContainEqual(
      expect.stringMatching(/^bun: not counted \(bun has no deterministic settings to count with\); throughput /),
    );
    // Evidence only is said, and greyed.
    const tp = page.locator('section[data-experiment="threadpool"] .work-lines li');
    expect(await tp.allInnerTexts()).toEqual([
      expect.stringMatching(
        /^c-pool \(cache warm, work read\): 2,400,000 instructions per run; p50 latency .* \(evidence only: threads and the kernel decide its cost\)$/,
      ),
    ]);
    expect(await tp.first().getAttribute('class')).toBe('muted');
    const o = await overflowing(page);
    expect(o.pageWidth, o.wide.join(', ')).toBeLessThanOrEqual(o.viewport);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the Trends view draws the counts on charts of their own, the step listed, what is no trend marked', async () => {
    const { page, errors } = await openView(
      browser,
      `${server.url}#/trends?machine=${MACHINE}&experiment=wc&metric=wall_time`,
      'trends',
      width,
    );
    const section = page.locator('.work-trends');
    // Drawn as it comes into view, like every trend chart.
    await section.locator('.chart').first().scrollIntoViewIfNeeded();
    await section.locator('.chart canvas').first().waitFor();
    expect(await section.locator('h3').innerText()).toBe('Counted work: instructions per read');
    // Never on a time's axis: the timing's charts hold no count, the work's no time.
    expect(await page.locator('#charts .u-title').allInnerTexts()).toEqual([
      'wall time · bs=4096',
      'wall time · bs=65536',
    ]);
    const work = section.locator('.chart');
    expect(await work.locator('.u-title').allInnerTexts()).toEqual(['instructions per read · bs=65536']);
    // A log axis at decades (C and Node are orders of magnitude apart), in thousands of instructions.
    expect(JSON.parse((await work.getAttribute('data-yticks'))!)).toContain('10.0');
    expect(await work.innerText()).not.toMatch(/\bms\b/);
    expect(await work.locator('.u-legend .u-series th').allInnerTexts()).toEqual([
      'c',
      'node-stream (node20)',
      'node-stream (node22)',
    ]);
    const note = await work.locator('.work-note').innerText();
    expect(note).toContain('kernel work is not in them (the system calls stand for it)');
    expect(note).toContain('Counts that did not repeat (no step is called on them): node-stream (node20) at 1 commit.');
    // The exact step of node22 is listed; node20's blip is not.
    await page.locator('#changes li').first().waitFor();
    const changes = await page.innerText('#changes');
    expect(changes).toMatch(/instructions per read · bs=65536 · node-stream \(node22\): ×1\.250 \(worse\) at 1020f+/);
    expect(changes).not.toMatch(/instructions per read · bs=65536 · node-stream \(node20\)/);
    const o = await overflowing(page);
    expect(o.pageWidth, o.wide.join(', ')).toBeLessThanOrEqual(o.viewport);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a count that is evidence only is marked on its line: no trend to act on', async () => {
    const { page, errors } = await openView(
      browser,
      `${server.url}#/trends?machine=${MACHINE}&experiment=threadpool`,
      'trends',
      width,
    );
    const work = page.locator('.work-trends .chart');
    await work.first().scrollIntoViewIfNeeded();
    await work.locator('canvas').first().waitFor();
    expect(await work.locator('.u-legend .u-series th').allInnerTexts()).toEqual(['c-pool (evidence only)']);
    expect(await work.locator('.work-note').innerText()).toContain('Evidence only, no trend to act on: c-pool.');
    const o = await overflowing(page);
    expect(o.pageWidth, o.wide.join(', ')).toBeLessThanOrEqual(o.viewport);
    expect(errors).toEqual([]);
    await page.close();
  });
});
