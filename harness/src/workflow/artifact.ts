/**
 * The PR-comment step's input is an artifact produced by a workflow that ran pull-request code:
 * untrusted data. It is size-checked, schema-validated and re-rendered from the validated JSON
 * (never posted as it came); the PR number must be a plain integer equal to the one GitHub
 * reports for the triggering run.
 */
import { join } from 'node:path';
import { UserError } from '../lib/errors.js';
import { escapeCell } from '../lib/markdown.js';
import { readUntrusted, readUntrustedJson } from '../lib/untrusted.js';
import { expectComparison } from '../model/comparison-kind.js';
import { PAIRS_COMPARISON_SCHEMA } from '../model/comparison-version.js';
import { DiffPlan } from '../model/diff-plan.js';
import { PairsComparison } from '../model/pairs-document.js';
import type { GateRule } from '../pairs/analysis/merge-gate.js';
import { renderPairsComparison } from '../pairs/report/comment.js';
import { coverageProblem } from './trusted-coverage.js';

export const MAX_ARTIFACT_BYTES = 8 * 2 ** 20;
export const COMMENT_MARKER = '<!-- jsio-bench:perf-diff -->';

/**
 * A paired diff's comparison.json, validated. Told apart from the quick look by its `kind` (by its
 * schema number in files from before kinds): another document, an unknown kind or a newer schema
 * is refused in one line naming the file.
 */
export function readPairsComparison(file: string, what = 'file'): PairsComparison {
  return readUntrustedJson(file, PairsComparison, {
    maxBytes: MAX_ARTIFACT_BYTES,
    what,
    migrate: expectComparison(file, 'pairs', PAIRS_COMPARISON_SCHEMA),
  });
}

/** The artifact's comparison.json: only the paired diff is a PR diff. */
export function readArtifactComparison(dir: string): PairsComparison {
  return readPairsComparison(join(dir, 'comparison.json'), 'artifact file');
}

/** A trusted plan (`pairs --plan --json` by the base's harness), read as untrusted data all the same. */
export function readTrustedPlan(file: string): DiffPlan {
  return readUntrustedJson(file, DiffPlan, { maxBytes: 64 * 2 ** 20, what: 'trusted plan' });
}

/** What leads the comment when the base's harness left no plan (it predates plans, or could not read the head). */
export const NO_TRUSTED_PLAN =
  "> [!NOTE]\n> The base's harness left no plan of this diff (it predates `pairs --plan`, or could not read the head's programs): what was measured is what the pull request's own harness chose.\n\n";

/** The warning that leads the comment when the diff left out points the trusted plan names. */
function coverageWarning(plan: DiffPlan, c: PairsComparison): string {
  const problem = coverageProblem(plan, c);
  if (!problem) return '';
  const shown = problem.points.slice(0, 20).map(escapeCell);
  const more = problem.points.length > 20 ? ` and ${problem.points.length - 20} more` : '';
  return `> [!WARNING]\n> ${escapeCell(problem.line)}${shown.length ? `: ${shown.join(', ')}${more}` : ''}.\n\n`;
}

export function commentFromArtifact(
  dir: string,
  expectedPr: string,
  rule?: GateRule,
  trustedPlan?: DiffPlan | 'none',
): { pr: number; body: string } {
  if (!/^[1-9]\d{0,9}$/.test(expectedPr))
    throw new UserError(`--pr must be a positive integer (got ${JSON.stringify(expectedPr.slice(0, 40))})`);
  const prText = readUntrusted(join(dir, 'pr-number'), 64, 'artifact file').trim();
  if (!/^[1-9]\d{0,9}$/.test(prText))
    throw new UserError(
      `artifact pr-number is not a positive integer (got ${JSON.stringify(prText.slice(0, 40))}): refusing it`,
    );
  if (prText !== expectedPr)
    throw new UserError(
      `artifact pr-number ${prText} does not match the run's pull request ${expectedPr}: refusing it`,
    );
  const parsed = readArtifactComparison(dir);
  const body = renderPairsComparison(parsed, rule ? { rule } : {});
  const warning = trustedPlan === 'none' ? NO_TRUSTED_PLAN : trustedPlan ? coverageWarning(trustedPlan, parsed) : '';
  return { pr: Number(prText), body: `${COMMENT_MARKER}\n${warning}${body}` };
}
