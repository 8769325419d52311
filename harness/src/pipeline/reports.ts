/** report: summary.md and github-action-benchmark's inputs, written beside results.json. */
import { join } from 'node:path';
import { writeFileAtomic } from '../lib/atomic.js';
import type { Experiment } from '../model/manifest.js';
import type { Results } from '../model/results.js';
import { GAB_FILES, toGab } from '../report/gab.js';
import { renderSummary, renderSummaryText } from '../report/summary.js';

export function writeReports(
  outDir: string,
  results: Results,
  experiments: readonly Experiment[],
): { summary: string; summaryText: string } {
  const summary = renderSummary(results, experiments);
  writeFileAtomic(join(outDir, 'summary.md'), summary);
  const gab = toGab(results.benchmarks, experiments);
  for (const dir of ['smaller', 'bigger'] as const)
    writeFileAtomic(join(outDir, 'gab', GAB_FILES[dir]), `${JSON.stringify(gab[dir], null, 1)}\n`);
  return { summary, summaryText: renderSummaryText(results, experiments) };
}
