/**
 * The built index.html: gh-pages/index.html with the site put into it, so the page asks for no
 * file but its data: the stylesheet (the site's, then the bundle's), config.json's content, the
 * preloader with its plan (it asks for the view's data while the rest of the page is parsed), and
 * the app's bundle, last. The Content-Security-Policy allows the inline style and scripts by their
 * hashes only; data blocks (type application/json) run nothing.
 */
import { createHash } from 'node:crypto';
import type { PreloadPlan } from '../model/preload-plan.js';

export interface PageParts {
  /** The stylesheet, in the order the page linked them (the site's, then uPlot's). */
  css: string;
  /** config.json as written. */
  config: string;
  plan: PreloadPlan | undefined;
  /** The preloader script (gh-pages/src/preload.ts, bundled). */
  preloader: string;
  /** The app's bundle (gh-pages/src/main.ts), a module. */
  app: string;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** JSON in a data block: no "<", so no "</script>" or "<!--" can end or change the block. */
const dataBlock = (id: string, json: string) =>
  `<script type="application/json" id="${id}">${json.replace(/</g, '\\u003c')}</script>`;

const STYLESHEETS = '<link rel="stylesheet" href="style.css">\n<link rel="stylesheet" href="app.css">';
const APP = '<script type="module" src="app.js"></script>';
const CONFIG = '<link rel="preload" href="config.json" as="fetch" crossorigin="anonymous">';
const SCRIPTS = "script-src 'self'";
const STYLES = "style-src 'self'";

/**
 * The first inlined part holding text the HTML parser would act on, said with what it holds:
 * "</style" ends a style; inside a script "</script" ends it, and "<!--" or "<script" switch the
 * parser into a state where a later "</script>" no longer ends it.
 */
function unsafeText(parts: PageParts): string | undefined {
  if (/<\/style/i.test(parts.css)) return 'the stylesheet holds "</style", which ends its <style> early';
  for (const [name, text] of [
    ['the preloader', parts.preloader],
    ["the app's bundle", parts.app],
  ] as const) {
    const m = /<\/script|<!--|<script/i.exec(text);
    if (m)
      return `${name} holds "${m[0]}"${m[0].startsWith('</') ? ', which ends its <script> early' : ', after which a "</script>" no longer ends its <script>'}`;
  }
  return undefined;
}

export function indexPage(template: string, parts: PageParts): string {
  const missing = [STYLESHEETS, CONFIG, APP, SCRIPTS, STYLES, '<meta name="viewport"'].filter(
    (s) => !template.includes(s),
  );
  if (missing.length) throw new Error(`index.html: no place for the inlined parts (${missing.join('; ')})`);
  const found = unsafeText(parts);
  if (found)
    throw new Error(`index.html: ${found}, which would change how the page's HTML is read; it cannot be inlined`);
  const preloader = parts.plan
    ? `${dataBlock('preload-plan', JSON.stringify(parts.plan))}\n<script id="preloader">${parts.preloader}</script>\n`
    : '';
  return template
    .replace(SCRIPTS, [SCRIPTS, ...(parts.plan ? [sha256(parts.preloader)] : []), sha256(parts.app)].join(' '))
    .replace(STYLES, `${STYLES} ${sha256(parts.css)}`)
    .replace(CONFIG, () => dataBlock('site-config', parts.config))
    .replace('<meta name="viewport"', () => `${preloader}<meta name="viewport"`)
    .replace(STYLESHEETS, () => `<style>${parts.css}</style>`)
    .replace(APP, () => `<script type="module" id="bundle">${parts.app}</script>`);
}
