/** The summary model's tables, answers, slopes and problems (report/summary-model.ts) as HTML. */
import { type ExperimentSummary, FINDINGS, type Table } from '../../../harness/src/report/summary-model.js';
import { type Html, html } from '../html.js';
import { tableHtml } from './ctx.js';

/** Writes metric keys the harness's text names (`latency_p50 vs pool 4`) as their labels. */
export type Relabel = (text: string) => string;

const relabelTable = (t: Table, relabel: Relabel): Table => ({
  ...t,
  headers: t.headers.map(relabel),
  rows: t.rows.map((r) => r.map(relabel)),
});

/** Everything of the summary model but the picture: the table, the answers, slopes. */
export function summaryHtml(s: ExperimentSummary, relabel: Relabel): Html | undefined {
  const parts: Html[] = [];
  if (s.table) parts.push(html`<p class="muted">at ${s.at ?? ''}</p>${tableHtml(relabelTable(s.table, relabel))}`);
  for (const a of s.answers)
    parts.push(
      html`<div class="answer"><p><b>${a.question}</b> <span class="muted">${relabel(a.metric)}, ${relabel(a.comparison)}</span></p>${
        a.scenarios.length
          ? html`<ul>${a.scenarios.map(
              (sc) =>
                html`<li>${sc.scenario ? `${sc.scenario}: ` : ''}${sc.items.map(
                  (i, k) =>
                    html`${k ? '; ' : ''}${i.variant} <b>${i.ratio.toFixed(2)}x</b> <span class="${i.finding === 'lower' || i.finding === 'higher' ? '' : 'muted'}">(${FINDINGS[i.finding]})</span>`,
                )}</li>`,
            )}</ul>`
          : html`<p class="muted">No pair of points measured for it in this run.</p>`
      }</div>`,
    );
  for (const sl of s.slopes)
    parts.push(html`<p><b>${relabel(sl.title)}</b></p>${tableHtml(relabelTable(sl.table, relabel))}`);
  return parts.length ? html`${parts}` : undefined;
}

export function problemsHtml(s: ExperimentSummary): Html {
  if (!s.problems.length) return html``;
  const n = s.counts.skipped + s.counts.failed;
  return html`<details class="problems" open><summary>${n} skipped or failed</summary><ul>${s.problems.map(
    (p) =>
      html`<li><span class="status ${p.status}">${p.status}</span> <b>${p.where}</b>: ${p.reason}${p.hint ? html` <span class="muted">— ${p.hint}</span>` : ''}</li>`,
  )}</ul></details>`;
}
