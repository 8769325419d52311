// PR diffs: base and head measured alternately, then compared; and `pages` publishes runs into
// a gh-pages checkout in place.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Comparison } from '../src/model/comparison.js';
import { FIXTURES, ROOT, runCli } from './helpers/cli.js';
import { wcResults } from './helpers/results.js';

describe('rounds', () => {
  it('alternates base and head and writes the comparison', () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-rounds-'));
    const r = runCli([
      'rounds',
      '--base',
      ROOT,
      '--head',
      ROOT,
      '--rounds',
      '2',
      '--out',
      out,
      '--noise-store',
      join(out, 'no-store'),
      '--',
      '--profile',
      'smoke',
      '--programs',
      join(FIXTURES, 'faults'),
      '--variants',
      'ok',
    ]);
    expect(r.status).toBe(0);
    expect(r.stderr.match(/== round \d\/2: (base|head)/g)).toEqual([
      '== round 1/2: base',
      '== round 1/2: head',
      '== round 2/2: base',
      '== round 2/2: head',
    ]);
    const c = Comparison.parse(JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')));
    expect(c.base.runs).toBe(2);
    expect(c.metrics.map((m) => [m.benchmark, m.metric, m.base.n, m.head.n])).toEqual([
      ['faults/ok/bs=65536', 'wall_time', 4, 4],
    ]);
    expect(readFileSync(join(out, 'comparison.md'), 'utf8')).toMatch(/^## Performance: /);
    expect(c.method).toContain('no calibration for this machine yet');
  });

  it('refuses a malformed noise file before measuring anything', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-rounds-'));
    writeFileSync(join(dir, 'noise.json'), '{"schema":1}');
    const r = runCli(['rounds', '--base', ROOT, '--head', ROOT, '--noise', join(dir, 'noise.json'), '--out', dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/noise\.json is invalid:/);
    expect(r.stderr).not.toContain('== round');
  });

  it('refuses a bad round count', () => {
    const r = runCli(['rounds', '--base', ROOT, '--head', ROOT, '--rounds', 'x']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--rounds x: expected an integer from 1 to 20');
  });
});

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
      'app.js',
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
