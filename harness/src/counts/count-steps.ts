/**
 * Steps in a trend of counted work (instructions). Counts do not drift with machine noise, so a
 * step needs no segmentation: it is a count that differs by more than COUNT_TOLERANCE from the
 * last count before it that could be compared. Only counts that decide and whose repeats agreed
 * are compared: a count that is evidence only (the kernel or the disk decides the point's cost) or
 * that did not repeat is shown, never called a step, and the next comparable count is held against
 * the last comparable one. A count whose facts are unknown (stored before they were kept) is
 * treated the same way: nothing says it may be acted on. Pure, bundled into the site.
 */

import type { ChangePoint } from '../analysis/changepoints.js';
import type { CountFacts } from '../formats/parts/store-layout.js';
import { COUNT_TOLERANCE } from './count-rule.js';

/** Whether a count may be compared with another: it decides, and its repeats agreed. */
export const actionable = (f: CountFacts | null | undefined): boolean =>
  f?.role === 'decides' && f.deterministic === true;

/** Each step of the series: the index of the first count after it, and after / before. */
export function countSteps(
  values: readonly (number | null)[],
  facts: readonly (CountFacts | null)[] | undefined,
  tolerance = COUNT_TOLERANCE,
): ChangePoint[] {
  const out: ChangePoint[] = [];
  let last: number | undefined;
  values.forEach((v, i) => {
    if (v === null || !(v > 0) || !Number.isFinite(v) || !actionable(facts?.[i])) return;
    if (last !== undefined && Math.abs(v / last - 1) > tolerance) out.push({ index: i, ratio: v / last });
    last = v;
  });
  return out;
}
