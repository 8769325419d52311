/**
 * Whether a PR diff answered every point the trusted plan names (`pairs --plan --json` run with
 * the base's harness before any pull-request code ran): a point counts as answered when it has a
 * row, or is listed with a reason (not measured, added, removed, not comparable). The head's
 * harness runs the diff and could leave an affected point out; the comment job, which runs the
 * default branch's code, says so and the merge check fails. Pure.
 */

import type { DiffPlan } from '../model/diff-plan.js';
import type { PairsComparison } from '../model/pairs-document.js';

/** The points the plan measures that the comparison neither answers nor lists, in the plan's order. */
export function unansweredPoints(plan: DiffPlan, c: PairsComparison): string[] {
  const answered = new Set<string>([
    ...c.points.map((p) => p.benchmark),
    ...c.notMeasured.map((p) => p.benchmark),
    ...c.added.map((p) => p.benchmark),
    ...c.removed.map((p) => p.benchmark),
    ...(c.incomparable ?? []).map((p) => p.benchmark),
  ]);
  return [...plan.affected.map((a) => a.benchmark), ...plan.control].filter((id) => !answered.has(id));
}

/** Whether the plan is of the diff's own commits. */
function samePair(plan: DiffPlan, c: PairsComparison): boolean {
  return c.base.commits.includes(plan.base.commit) && c.head.commits.includes(plan.head.commit);
}

/**
 * What the comment and the merge check say about a trusted plan: undefined when every point it
 * names is answered; else one line, and the points.
 */
export function coverageProblem(plan: DiffPlan, c: PairsComparison): { line: string; points: string[] } | undefined {
  if (!samePair(plan, c))
    return {
      line: `the trusted plan is of base ${plan.base.commit.slice(0, 12)} and head ${plan.head.commit.slice(0, 12)}, not of the commits this diff measured`,
      points: [],
    };
  const points = unansweredPoints(plan, c);
  if (!points.length) return undefined;
  return {
    line: `${points.length} point${points.length === 1 ? '' : 's'} the base's harness found affected ${points.length === 1 ? 'is' : 'are'} missing from this diff: the head's harness neither measured nor listed ${points.length === 1 ? 'it' : 'them'}`,
    points,
  };
}
