/**
 * Regressions: the change points of every series of the selected workload, newest first, each
 * with its size and 95% interval (worse-oriented: + = worse), the commit range and links to its
 * trend chart and the commits. The same list is data/<machine>/trends/<profile>/regressions.json.
 */

import { paths } from '../../../harness/src/formats/parts/store-layout.js';
import { formatValue } from '../../../harness/src/lib/format.js';
import { MIN_SEGMENT } from '../change-detection.js';
import { type TrendChange, trendChartKey } from '../data.js';
import { html, setHtml } from '../html.js';
import { toHash } from '../state.js';
import { type Ctx, commitLink, select, short } from './ctx.js';
import { plural } from './machine-line.js';
import { pct, ratioInterval, SIGN_LEGEND, worseInterval, worseRatio } from './signs.js';

function row(ctx: Ctx, r: TrendChange, repo: string | undefined) {
  const chart = toHash({
    view: 'trends',
    machine: ctx.machine,
    profile: ctx.profile.profile,
    experiment: r.experiment,
    metric: r.metric,
    chart: trendChartKey(r.metric, r.params),
  });
  const range = repo
    ? html`<a href="${`${repo}/compare/${r.from.sha}...${r.to.sha}`}">${short(r.from.sha)}…${short(r.to.sha)}</a>`
    : `${short(r.from.sha)}…${short(r.to.sha)}`;
  return html`<tr class="${r.worse ? 'slower' : 'faster'}"><td>${r.to.date.slice(0, 10)}</td><td><a href="${chart}">${r.benchmark}</a></td><td>${ctx.label(r.experiment, r.metric)}</td><td><b class="${r.worse ? 'bad' : 'good'}">${pct(worseRatio(r.ratio, r.direction))}</b></td><td>${ratioInterval(worseInterval(r.ci, r.direction))}</td><td>${formatValue(r.before, r.unit)} → ${formatValue(r.after, r.unit)}</td><td>${range}<br><span class="muted">last before: ${commitLink(ctx, r.from.sha)}; first after: ${commitLink(ctx, r.to.sha)} ${r.to.subject.slice(0, 60)}</span></td><td>${r.programChanged ? 'program changed' : ''}</td></tr>`;
}

export async function regressions(ctx: Ctx): Promise<void> {
  const file = await ctx.store.regressions(ctx.machine, ctx.profile.profile);
  const all = ctx.state.experiment === 'all' || !ctx.state.experiment ? undefined : ctx.state.experiment;
  const showBetter = Boolean(ctx.state.log); // the URL's one boolean: here "improvements too"
  const list = file.regressions.filter((r) => (showBetter || r.worse) && (!all || r.experiment === all));
  const experiments = ['all', ...new Set(file.regressions.map((r) => r.experiment))].sort();
  const json = `${ctx.store.base}${paths.regressions(ctx.machine, ctx.profile.profile)}`;
  const repo = ctx.commitUrl('x')?.replace(/\/commit\/x$/, '');
  const rows = list.map((r) => row(ctx, r, repo));
  setHtml(
    ctx.el,
    html`<div class="controls"><label>experiment ${select('exp', experiments, all ?? 'all', (e) => (e === 'all' ? '(all)' : e))}</label>
      <label><input type="checkbox" id="better"${showBetter ? html` checked` : ''}> improvements too</label>
      <a href="${json}">this list as JSON</a></div>
      <p class="muted">${file.method}. Size: after/before of the medians, ${SIGN_LEGEND}; the interval is of that ratio.</p>
      ${
        rows.length
          ? html`<div class="scroll"><table class="compare regressions"><thead><tr><th>date</th><th>benchmark</th><th>metric</th><th>size</th><th>95% interval</th><th>median before → after</th><th>commits</th><th></th></tr></thead><tbody>${rows}</tbody></table></div>`
          : html`<p class="notice">${nothingFound(ctx, showBetter)}</p>`
      }`,
  );
  ctx.el.querySelector<HTMLSelectElement>('#exp')!.onchange = (e) =>
    ctx.go({ experiment: (e.target as HTMLSelectElement).value });
  ctx.el.querySelector<HTMLInputElement>('#better')!.onchange = (e) =>
    ctx.go({ log: (e.target as HTMLInputElement).checked });
}

/** A change point needs MIN_SEGMENT commits on each side: with fewer, nothing could be detected. */
const NEEDED = 2 * MIN_SEGMENT;

function nothingFound(ctx: Ctx, showBetter: boolean): string {
  const what = showBetter ? 'change points' : 'regressions';
  const have = ctx.profile.catalog.windows.reduce((n, w) => n + w.commits, 0);
  if (have < NEEDED)
    return `No ${what} can be detected yet: detection needs at least ${plural(NEEDED, 'commit')} in this workload's history (${MIN_SEGMENT} on each side of a change), and it has ${plural(have, 'commit')}.`;
  return `No ${what} detected in this workload's history (${plural(have, 'commit')}).`;
}
