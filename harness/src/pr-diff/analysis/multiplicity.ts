/**
 * The false-call rate of a whole PR diff, not only of each point (docs/paired-design.md,
 * "Across the diff"). Each point's sequential rule keeps its own false-call rate at its alpha; a
 * diff measures tens of points (the affected ones and the control sample), so 5% per point would
 * call some unchanged point changed in many diffs. Here the diff's alpha is a family-wise level
 * shared out equally before any pair runs (Bonferroni): the probability that a diff calls ANY
 * point changed that did not change is at most FALSE_CALL_LEVEL, whatever the correlation between
 * points. The control points test at the same level as the affected ones, so a control call says
 * what an affected call at that level is worth on this machine today.
 *
 * Why not Benjamini-Hochberg over the points' p-values after sampling: the sequential rule stops a
 * point at the first look that calls it, at 10 or 20 pairs, where the exact test cannot reach the
 * small p-values a BH step-up needs: a real 5% slowdown stopped early would be thrown out
 * afterwards. Spending the diff-wide level inside the rule makes a point that could be called
 * keep sampling until it reaches that level, or be inconclusive.
 */
import type { SequentialPlan } from './sequential.js';

/** The largest probability that a whole diff calls any unchanged point slower or faster. */
export const FALSE_CALL_LEVEL = 0.05;

/** Each point's two-sided level, in the points' order: an equal share of `alpha`. */
export function pointAlphas(points: readonly unknown[], alpha = FALSE_CALL_LEVEL): number[] {
  return points.map(() => alpha / Math.max(1, points.length));
}

/**
 * `plan` with its change-test levels scaled to sum to `alpha` (spent over the looks in the same
 * proportions). The equivalence levels are left alone: calling a point "unchanged" is not a call
 * of a change, and the equivalence level bounds missing a real one.
 */
export function planAtLevel(plan: SequentialPlan, alpha: number): SequentialPlan {
  const sum = plan.alphas.reduce((a, b) => a + b, 0);
  if (!(alpha > 0) || !(sum > 0)) throw new RangeError(`a point's level must be above 0, got ${alpha}`);
  return { ...plan, alphas: plan.alphas.map((a) => (a * alpha) / sum) };
}

/** One line for the comparison's method: the family-wise rule as applied to this diff. */
export function falseCallNote(points: readonly { impact: 'affected' | 'control' }[], alpha = FALSE_CALL_LEVEL): string {
  const control = points.filter((p) => p.impact === 'control').length;
  const of = control ? ` (${points.length - control} affected, ${control} control)` : '';
  return `diff-wide false-call level ${(alpha * 100).toFixed(0)}% (Bonferroni: shared equally by the ${points.length} measured points${of})`;
}
