/**
 * Whether a PR diff answered every point the trusted plan names (`pairs --plan --json`, made by the
 * default branch's side before any pull-request code ran), by rules that fail closed: a point is
 * answered only by a verdict of its pairs (the comparison as judged again from the pair record,
 * ../pairs/decide/recompute.ts), by being broken (failed on the head only), by a fix (failed on
 * the base only), by existing on one side only where the plan says so too, or by a skip on both
 * sides for a reason on ACCEPTED_SKIPS (its runtime is not installed on this runner). Failed on
 * both sides, skipped for any other reason, or not there at all is unanswered. Where the plan fell
 * back (an experiment its harness could not read), every measured point of that experiment must
 * also be decided: "inconclusive" does not pass there. A harness change the plan found must have
 * been measured. The control may go unmeasured only where nothing is timed (controlExcused). Pure.
 */

import { isDeepStrictEqual } from 'node:util';
import type { DiffPlan } from '../formats/diff-plan-format.js';
import type { PairsComparison } from '../formats/pairs-format.js';
import { needsNoTiming, pointsToPair, pointsToTime, type TranscriptVerdictFile } from '../formats/transcript-format.js';

/** Reasons a point may be left unmeasured on both sides and still count as answered. */
const ACCEPTED_SKIPS: readonly RegExp[] = [/ is not installed\b/];

type Listing = PairsComparison['notMeasured'][number];

/** Why one point the plan names has no accepted answer, or undefined when it has one. */
function whyUnanswered(id: string, planReasons: readonly string[], c: PairsComparison): string | undefined {
  const row = c.points.find((p) => p.benchmark === id);
  if (row) return row.pairs > 0 ? undefined : 'measured with no pairs';
  const only = (side: 'base' | 'head') => planReasons.includes(`only the ${side} has it`);
  if (c.added.some((x) => x.benchmark === id))
    return only('head') ? undefined : 'listed as new, yet both sides have it';
  if (c.removed.some((x) => x.benchmark === id))
    return only('base') ? undefined : 'listed as removed, yet both sides have it';
  const listed = c.notMeasured.filter((x) => x.benchmark === id);
  const side = (s: 'base' | 'head') => listed.filter((x) => x.side === s);
  const failed = (xs: Listing[]) => xs.some((x) => x.status === 'failed');
  if (failed(side('head')) && failed(side('base'))) return 'failed on both sides';
  // Broken by the pull request, or fixed by it: either is an answer.
  if (failed(side('head')) || failed(side('base'))) return undefined;
  const accepted = (xs: Listing[]) => xs.length > 0 && xs.every((x) => ACCEPTED_SKIPS.some((re) => re.test(x.reason)));
  if (listed.length)
    return accepted(side('base')) && accepted(side('head')) ? undefined : 'not measured for a reason not accepted';
  if ((c.incomparable ?? []).some((x) => x.benchmark === id)) return 'listed as not comparable';
  return 'neither measured nor listed';
}

/** Measured points of the experiments the plan could not read that have no decision. */
function undecidedUnderFallback(plan: DiffPlan, c: PairsComparison): string[] {
  const fallen = new Set((plan.unreadable ?? []).map((u) => u.experiment));
  return c.points
    .filter((p) => fallen.has(p.experiment) && p.impact !== 'control')
    .filter((p) => {
      const work = p.work?.status === 'counted' && p.work.role === 'decides' && p.work.verdict !== 'not-deterministic';
      return p.lead.verdict === 'inconclusive' && !work;
    })
    .map((p) => p.benchmark);
}

/**
 * Whether the diff may leave the plan's control unmeasured: the plan found no point affected, and
 * the harness unchanged or, changed, answered by uploaded recordings of the plan's commits that need
 * no timing. Nothing is then timed, and the control would vouch for no answer. Fails closed: the
 * comparison's own claim (`untimed`) is required but never enough.
 */
function controlExcused(plan: DiffPlan, c: PairsComparison, recorded?: TranscriptVerdictFile): boolean {
  if (!c.untimed || plan.affected.length || c.points.some((p) => p.impact !== 'control')) return false;
  if (!plan.harnessChange.changed) return true;
  return (
    !!recorded &&
    recorded.base.commit === plan.base.commit &&
    recorded.head.commit === plan.head.commit &&
    needsNoTiming(recorded.verdict)
  );
}

/** The points the plan names that have no accepted answer, with why, in the plan's order. */
export function unansweredPoints(
  plan: DiffPlan,
  c: PairsComparison,
  recorded?: TranscriptVerdictFile,
): { benchmark: string; why: string }[] {
  const out: { benchmark: string; why: string }[] = [];
  for (const a of plan.affected) {
    const why = whyUnanswered(a.benchmark, a.reasons, c);
    if (why) out.push({ benchmark: a.benchmark, why });
  }
  const control = controlExcused(plan, c, recorded) ? [] : plan.control;
  for (const id of control) {
    // The control is the machine's check: any row or listing answers it.
    const listed = [...c.points, ...c.notMeasured, ...c.added, ...c.removed].some((x) => x.benchmark === id);
    if (!listed) out.push({ benchmark: id, why: 'a control point neither measured nor listed' });
  }
  for (const id of undecidedUnderFallback(plan, c))
    out.push({ benchmark: id, why: "left undecided in an experiment the base's harness could not read" });
  return out;
}

/** Whether the plan is of the diff's own commits. */
function samePair(plan: DiffPlan, c: PairsComparison): boolean {
  return c.base.commits.includes(plan.base.commit) && c.head.commits.includes(plan.head.commit);
}

/** "3 neither measured nor listed, 1 failed on both sides". */
function countsByWhy(points: readonly { why: string }[]): string {
  const counts = new Map<string, number>();
  for (const p of points) counts.set(p.why, (counts.get(p.why) ?? 0) + 1);
  return [...counts].map(([why, n]) => `${n} ${why}`).join(', ');
}

/**
 * A harness change the diff answered without timing it rests on the recordings the base's code
 * made and uploaded before any harness measured (pr.yml's `harness-transcripts`): they must be
 * there, of the plan's commits, show both harnesses measuring the same, and be what the diff
 * reports. Undefined when that holds or the answer did not rest on them.
 */
function untimedWithoutRecordings(
  plan: DiffPlan,
  c: PairsComparison,
  recorded: TranscriptVerdictFile | undefined,
): string | undefined {
  const h = c.harnessShift;
  if (!h || h.sameCode || h.rounds > 0 || h.experiments.length) return undefined;
  const lead = 'the diff answered the harness change without timing it, but';
  if (!recorded) return `${lead} no recordings of both harnesses were uploaded before it measured`;
  if (recorded.base.commit !== plan.base.commit || recorded.head.commit !== plan.head.commit)
    return `${lead} the uploaded recordings are of other commits than the plan's`;
  // Every difference in points' own timed commands: those points are timed in pairs instead, and
  // each needs its answer, as an affected point does.
  const paired = needsNoTiming(recorded.verdict) ? [] : pointsToPair(recorded.verdict);
  if (!needsNoTiming(recorded.verdict) && (!paired.length || pointsToTime(recorded.verdict)?.length !== 0))
    return `${lead} the uploaded recordings show the two harnesses run programs differently`;
  if (!isDeepStrictEqual(h.transcript, recorded.verdict))
    return `${lead} what it reports of the recordings is not what was uploaded`;
  const missing = paired.filter((r) => whyUnanswered(r.point, [], c) !== undefined).map((r) => r.point);
  return missing.length
    ? `${lead} ${missing.length} point${missing.length === 1 ? '' : 's'} the recordings time with other commands ${missing.length === 1 ? 'has' : 'have'} no answer from pairs (${missing.slice(0, 5).join(', ')})`
    : undefined;
}

/**
 * What the comment and the merge check say about a trusted plan: undefined when every point it
 * names is answered and a harness change it found was measured; else one line, and the points.
 */
export function coverageProblem(
  plan: DiffPlan,
  c: PairsComparison,
  recorded?: TranscriptVerdictFile,
): { line: string; points: string[] } | undefined {
  if (!samePair(plan, c))
    return {
      line: `the trusted plan is of base ${plan.base.commit.slice(0, 12)} and head ${plan.head.commit.slice(0, 12)}, not of the commits this diff measured`,
      points: [],
    };
  const lines: string[] = [];
  const missing = unansweredPoints(plan, c, recorded);
  if (missing.length)
    lines.push(
      `${missing.length} point${missing.length === 1 ? '' : 's'} the trusted plan names ${missing.length === 1 ? 'has' : 'have'} no answer the default branch accepts (${countsByWhy(missing)})`,
    );
  if (plan.harnessChange.changed && !c.harnessShift)
    lines.push(
      `the trusted plan found the harness changed (${plan.harnessChange.why}), and the diff did not measure what that change does`,
    );
  const unrecorded = plan.harnessChange.changed ? untimedWithoutRecordings(plan, c, recorded) : undefined;
  if (unrecorded) lines.push(unrecorded);
  if (!lines.length) return undefined;
  return { line: lines.join('; '), points: missing.map((m) => m.benchmark) };
}
