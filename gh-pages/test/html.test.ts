// The site's one escaping helper: every interpolation is text unless built by html``.
import { describe, expect, it } from 'vitest';
import { escapeHtml, html, join, safeUrl } from '../src/html.js';
import { SITE_VERDICT_TEXT, siteVerdict } from '../src/views/compare-table.js';
import { pct, ratioInterval, worseInterval, worseRatio } from '../src/views/signs.js';

describe('html', () => {
  it('escapes every interpolation, in text and in attributes', () => {
    const unit = '<img src=x onerror="alert(1)">';
    expect(html`<td title="${unit}">${unit}</td>`.markup).toBe(
      '<td title="&#60;img src=x onerror=&#34;alert(1)&#34;&#62;">&#60;img src=x onerror=&#34;alert(1)&#34;&#62;</td>',
    );
    expect(escapeHtml("'`&")).toBe('&#39;&#96;&#38;');
  });
  it('keeps markup built by html, and arrays of it, as markup', () => {
    const rows = ['<a>', 'b'].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${rows}</ul>`.markup).toBe('<ul><li>&#60;a&#62;</li><li>b</li></ul>');
    expect(join(['<', html`<br>`], ', ').markup).toBe('&#60;, <br>');
  });
  it('lets no javascript: URL become a link', () => {
    expect(safeUrl('javascript:alert(1)')).toBe('#');
    expect(safeUrl('https://github.com/o/r/commit/abc')).toBe('https://github.com/o/r/commit/abc');
    expect(safeUrl('#/trends?x=1')).toBe('#/trends?x=1');
  });
});

describe('signs and verdicts', () => {
  it('+ is worse whatever the direction, and a ratio interval never reads below −100%', () => {
    expect(pct(worseRatio(1329 / 1391, 'bigger'))).toBe('+4.7%');
    expect(pct(worseRatio(1.25, 'smaller'))).toBe('+25.0%');
    expect(pct(-12.1)).toBe('—');
    expect(ratioInterval(worseInterval([-0.5, 1.2], 'smaller'))).toBe('? … ×1.200');
    expect(ratioInterval(worseInterval([0.8, 1.25], 'bigger'))).toBe('×0.800 … ×1.250');
  });
  it('judges a change only where a calibrated threshold supports it', () => {
    const m = { benchmark: 'wc/c/bs=65536', metric: 'wall_time', verdict: 'faster' } as Parameters<
      typeof siteVerdict
    >[0];
    const shown = (...a: Parameters<typeof siteVerdict>) => SITE_VERDICT_TEXT[siteVerdict(...a)];
    expect(siteVerdict(m, {})).toBe('uncalibrated');
    expect(shown(m, {})).toBe('not called');
    expect(shown(m, { 'wc/c/bs=65536 wall_time': 0.05 })).toBe('faster');
    expect(shown({ ...m, verdict: 'unchanged' }, { 'wc/c/bs=65536 wall_time': 0.05 })).toBe('within noise');
    expect(shown({ ...m, verdict: 'untestable' }, {})).toBe('too few samples to call');
  });
});
