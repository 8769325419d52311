/**
 * The PR-comment step's input is an artifact produced by a workflow that ran pull-request code:
 * untrusted data. It is size-checked, schema-validated and re-rendered from the validated JSON
 * (never posted as it came); the PR number must be a plain integer equal to the one GitHub
 * reports for the triggering run.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../lib/errors.js';
import { readJsonFile } from '../lib/json-file.js';
import { AnyComparison, PAIRED_COMPARISON_SCHEMA } from '../model/comparison.js';
import { renderComparison } from './render.js';
import { renderPairedComparison } from './render-paired.js';

export const MAX_ARTIFACT_BYTES = 8 * 2 ** 20;
export const COMMENT_MARKER = '<!-- jsio-bench:perf-diff -->';

/** An artifact file must be a regular file in the artifact (a symlink could point anywhere). */
function regularFile(file: string): number {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(file);
  } catch {
    throw new UserError(`artifact file missing: ${file}`);
  }
  if (!st.isFile())
    throw new UserError(`artifact file ${file} is not a regular file (a symlink or a directory): refusing it`);
  return st.size;
}

function readBounded(file: string, max: number): string {
  const size = regularFile(file);
  if (size > max)
    throw new UserError(`artifact file ${file} is ${size} bytes, over the ${max}-byte limit: refusing it`);
  return readFileSync(file, 'utf8');
}

export function commentFromArtifact(dir: string, expectedPr: string): { pr: number; body: string } {
  if (!/^[1-9]\d{0,9}$/.test(expectedPr))
    throw new UserError(`--pr must be a positive integer (got ${JSON.stringify(expectedPr.slice(0, 40))})`);
  const prText = readBounded(join(dir, 'pr-number'), 64).trim();
  if (!/^[1-9]\d{0,9}$/.test(prText))
    throw new UserError(
      `artifact pr-number is not a positive integer (got ${JSON.stringify(prText.slice(0, 40))}): refusing it`,
    );
  if (prText !== expectedPr)
    throw new UserError(
      `artifact pr-number ${prText} does not match the run's pull request ${expectedPr}: refusing it`,
    );
  regularFile(join(dir, 'comparison.json'));
  // Schema 1 (pooled rounds) and 2 (paired) are both read; a newer one is refused by name.
  const parsed = readJsonFile(join(dir, 'comparison.json'), AnyComparison, {
    maxBytes: MAX_ARTIFACT_BYTES,
    version: PAIRED_COMPARISON_SCHEMA,
  });
  const body = parsed.schema === PAIRED_COMPARISON_SCHEMA ? renderPairedComparison(parsed) : renderComparison(parsed);
  return { pr: Number(prText), body: `${COMMENT_MARKER}\n${body}` };
}
