// `pages` publishes runs into a gh-pages checkout in place (the site built beside the data).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { wcResults } from '../helpers/results.js';

describe('pages', () => {
  it('publishes into data/ and builds the site in place, keeping other files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-ghp-'));
    writeFileSync(join(dir, 'keep.txt'), 'github-action-benchmark data lives here too');
    const results = join(dir, '..', `${dir.split('/').pop()}-r.json`);
    writeFileSync(results, JSON.stringify(wcResults('c'.repeat(40))));
    const r = runCli(['pages', results, '--dir', dir]);
    expect(r.status).toBe(0);
    for (const f of [
      'index.html',
      '.nojekyll',
      'data/machines.json',
      'data/test-machine/index.json',
      `data/test-machine/runs/${'c'.repeat(40)}/smoke.json`,
      'data/test-machine/trends/smoke/catalog.json',
      'data/test-machine/trends/smoke/regressions.json',
      'keep.txt',
    ]) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
  });
});
