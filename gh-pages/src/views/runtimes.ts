/**
 * Runtimes: what runtime releases did to the release suites (npm run releases). Per experiment,
 * its metric against release (version order, each labelled with its registry date), one chart
 * per runtime line and suite point, with C measured beside each release as the reference line
 * and confirmed changes marked with their size and range; then every confirmed change, newest
 * first (also data/releases/<machine>/changes.json). Markup only through html`` (escaped).
 */
import { formatValue } from '../../../harness/src/lib/format.js';
import { paths } from '../../../harness/src/model/store-layout.js';
import type {
  ReleaseChange,
  ReleaseChangesFile,
  ReleaseIndexFile,
} from '../../../harness/src/releases/model/release-store.js';
import { type Html, html, safeUrl, setHtml } from '../html.js';
import { metricsOf, type RuntimeChart, releaseExperiments, releaseProfiles, runtimeCharts } from '../runtimes-model.js';
import { toHash } from '../state.js';
import type { Ctx } from './ctx.js';

async function fetchOptional<T>(url: string): Promise<T | undefined> {
  const r = await fetch(url);
  if (r.status === 404) return undefined;
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return (await r.json()) as T;
}

const pct = (r: number) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;
const W = 540;
const H = 240;
const M = { left: 64, right: 12, top: 14, bottom: 74 };
const f1 = (v: number) => v.toFixed(1);

/** An inline SVG: the line's values (solid), C (dashed), confirmed changes as shaded ranges. */
export function chartSvg(c: RuntimeChart): Html {
  const n = c.points.length;
  const all = c.points.flatMap((p) => [p.value, ...(p.reference === null ? [] : [p.reference])]);
  const top = Math.max(...all) * 1.1 || 1;
  const x = (i: number) => M.left + (n === 1 ? (W - M.left - M.right) / 2 : (i * (W - M.left - M.right)) / (n - 1));
  const y = (v: number) => M.top + (1 - v / top) * (H - M.top - M.bottom);
  const path = (vals: (number | null)[]) =>
    vals
      .map((v, i) => (v === null ? '' : `${f1(x(i))},${f1(y(v))}`))
      .filter(Boolean)
      .join(' ');
  const at = new Map(c.points.map((p, i) => [p.version, i]));
  const marks = c.changes
    .filter((ch) => at.has(ch.from) && at.has(ch.to))
    .map((ch) => {
      const a = x(at.get(ch.from)!);
      const b = x(at.get(ch.to)!);
      const worse = ch.direction === 'smaller' ? ch.ratio > 1 : ch.ratio < 1;
      return html`<g class="change ${worse ? 'worse' : 'better'}"><rect x="${f1(a)}" y="${M.top}" width="${f1(Math.max(2, b - a))}" height="${H - M.top - M.bottom}"><title>${ch.text}</title></rect><text x="${f1((a + b) / 2)}" y="${M.top + 10}" text-anchor="middle">${pct(ch.confirmation ? 1 + ch.confirmation.change : ch.ratio)}</text></g>`;
    });
  const ticks = c.points.map(
    (p, i) =>
      html`<text class="tick" transform="translate(${f1(x(i))},${H - M.bottom + 12}) rotate(-45)" text-anchor="end">${p.version} · ${p.date.slice(0, 10)}</text>`,
  );
  const dots = c.points.map(
    (p, i) =>
      html`<circle cx="${f1(x(i))}" cy="${f1(y(p.value))}" r="3"><title>${c.line} ${p.version} (${p.date.slice(0, 10)}): ${formatValue(p.value, c.unit)}${p.reference === null ? '' : `; C ${formatValue(p.reference, c.unit)}`}</title></circle>`,
  );
  const yTicks = [0, 0.5, 1].map(
    (f) =>
      html`<text class="tick" x="${M.left - 6}" y="${f1(y(top * f * 0.9) + 4)}" text-anchor="end">${formatValue(top * f * 0.9, c.unit)}</text>`,
  );
  const hasRef = c.points.some((p) => p.reference !== null);
  return html`<svg class="runtime-chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${`${c.metric} of ${c.variant} per ${c.line} release`}">${marks}<line class="axis" x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}"/>${hasRef ? html`<polyline class="reference" points="${path(c.points.map((p) => p.reference))}"/>` : ''}<polyline class="release" points="${path(c.points.map((p) => p.value))}"/>${dots}${ticks}${yTicks}</svg>`;
}

function chartCard(c: RuntimeChart, ctx: Ctx, profile: string): Html {
  const params = Object.entries(c.params).map(([k, v]) => `${k} ${v}`);
  const link = toHash({
    view: 'runtimes',
    machine: ctx.machine,
    profile,
    experiment: c.experiment,
    metric: c.metric,
    chart: c.key,
  });
  const hl = ctx.state.chart === c.key ? ' highlight' : '';
  return html`<div class="chart runtime${hl}" data-key="${c.key}"><h3><a href="${safeUrl(link)}">${`${c.line}: ${c.variant}${params.length ? ` (${params.join(', ')})` : ''}`}</a></h3>${chartSvg(c)}<p class="muted">${c.metric} (${c.direction} is better) · solid: ${c.line} · dashed: C, measured beside each release</p></div>`;
}

const PROFILERS: Record<string, string> = {
  'v8-cpu-prof': "the runtime's V8 profiler (--cpu-prof)",
  perf: 'perf record -e cpu-clock',
  none: 'no profiler',
};

/** A confirmed change's profile: the functions whose self time changed most, or why there is none. */
function profileOf(c: ReleaseChange): Html | string {
  const p = c.profile;
  if (!p) return '';
  const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : x < 100 ? 1 : 0)} ms`;
  const rows = p.functions.map((f) => html`<li><code>${f.name}</code>: ${ms(f.before)} → ${ms(f.after)}</li>`);
  return html`<details class="release-profile"><summary>profile: ${PROFILERS[p.tool] ?? p.tool}</summary>${p.note ? html`<p class="muted">${p.note}</p>` : ''}${rows.length ? html`<p class="muted">self time per run under ${c.from} → ${c.to}, the functions that changed most</p><ul>${rows}</ul>` : ''}</details>`;
}

function changesList(file: ReleaseChangesFile | undefined, json: string): Html {
  const list = file?.changes ?? [];
  const items = list.map(
    (c) =>
      html`<li class="${(c.direction === 'smaller' ? c.ratio > 1 : c.ratio < 1) ? 'bad' : 'good'}">${c.toDate.slice(0, 10)}: ${c.text}${profileOf(c)}</li>`,
  );
  const open = (file?.candidates ?? []).map((c) => html`<li>${c.text}</li>`);
  return html`<div class="card"><h2>Confirmed changes between releases</h2>${items.length ? html`<ul class="release-changes">${items}</ul>` : html`<p class="notice">No confirmed change yet.</p>`}${open.length ? html`<details><summary>${open.length} detected, not confirmed</summary><ul>${open}</ul></details>` : ''}<p><a href="${safeUrl(json)}">this list as JSON</a></p></div>`;
}

export async function runtimes(ctx: Ctx): Promise<void> {
  const base = ctx.store.base;
  const index = await fetchOptional<ReleaseIndexFile>(`${base}${paths.releaseIndex(ctx.machine)}`);
  const changes = await fetchOptional<ReleaseChangesFile>(`${base}${paths.releaseChanges(ctx.machine)}`);
  const entries = index?.releases ?? [];
  if (!entries.length) {
    setHtml(
      ctx.el,
      html`<p class="notice">No runtime release has been measured on this machine yet (<code>npm run releases -- measure</code>).</p>`,
    );
    return;
  }
  const profiles = releaseProfiles(entries);
  const profile = profiles.includes(ctx.profile.profile) ? ctx.profile.profile : profiles[0]!;
  const experiments = releaseExperiments(entries);
  const experiment =
    ctx.state.experiment && experiments.includes(ctx.state.experiment) ? ctx.state.experiment : experiments[0]!;
  const metrics = metricsOf(entries, experiment);
  const metric = ctx.state.metric && metrics.includes(ctx.state.metric) ? ctx.state.metric : metrics[0]!;
  const charts = runtimeCharts(entries, changes?.changes ?? [], profile, experiment, metric);
  const opts = (xs: readonly string[], sel: string) =>
    xs.map((x) => html`<option${x === sel ? html` selected` : ''}>${x}</option>`);
  setHtml(
    ctx.el,
    html`<div class="controls"><label>experiment <select id="rexp">${opts(experiments, experiment)}</select></label><label>metric <select id="rmetric">${opts(metrics, metric)}</select></label><span class="muted">releases measured at the ${profile} profile${profile !== ctx.profile.profile ? ` (this machine has no ${ctx.profile.profile} release runs)` : ''}</span></div>${changesList(changes, `${base}${paths.releaseChanges(ctx.machine)}`)}<div class="runtime-charts">${charts.map((c) => chartCard(c, ctx, profile))}</div>`,
  );
  ctx.el.querySelector<HTMLSelectElement>('#rexp')!.onchange = (e) =>
    ctx.go({ experiment: (e.target as HTMLSelectElement).value, metric: undefined, chart: undefined });
  ctx.el.querySelector<HTMLSelectElement>('#rmetric')!.onchange = (e) =>
    ctx.go({ metric: (e.target as HTMLSelectElement).value, chart: undefined });
  ctx.el.querySelector('.chart.highlight')?.scrollIntoView();
}
