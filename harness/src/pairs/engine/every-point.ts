/**
 * The engine's plainest diff: every point both sides have, each measured in pairs as a question of
 * its own (none is a control, nothing is counted). Calibration's A/A diffs one commit against
 * itself with it, a release confirmation one checkout under two runtime releases, and `pairs
 * --every-point` any two checkouts.
 */
import type { Job } from '../../model/job.js';
import type { Profile } from '../../model/profiles.js';
import type { Filters } from '../../plan/plan.js';
import { loadSide, matchPoints } from './diff-sides.js';
import {
  type EngineStart,
  measureInPairs,
  prepareSides,
  type SideSetup,
  startEngine,
  withLinkedSides,
} from './pair-engine.js';
import { type PairsResult, pairsOutcome } from './pairs-outcome.js';

export interface EveryPointDiff {
  /** Each side's checkout and the filters that plan its points (a release pair's differ by the runtime). */
  base: { root: string; filters: Filters };
  head: { root: string; filters: Filters };
  profile: Profile;
  /** What matches a base job with a head job (default: the benchmark id, which names the runtime). */
  pairKey?: (job: Job) => string;
  setup: SideSetup;
  engine: EngineStart;
}

export async function pairEveryPoint(d: EveryPointDiff): Promise<PairsResult> {
  return withLinkedSides(d.base.root, d.head.root, async (baseRoot, headRoot) => {
    const engine = await startEngine(d.engine);
    const loaded = {
      base: loadSide(baseRoot, 'base', { profile: d.profile, filters: d.base.filters }),
      head: loadSide(headRoot, 'head', { profile: d.profile, filters: d.head.filters }),
    };
    const sides = await prepareSides(engine, loaded, d.setup);
    const matched = matchPoints(sides.base, sides.head, d.pairKey);
    return pairsOutcome(engine, sides, matched, await measureInPairs(engine, matched));
  });
}
