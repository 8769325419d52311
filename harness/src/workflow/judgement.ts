/**
 * The merge check of a pull request, decided by the code that reads the artifact (the default
 * branch's, in the PR-comment job), never by the harness that measured: every verdict judged again
 * from the pair record (../pairs/decide/recompute.ts), the repository's rule applied to those
 * verdicts, every point the trusted plan names answered (./trusted-coverage.ts), and a plan there
 * at all. Each of these fails the check on its own; together they are the commit status the
 * repository requires. Pure: documents in, the judgement out.
 */
import type { DiffPlan } from '../formats/diff-plan-format.js';
import type { PairRecordDocument } from '../formats/pair-record-format.js';
import type { PairsComparison } from '../formats/pairs-format.js';
import type { GateResult } from '../formats/parts/diff-summary.js';
import type { TranscriptVerdictFile } from '../formats/transcript-format.js';
import type { GateRule } from '../pairs/decide/merge-gate.js';
import { type RecomputeOptions, recomputeVerdicts } from '../pairs/decide/recompute.js';
import { summarize } from '../pairs/decide/summarize.js';
import { coverageProblem } from './trusted-coverage.js';

/** Why a diff without its pair record fails the check. */
export const NO_RECORD =
  "the artifact has no pair record (pairs.json), so no verdict could be judged again: the rows below are the measuring harness's own, unchecked";

/** The trusted plan as the comment job has it: the plan, or why there is none. */
export type TrustedPlan =
  | {
      plan: DiffPlan;
      note?: string;
      /** What the base's code recorded of both harnesses, uploaded before either measured (pr.yml). */
      recorded?: TranscriptVerdictFile;
    }
  | { missing: string };

export interface Judgement {
  /** The comparison with every verdict as judged again (what the comment shows). */
  comparison: PairsComparison;
  /** Where the measuring harness's own verdicts said otherwise. */
  disagreements: string[];
  /** The trusted plan's points or harness change left without an accepted answer. */
  coverage?: { line: string; points: string[] };
  /** Why no trusted plan could be used, or what differed between the uploaded plan and the recomputed one. */
  planNote?: string;
  /** The repository's rule on the judged verdicts. */
  gate: GateResult;
  fail: boolean;
  /** Why the check passes or fails, in one line. */
  because: string;
}

/** The comparison and pair record judged under `rule`, against the trusted plan. */
export function judgeDiff(
  c: PairsComparison,
  record: PairRecordDocument | undefined,
  trusted: TrustedPlan,
  rule: GateRule,
  opts: RecomputeOptions = {},
): Judgement {
  // Without a record nothing can be judged again: the rows are shown as the measuring harness made them, and the check fails.
  const { comparison, disagreements } = record
    ? recomputeVerdicts(c, record, opts)
    : { comparison: c, disagreements: [] };
  const { outcome: gate } = summarize(comparison, rule);
  const reasons: string[] = record ? [] : [NO_RECORD];
  let coverage: Judgement['coverage'];
  let planNote: string | undefined;
  if ('missing' in trusted) {
    planNote = trusted.missing;
    reasons.push(`no trusted plan: ${trusted.missing}`);
  } else {
    planNote = trusted.note;
    coverage = coverageProblem(trusted.plan, comparison, trusted.recorded);
    if (coverage) reasons.push(coverage.line);
  }
  if (gate.fail) reasons.push(gate.because);
  // The comment shows the recordings as the base's code uploaded them, not as the measuring harness passed them on.
  const recorded = 'plan' in trusted ? trusted.recorded : undefined;
  const shown =
    recorded && comparison.harnessShift
      ? { ...comparison, harnessShift: { ...comparison.harnessShift, transcript: recorded.verdict } }
      : comparison;
  return {
    comparison: { ...shown, summary: summarize(shown, rule) },
    disagreements,
    ...(coverage ? { coverage } : {}),
    ...(planNote ? { planNote } : {}),
    gate,
    fail: reasons.length > 0,
    because: (reasons.length ? reasons.join('; ') : gate.because).slice(0, 600),
  };
}

/**
 * The plan the comment job uses: the one it recomputed from both commits' trees, widened by the
 * one pr.yml uploaded where that names more (either may be missing); what differs is noted.
 */
export function trustedPlanOf(
  uploaded: DiffPlan | undefined,
  recomputed: DiffPlan | undefined,
  why: string,
): TrustedPlan {
  if (!uploaded && !recomputed) return { missing: why };
  if (!uploaded || !recomputed) {
    const plan = (uploaded ?? recomputed)!;
    return {
      plan,
      note: uploaded
        ? 'the comment job could not plan the diff again; the uploaded plan is used'
        : `the diff uploaded no plan (${why}); the comment job's own is used`,
    };
  }
  const own = new Set(recomputed.affected.map((a) => a.benchmark));
  const extra = uploaded.affected.filter((a) => !own.has(a.benchmark));
  const fewer = recomputed.affected.length - (uploaded.affected.length - extra.length);
  const harness = uploaded.harnessChange.changed !== recomputed.harnessChange.changed;
  const plan: DiffPlan = {
    ...recomputed,
    affected: [...recomputed.affected, ...extra],
    harnessChange:
      uploaded.harnessChange.changed && !recomputed.harnessChange.changed
        ? uploaded.harnessChange
        : recomputed.harnessChange,
  };
  const diffs = [
    ...(extra.length ? [`${extra.length} affected point(s) only the uploaded plan names (kept)`] : []),
    ...(fewer > 0 ? [`${fewer} affected point(s) only the comment job's plan names`] : []),
    ...(harness ? ['the two plans disagree on whether the harness changed (changed is kept)'] : []),
  ];
  return {
    plan,
    ...(diffs.length ? { note: `the uploaded plan and the comment job's own differ: ${diffs.join('; ')}` } : {}),
  };
}
