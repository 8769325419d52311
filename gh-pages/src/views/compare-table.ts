/**
 * Compare's table: `npm run compare`'s own comparison (compare/quick-look.ts) of two stored runs,
 * judged only against the machine's calibrated thresholds (as `compare --noise-store` does). Two
 * unpaired runs differ by run-to-run noise that their own samples do not show, so without a
 * calibrated threshold no change is called, and within one it reads "within noise".
 */
import { compareRuns } from '../../../harness/src/compare/quick-look.js';
import { formatValue } from '../../../harness/src/lib/format.js';
import { parseBenchmarkId } from '../../../harness/src/model/benchmark-id.js';
import type { ComparedMetric, Comparison } from '../../../harness/src/model/quick-look-document.js';
import type { Results } from '../../../harness/src/model/results.js';
import type { RunFile } from '../data.js';
import { type Html, html } from '../html.js';
import { pct, ratioInterval, SIGN_LEGEND } from './signs.js';

export type Call = 'slower' | 'faster' | 'within noise' | 'inconclusive' | 'too few samples to call' | 'not called';

/**
 * The site's verdict: a change only where a calibrated threshold supports it; "within noise" only
 * where the interval lies inside that threshold; too few samples is said as such.
 */
export function call(m: ComparedMetric, noise: Readonly<Record<string, number>>): Call {
  if (m.verdict === 'untestable') return 'too few samples to call';
  if (!Object.hasOwn(noise, `${m.benchmark} ${m.metric}`)) return 'not called';
  return m.verdict === 'unchanged' ? 'within noise' : m.verdict;
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
  const calls = c.metrics.map((m) => ({ m, call: call(m, noise) }));
  const count = (k: Call) => calls.filter((x) => x.call === k).length;
  const order: Record<Call, number> = {
    slower: 0,
    faster: 1,
    inconclusive: 2,
    'too few samples to call': 3,
    'within noise': 4,
    'not called': 5,
  };
  const few = count('too few samples to call');
  const undecided = count('inconclusive');
  const rows = [...calls]
    .sort((x, y) => Number(Boolean(y.m.changed)) - Number(Boolean(x.m.changed)) || order[x.call] - order[y.call])
    .map(({ m, call: v }) => {
      const threshold = noise[`${m.benchmark} ${m.metric}`];
      return html`<tr class="${v === 'slower' || v === 'faster' ? v : 'quiet'}"><td>${m.benchmark}</td><td>${opts.label(m.experiment, m.metric)}</td><td>${formatValue(m.base.median, m.unit)}</td><td>${formatValue(m.head.median, m.unit)}</td><td>${pct(m.ratio)}</td><td>${ratioInterval(m.ci)}</td><td>${threshold === undefined ? '—' : `±${(threshold * 100).toFixed(1)}%`}</td><td>${v}${m.changed ? html` <b>(program changed)</b>` : ''}</td></tr>`;
    });
  const uncalibrated = count('not called');
  const incomparable = c.incomparable?.length
    ? html`<details><summary>${c.incomparable.length} not comparable</summary><ul>${c.incomparable.map((x) => html`<li>${x.benchmark} ${x.metric === '*' ? '' : opts.label(parseBenchmarkId(x.benchmark).experiment, x.metric)}: ${x.reason}</li>`)}</ul></details>`
    : '';
  const paired = opts.paired
    ? html`the paired diff of these commits: <a href="${opts.paired.url}">${opts.paired.text}</a>`
    : html`<code>npm run pairs</code> measures both in interleaved pairs on one machine`;
  return html`<p><b>${count('slower')} slower, ${count('faster')} faster, ${count('within noise')} within noise${undecided ? `, ${undecided} inconclusive` : ''}${few ? `, ${few} too few samples to call` : ''}${uncalibrated ? `, ${uncalibrated} not called (no calibrated threshold)` : ''}.</b></p>
    <p class="paired">Two stored runs are not an A/B test: a change is called only beyond this machine's calibrated run-to-run noise. A trustworthy A/B is the paired PR diff (${paired}).</p>
    ${uncalibrated ? html`<p class="muted">This machine has no calibrated threshold for ${uncalibrated} of these metrics (<code>npm run calibrate</code>): their differences are shown, not judged.</p>` : ''}
    ${few ? html`<p class="muted">${few} of these ${few === 1 ? 'metric has' : 'metrics have'} too few samples on a side for any difference to reach p &lt; 0.05: their intervals are shown, not judged (more runs per commit would decide them).</p>` : ''}
    <p class="muted">${SIGN_LEGEND}. Interval: the 95% bootstrap interval of the ratio head/base (worse-oriented). ${c.method}.</p>
    ${(c.warnings ?? []).map((w) => html`<p class="bad">${w}</p>`)}
    <div class="scroll"><table class="compare"><thead><tr><th>benchmark</th><th>metric</th><th>base</th><th>head</th><th>change</th><th>95% interval</th><th>noise</th><th>verdict</th></tr></thead><tbody>${rows}</tbody></table></div>${incomparable}`;
}
