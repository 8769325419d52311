// Derived values are computed per point at plan time: one that cannot be computed (a parameter
// value that is not a number, a division by zero) is an error naming the manifest, the derived
// field and the point, before anything runs; a NaN must never reach a command line.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/lib/errors.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { deriveValues, expand } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));

describe('derived values at plan time', () => {
  it('are finite numbers at every point of every profile', () => {
    for (const profile of ['smoke', 'quick', 'standard', 'full'] as const) {
      for (const p of expand([wc], profile, { variants: ['c'] })) {
        for (const [k, v] of Object.entries(p.derived))
          expect(Number.isFinite(v), `${profile} ${p.id} ${k}=${v}`).toBe(true);
        expect(p.derived.bytes).toBe(p.derived.count! * Number(p.params.bs));
      }
    }
  });

  it('are computed from the profile’s constants', () => {
    expect(deriveValues(wc.manifest, 'smoke', { bs: 4096 })).toEqual({ count: 4096, bytes: 16777216, min_reads: 4096 });
  });

  // `--param` values are refused by the manifest's declaration before anything is derived
  // (param-validation.test.ts); deriveValues still names file, field and point on its own, for
  // a manifest whose expressions go wrong with values it lists itself.
  it.each([
    [0, /programs\/wc\/manifest\.json: derive\.count is not a finite number \(got NaN\) at bs=0/],
    ['abc', /programs\/wc\/manifest\.json: derive\.count: "bs" is not a number \(abc\) at bs=abc/],
  ])('refuse bs=%s, naming the manifest, the field and the point', (bs, message) => {
    let err: unknown;
    try {
      deriveValues(wc.manifest, 'smoke', { bs }, wc.manifestPath);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(message);
  });
});
