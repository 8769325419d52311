/**
 * The false-positive rate of a whole paired diff, not only of each point (docs/paired-design.md,
 * "Across the diff"). Each point's sequential rule keeps its own false-positive rate at its alpha; a
 * diff measures tens of points (the affected ones and the control sample), so 5% per point would
 * judge some unchanged point changed in many diffs. Here the diff's alpha is a family-wise level
 * shared out equally before any pair runs (Bonferroni): the probability that a diff judges ANY
 * point changed that did not change is at most FALSE_POSITIVE_LEVEL, whatever the correlation between
 * points. The control points test at the same level as the affected ones, so a control verdict of a
 * change says what an affected one at that level is worth on this machine today.
 *
 * Why not Benjamini-Hochberg over the points' p-values after sampling: the sequential rule stops a
 * point at the first look that judges it, at 10 or 20 pairs, where the exact test cannot reach the
 * small p-values a BH step-up needs: a real 5% slowdown stopped early would be thrown out
 * afterwards. Spending the diff-wide level inside the rule makes a point that could be judged changed
 * keep sampling until it reaches that level, or be inconclusive.
 *
 * A point's other timed metrics (batch time beside threadpool's p50 latency, wall time beside a
 * fit's cost per read) get verdicts too, so they share the same level rather than adding their own:
 * a point that has them gives its lead (1 - SECONDARY_SHARE) of its share and all its other
 * metrics together SECONDARY_SHARE, divided equally among them once they are known (a metric that
 * is a rate over another's time is the same evidence, and shares that one's level). Each is judged
 * on the point's pairs at the look where the point stopped, at that look's part of its level, so
 * the union bound holds whatever made the point stop. Whole-process points have no other timed
 * metric and keep their whole share for the lead.
 */
import type { SequentialPlan } from './sequential.js';

/** The largest probability that a whole diff judges any unchanged point slower or faster. */
export const FALSE_POSITIVE_LEVEL = 0.05;

/** Each point's two-sided level, in the points' order: an equal share of `alpha`. */
export function pointAlphas(points: readonly unknown[], alpha = FALSE_POSITIVE_LEVEL): number[] {
  return points.map(() => alpha / Math.max(1, points.length));
}

/**
 * The part of a point's level its other timed metrics share. A fifth: the lead stays the headline
 * question and loses little power (its level drops by a fifth, its interval widens by a few per
 * cent), while a moved metric beside it can still be called once the pairs are unambiguous.
 */
export const SECONDARY_SHARE = 0.2;

/** A point's level split between its lead and its other timed metrics (all of them together). */
export interface PointLevels {
  lead: number;
  others: number;
}

/** Each point's levels: its equal share, split when the point has other timed metrics to judge. */
export function pointLevels(points: readonly { kind: string }[], alpha = FALSE_POSITIVE_LEVEL): PointLevels[] {
  return pointAlphas(points, alpha).map((a, i) =>
    // Only self-timed and fit points have timed metrics beside their lead (pairs/engine/lead-metric.ts).
    points[i]!.kind === 'process'
      ? { lead: a, others: 0 }
      : { lead: a * (1 - SECONDARY_SHARE), others: a * SECONDARY_SHARE },
  );
}

/**
 * `plan` with its change-test levels scaled to sum to `alpha` (spent over the looks in the same
 * proportions). The equivalence levels are left alone: a point judged "unchanged" is no verdict
 * of a change, and the equivalence level bounds missing a real one.
 */
export function planAtLevel(plan: SequentialPlan, alpha: number): SequentialPlan {
  const sum = plan.alphas.reduce((a, b) => a + b, 0);
  if (!(alpha > 0) || !(sum > 0)) throw new RangeError(`a point's level must be above 0, got ${alpha}`);
  return { ...plan, alphas: plan.alphas.map((a) => (a * alpha) / sum) };
}

/** One line for the comparison's method: the family-wise rule as applied to this diff. */
export function falsePositiveNote(
  points: readonly { impact: 'affected' | 'control' }[],
  alpha = FALSE_POSITIVE_LEVEL,
): string {
  const control = points.filter((p) => p.impact === 'control').length;
  const of = control ? ` (${points.length - control} affected, ${control} control)` : '';
  return `diff-wide false-call level ${(alpha * 100).toFixed(0)}% (Bonferroni: shared equally by the ${points.length} measured points${of})`;
}
