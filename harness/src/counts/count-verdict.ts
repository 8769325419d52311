/**
 * Two sides' instruction counts of one quantity compared: the exact-counter rule (analysis/exact-counters.ts)
 * with the one tolerance of counted work (counts/count-rule.ts COUNT_TOLERANCE). Pure.
 */

import { compareCounter } from '../analysis/exact-counters.js';
import { COUNT_TOLERANCE, relSpread } from './count-rule.js';

/** What two sides' counts of one quantity say. */
export type CountVerdict =
  | { kind: 'changed'; base: number; head: number; change: number }
  | { kind: 'same'; base: number; head: number; change: number }
  | { kind: 'not-deterministic'; spread: number };

/**
 * The exact-counter rule (analysis/exact-counters.ts) with the tolerance: each side's
 * counts must agree within COUNT_TOLERANCE, the sides must differ by the range rule, and by more
 * than the tolerance.
 */
export function compareCounts(
  base: readonly number[],
  head: readonly number[],
  tolerance = COUNT_TOLERANCE,
): CountVerdict {
  const spread = Math.max(relSpread(base), relSpread(head));
  if (spread > tolerance) return { kind: 'not-deterministic', spread };
  const c = compareCounter(base, head);
  const change = (c.head - c.base) / Math.abs(c.base || 1);
  return Math.abs(change) > tolerance && c.changed
    ? { kind: 'changed', base: c.base, head: c.head, change }
    : { kind: 'same', base: c.base, head: c.head, change };
}
