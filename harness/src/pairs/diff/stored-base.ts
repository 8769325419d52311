/**
 * The base's counts taken from the trend store (docs/counts.md, "The paired diff"): main's `bench`
 * keeps each count under its key (counts/count-key.ts: everything the count depends on, the
 * sandbox's fixed paths included, so a base job's key is the key main's run of the same commit
 * had). A base whose key the store holds is not counted again, only its head is. Never blindly:
 * in each deciding family one such point is compared live first, by its head where the head's key
 * is the base's (a control point: the head's live count is a re-count of the stored one), else by
 * counting that base live too; a family whose comparison disagrees, or could not be made (none of
 * its stored points repeated steadily: counts/count-reuse.ts), takes no stored count in this diff.
 * The store is only read.
 */

import { countingFamily } from '../../counts/count-jobs.js';
import { type Keyed, recountAgrees, steadyStored } from '../../counts/count-reuse.js';
import type { CountedRun } from '../../counts/count-rule.js';
import { keyer, type OpenedCounts } from '../../counts/stored-counts.js';
import { countsVaryOf, evidenceOf } from '../../counts/under-valgrind.js';
import type { StoredCount } from '../../formats/count-store-format.js';
import type { PointWork, StoredBase } from '../engine/count-sides.js';
import type { PointPlan } from '../engine/executor.js';

/** A point whose base count the store holds. */
interface Reusable extends Keyed<PointPlan> {
  stored: StoredCount;
  /** The head's key is the base's: its live count re-checks the stored one at no cost. */
  sameKey: boolean;
}

/** One re-check: by the head's live count (same key), or by counting the base live too. */
export interface Recheck {
  id: string;
  family: string;
  by: 'head' | 'base';
  stored: StoredCount;
  /** How far one run's count may move (manifest `countsVary`), when declared. */
  vary?: number;
}

export interface StoredBasePlan {
  reusable: Map<string, Reusable>;
  recheck: Recheck[];
}

/** Which bases the store holds and which of them are re-checked (the least checked first, a same-key one before). */
export function planStoredBase(
  plans: readonly PointPlan[],
  opened: Extract<OpenedCounts, { ok: true }>,
): StoredBasePlan {
  const keyOf = keyer(opened.facts);
  const counts = opened.file.counts;
  const reusable = new Map<string, Reusable>();
  for (const plan of plans) {
    if (!plan.base.counting || !plan.head.counting) continue;
    const key = keyOf(plan.base);
    const stored = Object.hasOwn(counts, key) ? counts[key] : undefined;
    if (!stored) continue;
    reusable.set(plan.id, {
      job: plan,
      id: plan.id,
      key,
      family: countingFamily(plan.base),
      decides: !evidenceOf(plan.base),
      ...(countsVaryOf(plan.base) === undefined ? {} : { vary: countsVaryOf(plan.base)! }),
      stored,
      sameKey: keyOf(plan.head) === key,
    });
  }
  const best = new Map<string, Reusable>();
  const rank = (r: Reusable) => [r.sameKey ? 0 : 1, r.stored.checks] as const;
  for (const r of reusable.values()) {
    if (!r.decides || !steadyStored(r.family, r.stored.runs, r.vary)) continue;
    const b = best.get(r.family);
    const [x, y] = [rank(r), b && rank(b)];
    if (!y || x[0] < y[0] || (x[0] === y[0] && (x[1] < y[1] || (x[1] === y[1] && r.id < b!.id)))) best.set(r.family, r);
  }
  // A deciding family none of whose stored points repeated steadily cannot be confirmed live: its
  // bases are counted, not taken.
  for (const [id, r] of reusable) if (r.decides && !best.has(r.family)) reusable.delete(id);
  return {
    reusable,
    recheck: [...best.values()].map((r) => ({
      id: r.id,
      family: r.family,
      by: r.sameKey ? 'head' : 'base',
      stored: r.stored,
      ...(r.vary === undefined ? {} : { vary: r.vary }),
    })),
  };
}

/** The stored bases given to the counting of `ids`. */
export function storedBases(plan: StoredBasePlan, ids: Iterable<string>): Map<string, StoredBase> {
  const out = new Map<string, StoredBase>();
  for (const id of ids) {
    const r = plan.reusable.get(id);
    if (r) out.set(id, { runs: r.stored.runs, commit: r.stored.commit });
  }
  return out;
}

/** Whether a re-check's live count agrees with the stored one (a count that failed agrees with nothing). */
export function recheckAgrees(r: Recheck, w: PointWork | undefined): boolean {
  if (w?.status !== 'counted') return false;
  const live: CountedRun[] = r.by === 'head' ? w.runs.head : w.runs.base;
  return recountAgrees(r.family, r.stored.runs, live, r.vary);
}
