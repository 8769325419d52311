/**
 * Regressions: the change points of every series of the selected workload, newest first, each
 * with its size and 95% interval, the commit range and links to its trend chart and the commits.
 * The same list is data/<machine>/trends/<profile>/regressions.json, for tools.
 */
import { formatValue } from '../../harness/src/lib/format.js';
import { paths } from '../../harness/src/model/store-layout.js';
import { escapeHtml as esc } from './charts.js';
import { trendChartKey } from './data.js';
import { toHash } from './state.js';
import { type Ctx, commitLink, short } from './views.js';

const pct = (r: number) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;

export async function regressions(ctx: Ctx): Promise<void> {
  const file = await ctx.store.regressions(ctx.machine, ctx.profile.profile);
  const all = ctx.state.experiment === 'all' || !ctx.state.experiment ? undefined : ctx.state.experiment;
  const showBetter = Boolean(ctx.state.log); // the URL's one boolean: here "improvements too"
  const list = file.regressions.filter((r) => (showBetter || r.worse) && (!all || r.experiment === all));
  const experiments = [...new Set(file.regressions.map((r) => r.experiment))].sort();
  const json = `${ctx.store.base}${paths.regressions(ctx.machine, ctx.profile.profile)}`;
  const repo = ctx.commitUrl('x')?.replace(/\/commit\/x$/, '');
  const rows = list.map((r) => {
    const chart = toHash({
      view: 'trends',
      machine: ctx.machine,
      profile: ctx.profile.profile,
      experiment: r.experiment,
      metric: r.metric,
      chart: trendChartKey(r.metric, r.params),
    });
    const range = repo
      ? `<a href="${esc(`${repo}/compare/${r.from.sha}...${r.to.sha}`)}">${short(r.from.sha)}…${short(r.to.sha)}</a>`
      : `${short(r.from.sha)}…${short(r.to.sha)}`;
    return `<tr class="${r.worse ? 'slower' : 'faster'}"><td>${esc(r.to.date.slice(0, 10))}</td><td><a href="${esc(chart)}">${esc(r.benchmark)}</a></td><td>${esc(r.metric)}</td><td><b class="${r.worse ? 'bad' : 'good'}">${pct(r.ratio)}</b></td><td>${pct(r.ci[0])} … ${pct(r.ci[1])}</td><td>${formatValue(r.before, r.unit)} → ${formatValue(r.after, r.unit)}</td><td>${range}<br><span class="muted">last before: ${commitLink(ctx, r.from.sha)}; first after: ${commitLink(ctx, r.to.sha)} ${esc(r.to.subject.slice(0, 60))}</span></td><td>${r.programChanged ? 'program changed' : ''}</td></tr>`;
  });
  ctx.el.innerHTML =
    `<div class="controls"><label>experiment <select id="exp"><option value="all">(all)</option>${experiments.map((e) => `<option${e === all ? ' selected' : ''}>${esc(e)}</option>`).join('')}</select></label>` +
    `<label><input type="checkbox" id="better"${showBetter ? ' checked' : ''}> improvements too</label>` +
    `<a href="${esc(json)}">this list as JSON</a></div>` +
    `<p class="muted">${esc(file.method)}. Size: after/before of the medians, &gt; 0 means the value grew; “worse” follows each metric's direction.</p>` +
    (rows.length
      ? `<table class="compare regressions"><thead><tr><th>date</th><th>benchmark</th><th>metric</th><th>size</th><th>95% interval</th><th>median before → after</th><th>commits</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      : `<p class="notice">No ${showBetter ? 'change points' : 'regressions'} detected in this workload's history.</p>`);
  ctx.el.querySelector<HTMLSelectElement>('#exp')!.onchange = (e) =>
    ctx.go({ experiment: (e.target as HTMLSelectElement).value });
  ctx.el.querySelector<HTMLInputElement>('#better')!.onchange = (e) =>
    ctx.go({ log: (e.target as HTMLInputElement).checked });
}
