// The built site opened from disk (file://) cannot run its module script: after a moment it says
// how to serve it instead of "Loading…" forever. Served, the hint never shows.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { buildSite, serveSite } from '../../harness/src/site/build-site.js';
import { launch } from './browser.js';

const ROOT = join(import.meta.dirname, '..', '..');

it('says how to serve the site when it is opened from disk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-from-disk-'));
  const index = await buildSite(
    ROOT,
    join(ROOT, 'harness', 'test', 'fixtures', 'site-stores', 'single'),
    join(dir, 'site'),
  );
  const browser = await launch();
  const server = await serveSite(join(dir, 'site'));
  try {
    const disk = await browser.newPage();
    await disk.goto(pathToFileURL(index).href);
    await disk.waitForTimeout(3500);
    expect(await disk.locator('.file-hint').isVisible()).toBe(true);
    expect(await disk.locator('.file-hint').innerText()).toContain('npm run site -- --serve');
    const served = await browser.newPage();
    await served.goto(`${server.url}#/overview`);
    await served.waitForSelector('body[data-rendered="overview"]');
    await served.waitForTimeout(3500);
    expect(await served.locator('.file-hint').count()).toBe(0);
  } finally {
    await browser.close();
    server.close();
  }
});
