/** The executor that runs real programs: checks and warm-ups (./prepare.ts), then each kind's strategy. */
import type { PairExecutor } from './executor.js';
import { type PrepareContext, preparePoint } from './prepare.js';
import { ordersOf, STRATEGIES } from './strategies.js';

/** `seed` fixes every pair's order (pairs/decide/pair-statistics.ts pairOrder), so the schedule can be recomputed. */
export function realExecutor(ctx: PrepareContext, seed: number): PairExecutor {
  return {
    prepare: (point) => preparePoint(point, ctx),
    measure: (point, from, count) =>
      STRATEGIES[point.kind](point, ordersOf(seed, from, count), (k) => `pair ${from + k + 1}`, ctx),
  };
}
