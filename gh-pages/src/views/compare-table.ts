/**
 * Compare's table: `npm run compare`'s own comparison (compare/quick-look.ts) of two stored runs,
 * judged only against the machine's calibrated thresholds (as `compare --noise-store` does). Two
 * unpaired runs differ by run-to-run noise that their own samples do not show, so without a
 * calibrated threshold a metric gets no verdict ("uncalibrated"), and "unchanged" within one reads
 * "within noise".
 */
import { compareRuns } from '../../../harness/src/compare/quick-look.js';
import type { ComparedMetric, Comparison } from '../../../harness/src/formats/quick-look-format.js';
import type { Results } from '../../../harness/src/formats/results-format.js';
import { formatValue } from '../../../harness/src/lib/format.js';
import { parseBenchmarkId } from '../../../harness/src/model/benchmark-id.js';
import { type CalibratedVerdict, VERDICT_TEXT } from '../../../harness/src/model/verdicts.js';
import type { RunFile } from '../data.js';
import { type Html, html } from '../html.js';
import { pct, ratioInterval, SIGN_LEGEND } from './signs.js';

/** How the site's verdicts read: the quick look's words, with its own for the two it adds. */
export const SITE_VERDICT_TEXT: Record<CalibratedVerdict, string> = {
  ...VERDICT_TEXT,
  unchanged: 'within noise',
  uncalibrated: 'not called',
};

/**
 * The site's verdict: a change only where a calibrated threshold supports it; "unchanged" only
 * where the interval lies inside that threshold; too few samples is said as such.
 */
export function siteVerdict(m: ComparedMetric, noise: Readonly<Record<string, number>>): CalibratedVerdict {
  if (m.verdict === 'untestable') return 'untestable';
  if (!Object.hasOwn(noise, `${m.benchmark} ${m.metric}`)) return 'uncalibrated';
  return m.verdict;
}

export interface CompareOptions {
  label: (experiment: string, metric: string) => string;
  /** The paired diff of this pair of commits (a PR's), where one exists. */
  paired?: { url: string; text: string };
}

/** Two runs compared as `npm run compare --noise-store` compares them, or why they cannot be (different workloads). */
export function compareLive(base: RunFile, head: RunFile, noise: Record<string, number>): Comparison | Error {
  try {
    return compareRuns([base as unknown as Results], [head as unknown as Results], noise);
  } catch (e) {
    return e as Error;
  }
}

export function compareTable(c: Comparison | Error, noise: Record<string, number>, opts: CompareOptions): Html {
  if (c instanceof Error) return html`<p class="notice">${c.message}</p>`;
  if (!c.metrics.length) return html`<p class="notice">No benchmark has samples on both sides.</p>`;
  const judged = c.metrics.map((m) => ({ m, verdict: siteVerdict(m, noise) }));
  const count = (k: CalibratedVerdict) => judged.filter((x) => x.verdict === k).length;
  const order: Record<CalibratedVerdict, number> = {
    slower: 0,
    faster: 1,
    inconclusive: 2,
    untestable: 3,
    unchanged: 4,
    uncalibrated: 5,
  };
  const few = count('untestable');
  const undecided = count('inconclusive');
  const rows = [...judged]
    .sort((x, y) => Number(Boolean(y.m.changed)) - Number(Boolean(x.m.changed)) || order[x.verdict] - order[y.verdict])
    .map(({ m, verdict: v }) => {
      const threshold = noise[`${m.benchmark} ${m.metric}`];
      return html`<tr class="${v === 'slower' || v === 'faster' ? v : 'quiet'}"><td>${m.benchmark}</td><td>${opts.label(m.experiment, m.metric)}</td><td>${formatValue(m.base.median, m.unit)}</td><td>${formatValue(m.head.median, m.unit)}</td><td>${pct(m.ratio)}</td><td>${ratioInterval(m.ci)}</td><td>${threshold === undefined ? '—' : `±${(threshold * 100).toFixed(1)}%`}</td><td>${SITE_VERDICT_TEXT[v]}${m.changed ? html` <b>(program changed)</b>` : ''}</td></tr>`;
    });
  const uncalibrated = count('uncalibrated');
  const incomparable = c.incomparable?.length
    ? html`<details><summary>${c.incomparable.length} not comparable</summary><ul>${c.incomparable.map((x) => html`<li>${x.benchmark} ${x.metric === '*' ? '' : opts.label(parseBenchmarkId(x.benchmark).experiment, x.metric)}: ${x.reason}</li>`)}</ul></details>`
    : '';
  const paired = opts.paired
    ? html`the paired diff of these commits: <a href="${opts.paired.url}">${opts.paired.text}</a>`
    : html`<code>npm run pairs</code> measures both in interleaved pairs on one machine`;
  return html`<p><b>${count('slower')} slower, ${count('faster')} faster, ${count('unchanged')} within noise${undecided ? `, ${undecided} inconclusive` : ''}${few ? `, ${few} too few samples to call` : ''}${uncalibrated ? `, ${uncalibrated} not called (no calibrated threshold)` : ''}.</b></p>
    <p class="paired">Two stored runs are not an A/B test: a change is called only beyond this machine's calibrated run-to-run noise. A trustworthy A/B is the paired PR diff (${paired}).</p>
    ${uncalibrated ? html`<p class="muted">This machine has no calibrated threshold for ${uncalibrated} of these metrics (<code>npm run calibrate</code>): their differences are shown, not judged.</p>` : ''}
    ${few ? html`<p class="muted">${few} of these ${few === 1 ? 'metric has' : 'metrics have'} too few samples on a side for any difference to reach p &lt; 0.05: their intervals are shown, not judged (more runs per commit would decide them).</p>` : ''}
    <p class="muted">${SIGN_LEGEND}. Interval: the 95% bootstrap interval of the ratio head/base (worse-oriented). ${c.method}.</p>
    ${(c.warnings ?? []).map((w) => html`<p class="bad">${w}</p>`)}
    <div class="scroll"><table class="compare"><thead><tr><th>benchmark</th><th>metric</th><th>base</th><th>head</th><th>change</th><th>95% interval</th><th>noise</th><th>verdict</th></tr></thead><tbody>${rows}</tbody></table></div>${incomparable}`;
}
