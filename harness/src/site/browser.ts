import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';

/** Debian's chromium (never a downloaded browser), headless, with a fresh profile removed on close. */
export async function launch(): Promise<BrowserContext> {
  // Loaded here, not at the top: playwright-core takes longer to load than most commands take to run.
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'jsio-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
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
  // After close() has returned: the 'close' event comes while chromium still writes its profile.
  const close = context.close.bind(context);
  context.close = async (options) => {
    await close(options);
    rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  };
  return context;
}
