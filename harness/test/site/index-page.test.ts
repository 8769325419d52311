// The built index.html holds what every first view needs: the stylesheet, config.json's content
// and the preloader with its plan, inline, the style and the script allowed by their hashes only;
// the bundle is asked for first, and no stylesheet holds it back.
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
};
const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

describe('indexPage', () => {
  const page = indexPage(template, parts);

  it('allows the inline style and preloader by their hashes, and runs no other inline script', () => {
    expect(page).toContain(`script-src 'self' ${hash(parts.preloader)};`);
    expect(page).toContain(`style-src 'self' ${hash(parts.css)};`);
    expect(page).toContain(`<style>${parts.css}</style>`);
    expect(page).toContain(`<script id="preloader">${parts.preloader}</script>`);
    const inline = page.match(/<script(?! type="application\/json")(?![^>]*\bsrc=)[^>]*>/g);
    expect(inline).toEqual(['<script id="preloader">']);
    expect(page).not.toMatch(/rel="stylesheet"|href="config.json"/);
  });

  it('holds the plan and config.json as data', () => {
    const block = (id: string) =>
      new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`).exec(page)?.[1];
    expect(JSON.parse(block('preload-plan')!)).toEqual(plan);
    expect(block('site-config')).toBe(parts.config);
  });

  it('asks for the bundle before the preloader asks for the data, both under the policy', () => {
    const at = (s: string) => page.indexOf(s);
    expect(at('Content-Security-Policy')).toBeLessThan(at('src="app.js"'));
    expect(at('src="app.js"')).toBeLessThan(at('id="preloader"'));
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
    expect(empty).toContain("script-src 'self';");
    expect(() => indexPage('<html></html>', parts)).toThrow('no place for the inlined parts');
    expect(() => indexPage(template, { ...parts, css: 'x</style><script>' })).toThrow('a part closes its tag');
  });
});
