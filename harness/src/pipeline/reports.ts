/** report: summary.md and github-action-benchmark's inputs, written beside results.json. */
import { join } from 'node:path';
import type { Experiment } from '../formats/manifest-format.js';
import type { Results } from '../formats/results-format.js';
import { writeFileAtomic } from '../lib/atomic.js';
import { GAB_FILES, toGab } from '../report/gab.js';
import { renderSummary, renderSummaryText } from '../report/summary.js';

export function writeReports(
  outDir: string,
  results: Results,
  experiments: readonly Experiment[],
): { summary: string; summaryText: string } {
  const summary = renderSummary(results, experiments);
  writeFileAtomic(join(outDir, 'summary.md'), summary);
  writeGab(join(outDir, 'gab'), results, experiments);
  return { summary, summaryText: renderSummaryText(results, experiments) };
}

/**
 * github-action-benchmark's two input files, from results (bench, and bench.yml's publish job,
 * which regenerates them from the validated results.json instead of trusting the artifact's).
 * Returns the rows in each.
 */
export function writeGab(
  dir: string,
  results: Pick<Results, 'benchmarks'>,
  experiments: readonly Pick<Experiment, 'id' | 'manifest'>[],
): Record<keyof typeof GAB_FILES, number> {
  const gab = toGab(results.benchmarks, experiments);
  for (const d of ['smaller', 'bigger'] as const)
    writeFileAtomic(join(dir, GAB_FILES[d]), `${JSON.stringify(gab[d], null, 1)}\n`);
  return { smaller: gab.smaller.length, bigger: gab.bigger.length };
}
