// A folder holding only index.html, app.js and data/ was taken for a build made before the
// marker existed, and replaced: a file in its data/ was lost. Such a folder is replaced only when
// its files are what a build writes, checked by content.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSiteOutput } from '../../src/site/output-dir.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-site-lookalike-'));
const store = join(dir, 'store');

function lookalike(name: string, files: Record<string, string>): string {
  const out = join(dir, name);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(out, f, '..'), { recursive: true });
    writeFileSync(join(out, f), text);
  }
  return out;
}

const page = '<!doctype html><title>jsio-bench — I/O in JavaScript runtimes vs C</title>';

describe('site --out without the marker', () => {
  it('refuses index.html, app.js and a data/ file that no build wrote', () => {
    const out = lookalike('u', { 'index.html': 'x', 'app.js': 'x', 'data/important.csv': 'keep' });
    expect(() => checkSiteOutput(out, store)).toThrow(`--out ${out}: not empty and not a site this tool built`);
    expect(readFileSync(join(out, 'data', 'important.csv'), 'utf8')).toBe('keep');
  });

  it('refuses a page that is not this tool’s even when data/ holds only JSON', () => {
    const out = lookalike('v', { 'index.html': 'x', 'app.js': 'x', 'data/machines.json': '{}' });
    expect(() => checkSiteOutput(out, store)).toThrow('not a site this tool built (it holds index.html');
  });

  it('accepts an old build: this tool’s page, config.json of its keys, JSON data', () => {
    const out = lookalike('w', {
      'index.html': page,
      'app.js': 'console.log(1)',
      'config.json': '{"overview":{},"labels":{}}',
      'data/machines.json': '{"schema":3}',
      'data/m/index.json': '{}',
    });
    expect(() => checkSiteOutput(out, store)).not.toThrow();
  });
});
