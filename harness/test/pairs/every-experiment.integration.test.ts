// Every experiment in a PR diff from fresh clones with no cached inputs, as pr.yml starts from an
// empty workspace: each experiment must have compared points. (Scan and threadpool once failed on
// both sides of every fresh diff: their generators ran only when invoked by their real path, and
// the diff runs both sides through symlinks; the comment then still said "No regression found".)
// One cheap variant per experiment, the smoke profile, a half-minute budget (its A/A control
// points never decide early, so they spend all of it; a few pairs each are enough to compare);
// no timing asserted. Nothing is counted under Valgrind (JSIO_COUNTS=none): counting a streams
// point on both sides costs far more than the diff itself, and counts in a PR diff have their
// own tests (work-verdict, the workflow replay).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PairsComparison } from '../../src/formats/pairs-format.js';
import { loadAllExperiments } from '../../src/plan/experiments.js';
import { ROOT, runPairs } from '../helpers/cli.js';

/** A fresh clone of the commit under test: no .cache, no generated inputs, no built programs. */
function freshClone(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), `jsio-fresh-${name}-`)), 'repo');
  const r = spawnSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, dir], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  expect(existsSync(join(dir, '.cache'))).toBe(false);
  return dir;
}

describe('a PR diff of every experiment from fresh clones', () => {
  it('compares points of every experiment; nothing fails on both sides', { timeout: 900_000 }, () => {
    const [base, head] = [freshClone('base'), freshClone('head')];
    const out = mkdtempSync(join(tmpdir(), 'jsio-fresh-out-'));
    // The cheapest variant of each experiment (a C program where there is one). The budget leaves
    // every experiment its pairs on a loaded 2-core runner: at 0.5 min the last one got none once.
    const variants = 'c,c-blocking,c-pool,core-transform';
    const r = runPairs(
      { base, head, out, budget: '1.5', seed: 5 },
      // Both sides are the same commit: only a control asked for is measured (six, spread over the experiments).
      ['--noise-store', join(out, 'none'), '--control', '6', '--profile', 'smoke', '--variants', variants],
      { JSIO_COUNTS: 'none' },
    );
    expect(r.status, r.stderr).toBe(0);
    const c = PairsComparison.parse(JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')));
    expect(c.notMeasured).toEqual([]);
    expect(c.counts).toBeUndefined();
    const experiments = loadAllExperiments(join(ROOT, 'programs'))
      .map((e) => e.id)
      .sort();
    const compared = [...new Set(c.points.filter((p) => p.pairs > 0).map((p) => p.experiment))].sort();
    expect(compared).toEqual(experiments);
    // A point failing on both sides would lead the comment as the harness's or machine's problem.
    expect(c.summary!.notMeasured.filter((g) => g.sides === 'both')).toEqual([]);
  });
});
