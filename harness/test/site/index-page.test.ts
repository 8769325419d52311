// The built index.html holds the site: the stylesheet, config.json's content, the preloader with
// its plan and the app's bundle, inline, the style and the scripts allowed by their hashes only;
// the preloader comes before anything long is parsed, the bundle last.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PreloadPlan } from '../../src/model/preload-plan.js';
import { indexPage, type PageParts } from '../../src/site/index-page.js';

const template = readFileSync(join(import.meta.dirname, '../../../gh-pages/index.html'), 'utf8');
const plan = { machine: 'm', catalog: 'data/m/trends/standard/catalog.json' } as PreloadPlan;
const parts: PageParts = {
  css: 'body { color: red }\n.uplot { display: block }',
  config: '{"repoUrl":"https://github.com/o/r"}',
  plan,
  preloader: 'document.title="x";',
  app: 'document.body.dataset.app="1";',
};
const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

describe('indexPage', () => {
  const page = indexPage(template, parts);

  it('allows the inline style, preloader and bundle by their hashes, and has no other script', () => {
    expect(page).toContain(`script-src 'self' ${hash(parts.preloader)} ${hash(parts.app)};`);
    expect(page).toContain(`style-src 'self' ${hash(parts.css)};`);
    expect(page).toContain(`<style>${parts.css}</style>`);
    expect(page).toContain(`<script id="preloader">${parts.preloader}</script>`);
    expect(page).toContain(`<script type="module" id="bundle">${parts.app}</script>`);
    const scripts = page.match(/<script(?! type="application\/json")[^>]*>/g);
    expect(scripts).toEqual(['<script id="preloader">', '<script type="module" id="bundle">']);
    expect(page).not.toMatch(/rel="stylesheet"|href="config.json"|src="app.js"/);
  });

  it('holds the plan and config.json as data', () => {
    const block = (id: string) =>
      new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`).exec(page)?.[1];
    expect(JSON.parse(block('preload-plan')!)).toEqual(plan);
    expect(block('site-config')).toBe(parts.config);
  });

  it('runs the preloader under the policy, before the stylesheet and the bundle are parsed', () => {
    const at = (s: string) => page.indexOf(s);
    expect(at('Content-Security-Policy')).toBeLessThan(at('id="preloader"'));
    expect(at('id="preloader"')).toBeLessThan(at('<style>'));
    expect(at('<style>')).toBeLessThan(at('id="bundle"'));
    expect(at('id="bundle"')).toBeGreaterThan(at('<main id="app">'));
  });

  it('escapes "<" in data, so no value ends its block', () => {
    const odd = indexPage(template, {
      ...parts,
      config: '{"repoUrl":"</script><script>alert(1)</script>"}',
      plan: { ...plan, machine: '<!--' },
    });
    expect(odd).not.toContain('</script><script>alert');
    expect(odd).not.toContain('"machine":"<!--');
    expect(JSON.parse(/id="preload-plan">(.*?)<\/script>/.exec(odd)![1]!).machine).toBe('<!--');
    expect(JSON.parse(/id="site-config">(.*?)<\/script>/.exec(odd)![1]!).repoUrl).toBe(
      '</script><script>alert(1)</script>',
    );
  });

  it('has no preloader without a plan (an empty store), and refuses a page it cannot fill', () => {
    const empty = indexPage(template, { ...parts, plan: undefined });
    expect(empty).not.toContain('id="preloader"');
    expect(empty).toContain(`script-src 'self' ${hash(parts.app)};`);
    expect(() => indexPage('<html></html>', parts)).toThrow('no place for the inlined parts');
    expect(() => indexPage(template, { ...parts, css: 'x</style><script>' })).toThrow(
      'the stylesheet holds "</style", which ends its <style> early',
    );
    expect(() => indexPage(template, { ...parts, app: '"</script>"' })).toThrow(
      `the app's bundle holds "</script", which ends its <script> early`,
    );
    expect(() => indexPage(template, { ...parts, app: 'a<!--b' })).toThrow(
      `the app's bundle holds "<!--", after which a "</script>" no longer ends its <script>`,
    );
    expect(() => indexPage(template, { ...parts, preloader: 'x="<SCRIPT>"' })).toThrow('the preloader holds "<SCRIPT"');
  });
});
