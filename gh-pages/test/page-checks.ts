// Opening a built site's view in chromium, and what every view must show: no errors, nothing
// injected, nothing wider than the viewport.
import type { BrowserContext, Page } from 'playwright-core';

export interface Opened {
  page: Page;
  errors: string[];
}

/** Opens a view and waits until it says it is drawn; CSP violations are recorded in the page. */
export async function openView(browser: BrowserContext, url: string, view: string, width = 1400): Promise<Opened> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
    );
  });
  await page.setViewportSize({ width, height: 900 });
  await page.goto(url);
  await page.waitForSelector(`body[data-rendered="${view}"]`);
  return { page, errors };
}

/**
 * What markup from the store could have created: elements that load or run something, event
 * handler attributes, javascript: links, a script that ran (window.__pwned), a blocked attempt.
 */
export function injected(page: Page) {
  return page.evaluate(() => {
    const all = [...document.querySelectorAll('*')];
    return {
      pwned: (window as unknown as { __pwned?: unknown }).__pwned ?? null,
      elements: [
        ...document.querySelectorAll('body img, body svg, body iframe, body object, body embed, body video'),
      ].map((e) => e.outerHTML.slice(0, 80)),
      // The site's own inline ones by their id: config.json and the preload plan (data), the
      // preloader and the app's bundle.
      scripts: [...document.querySelectorAll('script')].map(
        (s) => s.getAttribute('src') ?? `inline #${s.id} ${s.type || 'script'}: ${s.id ? '…' : s.textContent}`,
      ),
      handlers: all.flatMap((e) =>
        [...e.attributes].filter((a) => a.name.toLowerCase().startsWith('on')).map((a) => `${e.tagName} ${a.name}`),
      ),
      links: [...document.querySelectorAll('a[href]')]
        .map((a) => a.getAttribute('href')!)
        .filter((h) => /^\s*javascript:/i.test(h)),
      violations: (window as unknown as { __violations: string[] }).__violations,
    };
  });
}

export const CLEAN = {
  pwned: null,
  elements: [],
  scripts: [
    'inline #site-config application/json: …',
    'inline #preload-plan application/json: …',
    'inline #preloader script: …',
    'inline #bundle module: …',
  ],
  handlers: [],
  links: [],
  violations: [],
};

/** Elements sticking out of the viewport (not counting what scrolls inside a box of its own). */
export function overflowing(page: Page) {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const inScroller = (e: Element) => {
      for (let p = e.parentElement; p; p = p.parentElement)
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return true;
      return false;
    };
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && (r.right > vw + 1 || r.left < -1) && !inScroller(e);
      })
      .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
    return { pageWidth: document.documentElement.scrollWidth, viewport: vw, wide: wide.slice(0, 10) };
  });
}
