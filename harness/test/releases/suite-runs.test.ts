// A release suite's runs: the suite's `runs` for every point, `referenceRuns` for its reference
// variants only, through bench's planning down to each job's timed runs.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { hasSuite, type SuiteExperiment, suiteFilters, suiteRuns } from '../../src/releases/suite-plan.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf } from '../helpers/jobs.js';

const suite = (id: string): SuiteExperiment => {
  const e = loadExperiment(join(ROOT, 'programs', id));
  if (!hasSuite(e)) throw new Error(`${id} has no release suite`);
  return e;
};

const withReleases = (e: SuiteExperiment, releases: Partial<SuiteExperiment['manifest']['releases']>) =>
  ({ ...e, manifest: { ...e.manifest, releases: { ...e.manifest.releases, ...releases } } }) as SuiteExperiment;

describe('suiteRuns', () => {
  it('gives the reference variants referenceRuns and every other variant the suite runs', () => {
    const e = withReleases(suite('threadpool'), { runs: 20, referenceRuns: 120 });
    const runs = suiteRuns(e);
    expect(runs).toEqual({ runs: 20, variantRuns: { 'c-pool': 120 } });
    const points = expand([e], 'quick', suiteFilters(e, 'node@20.0.0'));
    const byVariant = new Map(points.map((p) => [p.variant.id, jobOf(p, runs).settings.runs]));
    expect(byVariant.get('c-pool')).toBe(120);
    expect(byVariant.get('node-promises')).toBe(20);
  });

  it("leaves the profile's runs where the suite sets none", () => {
    const e = withReleases(suite('wc'), { runs: undefined, referenceRuns: undefined });
    expect(suiteRuns(e)).toEqual({});
    const points = expand([e], 'quick', suiteFilters(e, 'node@20.0.0'));
    for (const p of points) expect(jobOf(p, suiteRuns(e)).settings.runs).toBe(p.settings.runs);
  });

  it('sets no per-variant runs for a suite without a reference', () => {
    const e = withReleases(suite('streams'), { referenceRuns: 50 });
    expect(suiteRuns(e).variantRuns).toBeUndefined();
  });
});
