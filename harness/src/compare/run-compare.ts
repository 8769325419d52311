/**
 * compare, end to end: read both sides' results, choose the noise thresholds, build the
 * comparison, check it against the schema the PR-comment workflow applies, and write
 * comparison.json and comparison.md.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Comparison, type Comparison as ComparisonType } from '../formats/quick-look-format.js';
import { readResults } from '../formats/read-results.js';
import { writeFileAtomic } from '../lib/atomic.js';
import { assertValid } from '../lib/json-file.js';
import type { NoiseChoice } from '../store/noise-thresholds.js';
import { compareRuns } from './quick-look.js';
import { renderComparison } from './render-quick-look.js';

/** A run's output directory stands for its results.json (`--base results/pr/base-*`). */
function resultsPath(p: string): string {
  return existsSync(p) && statSync(p).isDirectory() ? join(p, 'results.json') : p;
}

export function writeComparison(
  baseFiles: readonly string[],
  headFiles: readonly string[],
  noise: (machine: string) => NoiseChoice,
  outDir: string,
  warnings: readonly string[] = [],
): { comparison: ComparisonType; markdown: string } {
  const [baseRuns, headRuns] = [
    baseFiles.map((f) => readResults(resultsPath(f))),
    headFiles.map((f) => readResults(resultsPath(f))),
  ];
  const choice = noise(headRuns[0]!.run.machine.id);
  const comparison = compareRuns(baseRuns, headRuns, choice.thresholds);
  if (choice.note) comparison.method = `${comparison.method}; ${choice.note}`;
  const extra = [...(choice.warning ? [choice.warning] : []), ...warnings];
  if (extra.length) comparison.warnings = [...(comparison.warnings ?? []), ...extra];
  // What we write must pass the checks the PR-comment workflow applies to it.
  assertValid('comparison.json', comparison, Comparison);
  const markdown = renderComparison(comparison);
  writeFileAtomic(join(outDir, 'comparison.json'), `${JSON.stringify(comparison, null, 1)}\n`);
  writeFileAtomic(join(outDir, 'comparison.md'), markdown);
  return { comparison, markdown };
}
