/**
 * The engine's plainest diff: every point both sides have, each measured in pairs as a question of
 * its own (none is a control, nothing is counted). Calibration's A/A diffs one commit against
 * itself with it, a release confirmation one checkout under two runtime releases, and `pairs
 * --every-point` any two checkouts.
 */
import type { Job } from '../../model/job.js';
import { matchPoints } from './diff-sides.js';
import {
  type DiffSides,
  type EngineStart,
  loadSides,
  measureInPairs,
  prepareSides,
  startEngine,
  withLinkedSides,
} from './pair-engine.js';
import { type PairsResult, pairsOutcome } from './pairs-outcome.js';

/**
 * Every point both sides have, measured in pairs. `pairKey`: what matches a base job with a head
 * job (default: the benchmark id, which names the runtime; a release pair sets the runtime aside).
 */
export async function pairEveryPoint(
  sides: DiffSides,
  start: EngineStart,
  pairKey?: (job: Job) => string,
): Promise<PairsResult> {
  return withLinkedSides(sides.base.root, sides.head.root, async (baseRoot, headRoot) => {
    const engine = await startEngine(start);
    const loaded = loadSides(sides, baseRoot, headRoot);
    const prepared = await prepareSides(engine, loaded, sides.setup);
    const matched = matchPoints(prepared.base, prepared.head, pairKey);
    return pairsOutcome(engine, prepared, matched, await measureInPairs(engine, matched));
  });
}
