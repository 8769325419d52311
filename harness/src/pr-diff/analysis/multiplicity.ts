/**
 * The false-call rate of a whole PR diff, not only of each point (docs/paired-design.md,
 * "Across the diff"). Each point's sequential rule keeps its own false-call rate at its alpha;
 * a quick diff has ~250-400 points, so 5% per point would call a dozen unchanged points changed
 * in every diff. Here the diff's alpha is a family-wise level shared out before any pair runs
 * (weighted Bonferroni): the probability that a diff calls ANY point changed that did not change
 * is at most FALSE_CALL_LEVEL, whatever the correlation between points, so an A/A diff calls at most
 * FALSE_CALL_LEVEL points in expectation.
 *
 * The weights follow what a PR can change. A point whose program changed in this PR is where a
 * change is expected: the changed points share half the level, the unchanged ones (which can
 * differ only by noise, and are the diff's own A/A check) share the other half. A PR touching one
 * program thus keeps most of the power a lone point had (2.5% for one changed point instead of
 * 5%), while hundreds of unchanged points each test at ~0.01%. With no changed point (or only
 * changed ones) the whole level is shared equally.
 *
 * Why not Benjamini-Hochberg over the points' p-values after sampling: the sequential rule stops a
 * point at the first look that calls it, at 10 or 20 pairs, where the exact test cannot reach the
 * small p-values a BH step-up over 300 points needs (2/2^10 ≈ 0.002 at best): a real 5% slowdown
 * stopped early would be thrown out afterwards. Spending the diff-wide level inside the rule makes
 * a point that could be called keep sampling until it reaches that level, or be inconclusive.
 */
import type { SequentialPlan } from './sequential.js';

/** The largest probability that a whole diff calls any unchanged point slower or faster. */
export const FALSE_CALL_LEVEL = 0.05;

/** Share of the diff's false-call level given to the points whose program changed (when some did and some did not). */
export const CHANGED_ALPHA_SHARE = 0.5;

/** Each point's two-sided level, in the points' order: the weighted Bonferroni split of `alpha`. */
export function pointAlphas(
  points: readonly { changed: boolean }[],
  alpha = FALSE_CALL_LEVEL,
  changedShare = CHANGED_ALPHA_SHARE,
): number[] {
  const changed = points.filter((p) => p.changed).length;
  const unchanged = points.length - changed;
  if (!changed || !unchanged) return points.map(() => alpha / Math.max(1, points.length));
  return points.map((p) => (p.changed ? (alpha * changedShare) / changed : (alpha * (1 - changedShare)) / unchanged));
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
export function falseCallNote(points: readonly { changed: boolean }[], alpha = FALSE_CALL_LEVEL): string {
  const changed = points.filter((p) => p.changed).length;
  const split =
    changed && changed < points.length
      ? `${(CHANGED_ALPHA_SHARE * 100).toFixed(0)}% to the ${changed} points whose program changed, the rest to the ${points.length - changed} others`
      : `shared by the ${points.length} points`;
  return `diff-wide false-call level ${(alpha * 100).toFixed(0)}% (weighted Bonferroni: ${split})`;
}
