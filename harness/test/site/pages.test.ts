// `pages` publishes runs into a gh-pages checkout in place (the site built beside the data).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

  it("removes an app file the last build wrote and this one does not, only as that build wrote it; names an older build's leftovers", () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-ghp-'));
    const results = join(dir, '..', `${dir.split('/').pop()}-r.json`);
    writeFileSync(results, JSON.stringify(wcResults('d'.repeat(40))));
    // Left by a build from before the page was one file: named, never removed.
    writeFileSync(join(dir, 'app.js'), 'console.log("an older build, or someone\'s own")');
    const first = runCli(['pages', results, '--dir', dir]);
    expect(first.status).toBe(0);
    expect(first.stderr).toMatch(/app\.js: left by a build from before .* it stays/);
    expect(existsSync(join(dir, 'app.js'))).toBe(true);
    // As if the last build had written two more files: one still as written, one edited since.
    const record = JSON.parse(readFileSync(join(dir, '.jsio-bench-app.json'), 'utf8')) as { files: [string, string][] };
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    writeFileSync(join(dir, 'old-a.js'), 'a');
    writeFileSync(join(dir, 'old-b.js'), 'b, edited');
    record.files.push(['old-a.js', sha('a')], ['old-b.js', sha('b')]);
    writeFileSync(join(dir, '.jsio-bench-app.json'), JSON.stringify(record));
    const second = runCli(['pages', results, '--dir', dir]);
    expect(second.status).toBe(0);
    expect(existsSync(join(dir, 'old-a.js'))).toBe(false);
    expect(existsSync(join(dir, 'old-b.js'))).toBe(true);
    expect(second.stderr).toMatch(/kept old-b\.js: an earlier build wrote it/);
    expect(existsSync(join(dir, 'index.html'))).toBe(true);
  });

  it("carries a run's traces.json into <machine>/traces/<sha>.json, and refuses another commit's before touching anything", () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-ghp-'));
    const run = mkdtempSync(join(tmpdir(), 'jsio-ghp-run-'));
    const sha = 'e'.repeat(40);
    writeFileSync(join(run, 'results.json'), JSON.stringify(wcResults(sha)));
    const traces = {
      schema: 2,
      commit: sha,
      profiles: {
        quick: {
          'wc/c/bs=4096': { paths: ['programs/wc'], listed: [], refusedWrites: [], traced: '2026-11-29T02:00:00Z' },
        },
      },
    };
    writeFileSync(join(run, 'traces.json'), JSON.stringify({ ...traces, commit: 'f'.repeat(40) }));
    const refused = runCli(['pages', join(run, 'results.json'), '--dir', dir]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`${join(run, 'traces.json')} holds the traces of commit ffffffffffff`);
    expect(existsSync(join(dir, 'data'))).toBe(false);
    writeFileSync(join(run, 'traces.json'), JSON.stringify(traces));
    const r = runCli(['pages', join(run, 'results.json'), '--dir', dir]);
    expect(r.status, r.stderr).toBe(0);
    const stored = JSON.parse(readFileSync(join(dir, 'data', 'test-machine', 'traces', `${sha}.json`), 'utf8'));
    expect(stored).toEqual(traces);
  });

  it("merges a run's counts.json into <machine>/counts.json: new counts added, checks never lowered, a dropped family's old counts gone; a count of a point the run did not measure is refused", () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-ghp-'));
    const run = mkdtempSync(join(tmpdir(), 'jsio-ghp-run-'));
    const sha = 'a'.repeat(40);
    const results = wcResults(sha);
    const id = results.benchmarks.find((b) => b.variant === 'c')!.id;
    const count = (family: string, instructions: number, checks: number) => ({
      id,
      family,
      runs: [{ size: 'small', instructions, x: 256 }],
      commit: sha,
      counted: '2026-11-29T05:00:00Z',
      checks,
    });
    // What the store held: a native count re-checked twice, an older one of node22, one of another family.
    const storeFile = join(dir, 'data', 'test-machine', 'counts.json');
    mkdirSync(join(dir, 'data', 'test-machine'), { recursive: true });
    writeFileSync(
      storeFile,
      JSON.stringify({
        schema: 1,
        counts: { k1: count('native', 100, 2), k2: count('node22', 200, 0), k3: count('deno', 300, 0) },
      }),
    );
    writeFileSync(join(run, 'results.json'), JSON.stringify(results));
    // A count of a point the run did not measure: refused before anything is touched.
    writeFileSync(
      join(run, 'counts.json'),
      JSON.stringify({ schema: 1, counts: { k9: { ...count('native', 1, 0), id: 'wc/elsewhere/bs=1' } } }),
    );
    const refused = runCli(['pages', join(run, 'results.json'), '--dir', dir]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`${join(run, 'counts.json')}: counts.k9 is a count of wc/elsewhere/bs=1`);
    expect(existsSync(join(dir, 'data', 'machines.json'))).toBe(false);
    // The run re-checked k1 (once: the store's two checks stay), counted k4 anew, and its node22
    // re-check disagreed (k5 counted again): node22's stored k2 goes.
    const counting = {
      store: 'reused',
      reused: 1,
      counted: 3,
      deferred: 0,
      budget: 60,
      rechecked: [],
      dropped: ['node22'],
    };
    writeFileSync(join(run, 'results.json'), JSON.stringify({ ...results, run: { ...results.run, counting } }));
    writeFileSync(
      join(run, 'counts.json'),
      JSON.stringify({
        schema: 1,
        counts: { k1: count('native', 100, 1), k4: count('native', 400, 0), k5: count('node22', 500, 0) },
      }),
    );
    for (let i = 0; i < 2; i++) {
      // Published twice (a publish that raced starts again): the same store.
      const r = runCli(['pages', join(run, 'results.json'), '--dir', dir]);
      expect(r.status, r.stderr).toBe(0);
      const stored = JSON.parse(readFileSync(storeFile, 'utf8')) as {
        counts: Record<string, { checks: number; runs: { instructions: number }[] }>;
      };
      expect(Object.keys(stored.counts).sort()).toEqual(['k1', 'k3', 'k4', 'k5']);
      expect(stored.counts.k1?.checks).toBe(2);
      expect(stored.counts.k5?.runs[0]?.instructions).toBe(500);
    }
  });

  it("takes the counts of another profile's points from a run that counted them (bench --count-profiles), made at its commit only", () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-ghp-'));
    const run = mkdtempSync(join(tmpdir(), 'jsio-ghp-run-'));
    const sha = 'b'.repeat(40);
    const results = wcResults(sha);
    const other = (commit: string) => ({
      id: 'wc/c/bs=256',
      family: 'native',
      runs: [{ size: 'small', instructions: 700, x: 256 }],
      commit,
      counted: '2026-11-29T05:00:00Z',
      checks: 0,
    });
    const counting = { store: 'reused', reused: 0, counted: 1, deferred: 0, budget: 60, rechecked: [], dropped: [] };
    const profiles = [{ profile: 'quick', reused: 0, counted: 1, deferred: 0, failed: 0 }];
    const publish = (withProfiles: boolean, commit: string) => {
      const c = withProfiles ? { ...counting, profiles } : counting;
      writeFileSync(join(run, 'results.json'), JSON.stringify({ ...results, run: { ...results.run, counting: c } }));
      writeFileSync(join(run, 'counts.json'), JSON.stringify({ schema: 1, counts: { q1: other(commit) } }));
      return runCli(['pages', join(run, 'results.json'), '--dir', dir]);
    };
    // A run that counted no other profile, and one whose count of a point it did not time is another commit's: refused.
    const plain = publish(false, sha);
    expect(plain.status).toBe(2);
    expect(plain.stderr).toContain('counts.q1 is a count of wc/c/bs=256, which');
    const stale = publish(true, 'c'.repeat(40));
    expect(stale.status).toBe(2);
    expect(stale.stderr).toContain('did not measure nor count for another profile: nothing was published');
    expect(existsSync(join(dir, 'data', 'machines.json'))).toBe(false);
    const r = publish(true, sha);
    expect(r.status, r.stderr).toBe(0);
    const stored = JSON.parse(readFileSync(join(dir, 'data', 'test-machine', 'counts.json'), 'utf8'));
    expect(stored.counts.q1).toEqual(other(sha));
  });
});
