// The site build's comparison of each profile's two newest commits is the page's own: compareRuns
// on the two run files as written and the machine's thresholds, recorded with the thresholds it
// used; the store check accepts it, and a profile with no pair to compare keeps no earlier one.
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/compare/quick-look.js';
import { COMPARISON_SCHEMA } from '../../src/formats/comparison-format.js';
import { paths } from '../../src/formats/parts/store-layout.js';
import { newestPair, writeNewestPairs } from '../../src/site/newest-pair.js';
import { checkStore } from '../../src/store/check.js';

const FIXTURE = join(import.meta.dirname, '../../../gh-pages/test/fixtures/store');
const FAST = 'bench-fast-0a1b2c3d';
const sha = (i: number) => `10${i}`.padEnd(40, 'f');

/** A copy of the site tests' store, the fast machine calibrated for a few of its metrics. */
function store(): { dir: string; thresholds: Record<string, number> } {
  const dir = join(mkdtempSync(join(tmpdir(), 'jsio-newest-pair-')), 'data');
  cpSync(FIXTURE, dir, { recursive: true });
  const head = JSON.parse(readFileSync(join(dir, FAST, `runs/${sha(29)}/standard.json`), 'utf8'));
  const thresholds: Record<string, number> = {};
  head.benchmarks.forEach((b: { id: string }, i: number) => {
    if (i % 2) thresholds[`${b.id} wall_time`] = 0.03;
  });
  thresholds['wc/none/bs=1 wall_time'] = 0.5; // a benchmark neither run has
  const noise = { schema: 2, machine: FAST, created: 'x', method: 'paired', repeats: 5, thresholds };
  writeFileSync(join(dir, paths.noise(FAST)), JSON.stringify(noise));
  return { dir, thresholds };
}

const run = (dir: string, i: number) =>
  JSON.parse(readFileSync(join(dir, FAST, `runs/${sha(i)}/standard.json`), 'utf8'));

describe('newestPair', () => {
  it("is compareRuns of the two newest commits' runs, with the thresholds it used", () => {
    const { dir, thresholds } = store();
    const file = newestPair(dir, FAST, 'standard')!;
    expect([file.base, file.head]).toEqual([sha(28), sha(29)]);
    expect(file.comparison).toEqual(compareRuns([run(dir, 28)], [run(dir, 29)], thresholds));
    const used = Object.keys(file.thresholds);
    expect(used.length).toBeGreaterThan(0);
    expect(used).not.toContain('wc/none/bs=1 wall_time');
    for (const k of used) expect(file.thresholds[k]).toBe(thresholds[k]);
    expect(file.comparison.metrics.some((m) => Object.hasOwn(thresholds, `${m.benchmark} ${m.metric}`))).toBe(true);
  });

  it('is written for every machine and profile, and the store check accepts it', () => {
    const { dir } = store();
    expect(writeNewestPairs(dir)).toBe(3);
    for (const [m, p] of [
      [FAST, 'standard'],
      [FAST, 'smoke'],
      ['bench-slow-4e5f6a7b', 'standard'],
    ])
      expect(existsSync(join(dir, paths.newestPair(m!, p!))), `${m} ${p}`).toBe(true);
    expect(() => checkStore(dir)).not.toThrow();
  });

  it("the store check reads an older build's quick look (schema 1, no kind) and refuses another kind", () => {
    const { dir } = store();
    writeNewestPairs(dir);
    const at = join(dir, paths.newestPair(FAST, 'standard'));
    const file = JSON.parse(readFileSync(at, 'utf8'));
    expect(file.comparison).toMatchObject({ schema: COMPARISON_SCHEMA, kind: 'quick-look' });
    const { kind: _kind, ...before } = { ...file.comparison, schema: 1 };
    writeFileSync(at, JSON.stringify({ ...file, comparison: before }));
    expect(() => checkStore(dir)).not.toThrow();
    writeFileSync(at, JSON.stringify({ ...file, comparison: { ...file.comparison, kind: 'pairs' } }));
    expect(() => checkStore(dir)).toThrow(/comparison\.kind/);
  });

  it("is none where the newest run cannot be read, and an earlier build's file is removed", () => {
    const { dir } = store();
    writeNewestPairs(dir);
    writeFileSync(join(dir, FAST, `runs/${sha(29)}/standard.json`), '{"truncated":');
    expect(newestPair(dir, FAST, 'standard')).toBeUndefined();
    expect(writeNewestPairs(dir)).toBe(2);
    expect(existsSync(join(dir, paths.newestPair(FAST, 'standard')))).toBe(false);
  });
});
