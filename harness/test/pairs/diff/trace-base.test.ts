// The trusted plan traces one point per experiment, variant and runtime: the smallest.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { representatives } from '../../../src/pipeline/trace-points.js';
import { loadAllExperiments } from '../../../src/plan/experiments.js';
import { expand } from '../../../src/plan/plan.js';
import { ROOT } from '../../helpers/cli.js';

describe('representatives', () => {
  const points = expand(loadAllExperiments(join(ROOT, 'programs')), 'quick', {});
  const reps = representatives(points);

  it('maps every point to one of its own experiment, variant and runtime', () => {
    expect(reps.size).toBe(points.length);
    const byId = new Map(points.map((p) => [p.id, p]));
    for (const [id, rep] of reps) {
      const [p, r] = [byId.get(id)!, byId.get(rep)!];
      expect([r.experiment.id, r.variant.id, r.runtime]).toEqual([p.experiment.id, p.variant.id, p.runtime]);
    }
  });

  it('picks the smallest point of each group, and fewer points than the profile has', () => {
    const byId = new Map(points.map((p) => [p.id, p]));
    const size = (id: string) => Object.values(byId.get(id)!.derived).reduce((a, b) => a + b, 0);
    for (const [id, rep] of reps) expect(size(rep)).toBeLessThanOrEqual(size(id));
    expect(new Set(reps.values()).size).toBeLessThan(points.length);
  });
});
