// Every experiment manifest under programs/ validates, and the new manifest fields are checked:
// unknown parameters in exclude/when and a non-numeric slope axis are named in the error.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/lib/errors.js';
import { CURRENT_NODE_MAJOR } from '../../src/machine/toolchains.js';
import { PROFILES } from '../../src/model/profiles.js';
import { matchesAt } from '../../src/model/select.js';
import { loadAllExperiments, loadExperiment, parseManifest } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';

const dir = join(ROOT, 'programs', 'records');
const raw = () =>
  JSON.parse(JSON.stringify(loadExperiment(dir).manifest)) as Record<string, unknown> & {
    variants: Record<string, unknown>[];
  };

describe('experiment manifests', () => {
  it('all validate, including streams and records', () => {
    const ids = loadAllExperiments(join(ROOT, 'programs')).map((e) => e.id);
    expect(ids).toEqual(expect.arrayContaining(['records', 'streams', 'wc']));
  });

  it('records: excluded combinations are never planned; one program runs under every runtime', () => {
    const points = expand([loadExperiment(dir)], 'smoke', {
      params: { runtime: [`node${CURRENT_NODE_MAJOR}`, 'bun', 'deno'] },
    });
    expect(points.some((p) => p.params.op === 'write' && p.params.cache === 'cold')).toBe(false);
    const sync = points.filter((p) => p.variant.id === 'sync' && p.params.op === 'write' && p.params.record === 16);
    expect(sync.map((p) => p.params.runtime)).toEqual([`node${CURRENT_NODE_MAJOR}`, 'bun', 'deno']);
    expect(sync.map((p) => p.runtime)).toEqual([`node@${CURRENT_NODE_MAJOR}`, 'bun', 'deno']);
  });

  it('names an unknown parameter in exclude', () => {
    const m = { ...raw(), exclude: [{ opp: 'write' }] };
    expect(() => parseManifest('m.json', dir, JSON.stringify(m))).toThrow(UserError);
    expect(() => parseManifest('m.json', dir, JSON.stringify(m))).toThrow('exclude.0: unknown parameter (got "opp")');
  });

  it('refuses referenceRuns in a release suite without a reference, and a count out of range', () => {
    const m = raw() as ReturnType<typeof raw> & { releases: Record<string, unknown> };
    const withSuite = (releases: Record<string, unknown>) =>
      JSON.stringify({ ...m, releases: { ...m.releases, ...releases } });
    expect(() => parseManifest('m.json', dir, withSuite({ reference: [], referenceRuns: 40 }))).toThrow(
      'releases.referenceRuns: the suite has no reference variants to time that often',
    );
    expect(() => parseManifest('m.json', dir, withSuite({ referenceRuns: 0 }))).toThrow(/releases\.referenceRuns/);
    expect(() => parseManifest('m.json', dir, withSuite({ referenceRuns: '40' }))).toThrow(/releases\.referenceRuns/);
    expect(parseManifest('m.json', dir, withSuite({ referenceRuns: 40 })).releases?.referenceRuns).toBe(40);
  });

  it('names an unknown parameter in a variant’s when', () => {
    const m = raw();
    m.variants[1] = { ...m.variants[1], when: { mode: 'read' } };
    expect(() => parseManifest('m.json', dir, JSON.stringify(m))).toThrow(
      'variants.1.when: unknown parameter (got "mode")',
    );
  });

  it('refuses a slope over a parameter with string values', () => {
    const m = { ...raw(), analyses: [{ kind: 'slope', x: 'op', metric: 'wall_time' }] };
    expect(() => parseManifest('m.json', dir, JSON.stringify(m))).toThrow(
      'analyses.0.x: parameter "op" must have numeric values only',
    );
  });

  // A summary or headline selector that no point of a profile matches gives an empty table
  // ("No successful benchmark at ...") or no github-action-benchmark series for that profile.
  it.each(loadAllExperiments(join(ROOT, 'programs')).flatMap((e) => PROFILES.map((p) => [e.id, p, e] as const)))(
    '%s: the summary and headline select points in profile %s',
    (_id, profile, e) => {
      const points = expand([e], profile, {});
      const selectors = {
        ...(e.manifest.summary ? { summary: e.manifest.summary.at } : {}),
        headline: e.manifest.headline.at,
      };
      for (const [what, at] of Object.entries(selectors))
        expect(
          points.some((p) => matchesAt(p, at, 'matches')),
          `${what} at ${JSON.stringify(at)}`,
        ).toBe(true);
    },
  );
});
