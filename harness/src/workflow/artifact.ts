/**
 * The PR-comment step's input is an artifact produced by a workflow that ran pull-request code:
 * untrusted data. It is size-checked, schema-validated and re-rendered from the validated JSON
 * (never posted as it came); the PR number must be a plain integer equal to the one GitHub
 * reports for the triggering run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expectComparison, PAIRS_COMPARISON_SCHEMA } from '../formats/comparison-format.js';
import { DiffPlan } from '../formats/diff-plan-format.js';
import { PairRecordDocument } from '../formats/pair-record-format.js';
import { PairsComparison } from '../formats/pairs-format.js';
import { UserError } from '../lib/errors.js';
import { escapeCell } from '../lib/markdown.js';
import { readUntrusted, readUntrustedJson } from '../lib/untrusted.js';
import { renderPairsComparison } from '../pairs/comment/comment.js';
import { DEFAULT_GATE_RULE, type GateRule, parseGateRule } from '../pairs/decide/merge-gate.js';
import type { RecomputeOptions } from '../pairs/decide/recompute.js';
import { type Judgement, judgeDiff, type TrustedPlan } from './judgement.js';

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

/** A pair record of the artifact (pairs.json), validated; another version is refused in one line. */
function readArtifactRecord(dir: string): PairRecordDocument | undefined {
  if (!existsSync(join(dir, 'pairs.json'))) return undefined;
  return readUntrustedJson(join(dir, 'pairs.json'), PairRecordDocument, {
    maxBytes: 4 * MAX_ARTIFACT_BYTES,
    what: 'artifact file',
  });
}

const cell = (s: string) => escapeCell(s.slice(0, 600));

/** What leads the comment: the merge check as the default branch decided it, and why. */
function judgementSection(j: Judgement): string {
  const lines = [
    `**Merge check (decided by the default branch's code): ${j.fail ? 'fails' : 'passes'}** — ${cell(j.because)}.`,
  ];
  if (j.planNote) lines.push('', `> [!NOTE]\n> Trusted plan: ${cell(j.planNote)}.`);
  if (j.coverage?.points.length) {
    const shown = j.coverage.points.slice(0, 20).map(cell);
    const more = j.coverage.points.length > 20 ? ` and ${j.coverage.points.length - 20} more` : '';
    lines.push('', `> [!WARNING]\n> ${cell(j.coverage.line)}: ${shown.join(', ')}${more}.`);
  }
  if (j.disagreements.length) {
    lines.push(
      '',
      `> [!WARNING]\n> The verdicts below were judged again from the pairs; the measuring harness said otherwise on ${j.disagreements.length} point(s):`,
      ...j.disagreements.slice(0, 20).map((d) => `> - ${cell(d)}`),
      ...(j.disagreements.length > 20 ? [`> - and ${j.disagreements.length - 20} more`] : []),
    );
  }
  return `${lines.join('\n')}\n\n`;
}

/**
 * The artifact judged and rendered: its PR number checked against the run's, its comparison and
 * pair record validated, every verdict judged again, the merge check decided (./judgement.ts).
 */
export function commentFromArtifact(
  dir: string,
  expectedPr: string,
  rule: GateRule = parseGateRule(DEFAULT_GATE_RULE),
  trusted: TrustedPlan = { missing: 'none was given' },
  opts: RecomputeOptions = {},
): { pr: number; body: string; judgement: Judgement } {
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
  const judgement = judgeDiff(readArtifactComparison(dir), readArtifactRecord(dir), trusted, rule, opts);
  const body = renderPairsComparison(judgement.comparison, {
    rule,
    check: { fail: judgement.fail, because: judgement.because.slice(0, 300) },
  });
  return { pr: Number(prText), body: `${COMMENT_MARKER}\n${judgementSection(judgement)}${body}`, judgement };
}
