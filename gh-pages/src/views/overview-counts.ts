/**
 * The Overview's counted work (counts/count-lines.ts): at the experiment's headline point, per line,
 * the instructions and system calls per operation (or per run) beside the headline metric with its
 * interval, under one sentence on what a count covers and leaves out. A count that is evidence
 * only or did not repeat is marked, and says why. Markup only through html`` (escaped).
 */

import {
  type CountInfo,
  caveat,
  countModel,
  coverageSentence,
  lineSentence,
} from '../../../harness/src/counts/count-lines.js';
import type { Results } from '../../../harness/src/formats/results-format.js';
import type { Benchmark, ExperimentInfo } from '../data.js';
import { type Html, html } from '../html.js';

export function countsHtml(
  id: string,
  info: ExperimentInfo,
  benchmarks: readonly Benchmark[],
  label: (metric: string) => string,
  overview: unknown,
): Html | undefined {
  const references = (overview as { references?: { variant: string; label?: string }[] } | undefined)?.references;
  const mine = benchmarks.filter((b) => b.experiment === id) as Results['benchmarks'];
  const model = countModel(info as CountInfo, mine, label, references ?? []);
  if (!model) return undefined;
  const groups = model.groups.map(
    (g) =>
      html`<p class="work-at">At ${g.at}:</p><ul class="work-lines">${g.lines.map(
        (l) =>
          html`<li class="${l.counts.status !== 'ok' || l.unmeasurable || caveat(l.counts) ? 'muted' : ''}" data-variant="${l.variant}">${lineSentence(l, model.op, label)}</li>`,
      )}</ul>`,
  );
  const settings = model.settings.length
    ? html`<details class="work-settings"><summary>Counted with</summary><ul>${model.settings.map(
        (s) => html`<li>${s.settings}: ${s.lines.join(', ')}</li>`,
      )}</ul></details>`
    : '';
  return html`<div class="work"><h3>Counted work</h3><p class="muted work-lead">${coverageSentence(model)}</p>${groups}${settings}</div>`;
}
