/**
 * Runtimes: what runtime releases did to the release suites (npm run releases). Per experiment,
 * its metric (by its label) against release (version order, each labelled with the date its
 * project gives it, or the registry's, marked), one chart per runtime line and suite point, with
 * C measured beside each release as the reference line, confirmed changes marked with their size
 * and range, and the releases a chart lacks named with why; above them the changes between
 * releases, timing and counter (data/releases/<machine>/changes.json). Markup only through
 * html`` (escaped).
 */

import { paths } from '../../../harness/src/formats/parts/store-layout.js';
import type { ReleaseChangesFile, ReleaseIndexFile } from '../../../harness/src/formats/release-store-format.js';
import { formatValue } from '../../../harness/src/lib/format.js';
import { type Html, html, safeUrl, setHtml } from '../html.js';
import { metricsOf, type RuntimeChart, releaseExperiments, releaseProfiles, runtimeCharts } from '../runtimes-model.js';
import { toHash } from '../state.js';
import { type Ctx, select } from './ctx.js';
import { changesList } from './release-changes.js';

async function fetchOptional<T>(url: string): Promise<T | undefined> {
  const r = await fetch(url);
  if (r.status === 404) return undefined;
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return (await r.json()) as T;
}

const pct = (r: number) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;
const W = 540;
/** The plot's own height; the margins around it follow from the labels. */
const PLOT_H = 152;
const TOP = 14;
const RIGHT = 12;
/** The tick labels' size, also set on each label so the margins hold without the stylesheet. */
const TICK_PX = 9;
/** Width of a character of the tick labels, generously: a label is never cut off. */
const CHAR_W = 6;
/** How far a label rotated by 45° reaches left of and below its tick. */
const reach = (chars: number) => Math.ceil(chars * CHAR_W * Math.SQRT1_2) + 6;
const f1 = (v: number) => v.toFixed(1);

/** A release's tick: its version and date, a registry date marked with an asterisk. */
const tickText = (p: RuntimeChart['points'][number]) =>
  `${p.version} · ${p.date.slice(0, 10)}${p.dateSource === 'registry' ? ' *' : ''}`;

/** An inline SVG: the line's values (solid), C (dashed), each with its 95% interval as a whisker, confirmed changes as shaded ranges. */
function chartSvg(c: RuntimeChart, label: string): Html {
  const n = c.points.length;
  const all = c.points.flatMap((p) => [
    p.value,
    ...(p.reference === null ? [] : [p.reference]),
    ...(p.interval ?? []),
    ...(p.referenceInterval ?? []),
  ]);
  const top = Math.max(...all) * 1.1 || 1;
  const M = {
    top: TOP,
    right: RIGHT,
    left: Math.max(64, reach(c.points[0] ? tickText(c.points[0]).length : 0)),
    bottom: reach(Math.max(0, ...c.points.map((p) => tickText(p).length))) + 12,
  };
  const H = M.top + PLOT_H + M.bottom;
  const x = (i: number) => M.left + (n === 1 ? (W - M.left - M.right) / 2 : (i * (W - M.left - M.right)) / (n - 1));
  const y = (v: number) => M.top + (1 - v / top) * PLOT_H;
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
      return html`<g class="change ${worse ? 'worse' : 'better'}"><rect x="${f1(a)}" y="${M.top}" width="${f1(Math.max(2, b - a))}" height="${PLOT_H}"><title>${ch.text}</title></rect><text x="${f1((a + b) / 2)}" y="${M.top + 10}" text-anchor="middle">${pct(ch.confirmation ? 1 + ch.confirmation.change : ch.ratio)}</text></g>`;
    });
  const ticks = c.points.map(
    (p, i) =>
      html`<text class="tick" transform="translate(${f1(x(i))},${TOP + PLOT_H + 12}) rotate(-45)" text-anchor="end" font-size="${TICK_PX}">${tickText(p)}</text>`,
  );
  const dots = c.points.map(
    (p, i) =>
      html`<circle cx="${f1(x(i))}" cy="${f1(y(p.value))}" r="3"><title>${c.line} ${p.version} (${p.date.slice(0, 10)}${p.dateSource === 'registry' ? ', registry date' : ''}): ${formatValue(p.value, c.unit)}${p.reference === null ? '' : `; C ${formatValue(p.reference, c.unit)}`}</title></circle>`,
  );
  const yTicks = [0, 0.5, 1].map(
    (f) =>
      html`<text class="tick" font-size="${TICK_PX}" x="${M.left - 6}" y="${f1(y(top * f * 0.9) + 4)}" text-anchor="end">${formatValue(top * f * 0.9, c.unit)}</text>`,
  );
  const whisker = (i: number, ci: [number, number] | undefined, cls: string, title: string) =>
    ci
      ? html`<line class="${cls}" x1="${f1(x(i))}" x2="${f1(x(i))}" y1="${f1(y(ci[0]))}" y2="${f1(y(ci[1]))}"><title>${title}: 95% interval ${formatValue(ci[0], c.unit)} … ${formatValue(ci[1], c.unit)}</title></line>`
      : '';
  const intervals = c.points.map(
    (p, i) =>
      html`${whisker(i, p.referenceInterval, 'interval reference-interval', `C beside ${p.version}`)}${whisker(i, p.interval, 'interval', `${c.line} ${p.version}`)}`,
  );
  const hasRef = c.points.some((p) => p.reference !== null);
  return html`<svg class="runtime-chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${`${label} of ${c.variant} per ${c.line} release`}">${marks}<line class="axis" x1="${M.left}" y1="${TOP + PLOT_H}" x2="${W - M.right}" y2="${TOP + PLOT_H}"/>${hasRef ? html`<polyline class="reference" points="${path(c.points.map((p) => p.reference))}"/>` : ''}<polyline class="release" points="${path(c.points.map((p) => p.value))}"/>${intervals}${dots}${ticks}${yTicks}</svg>`;
}

/** Below a chart: the releases it lacks and why, and the counter changes on its point. */
function chartNotes(c: RuntimeChart, ctx: Ctx): Html {
  const missing = c.missing.length
    ? html`<p class="muted missing">not drawn: ${c.missing.map((m, i) => html`${i ? '; ' : ''}${c.line} ${m.version} (${m.why})`)}</p>`
    : '';
  const pairs = [...new Set(c.counterChanges.map((x) => `${x.from} → ${x.to}`))];
  const counters = pairs.length
    ? html`<p class="muted">counter changes on this point: ${pairs.map((r) => {
        const here = c.counterChanges.filter((x) => `${x.from} → ${x.to}` === r);
        return html`${r} (${here.map((x) => `${ctx.label(c.experiment, x.metric)} ${x.counts?.from} → ${x.counts?.to}`).join(', ')}) `;
      })}</p>`
    : '';
  const registry = c.points.some((p) => p.dateSource === 'registry')
    ? html`<p class="muted">* the registry's publish date: the package gives no date of its own</p>`
    : '';
  return html`${missing}${counters}${registry}`;
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
  const label = ctx.label(c.experiment, c.metric);
  const hl = ctx.state.chart === c.key ? ' highlight' : '';
  return html`<div class="chart runtime${hl}" data-key="${c.key}"><h3><a href="${safeUrl(link)}">${`${c.line}: ${c.variant}${params.length ? ` (${params.join(', ')})` : ''}`}</a></h3>${chartSvg(c, label)}<p class="muted">${label} (${c.direction} is better) · solid: ${c.line} · dashed: C, measured beside each release · whiskers: 95% intervals</p>${chartNotes(c, ctx)}</div>`;
}

export async function runtimes(ctx: Ctx): Promise<void> {
  const base = ctx.store.base;
  // Only the files the site build saw: an empty store costs no failed request.
  const json = ctx.releases.changes ? `${base}${paths.releaseChanges(ctx.machine)}` : undefined;
  const index = ctx.releases.index
    ? await fetchOptional<ReleaseIndexFile>(`${base}${paths.releaseIndex(ctx.machine)}`)
    : undefined;
  const changes = json ? await fetchOptional<ReleaseChangesFile>(json) : undefined;
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
  setHtml(
    ctx.el,
    html`<div class="controls"><label>experiment ${select('rexp', experiments, experiment)}</label><label>metric ${select('rmetric', metrics, metric, (m) => ctx.label(experiment, m))}</label><span class="muted">releases measured at the ${profile} profile${profile !== ctx.profile.profile ? ` (this machine has no ${ctx.profile.profile} release runs)` : ''}</span></div>${changesList(changes, json, ctx.label)}<div class="runtime-charts">${charts.map((c) => chartCard(c, ctx, profile))}</div>`,
  );
  ctx.el.querySelector<HTMLSelectElement>('#rexp')!.onchange = (e) =>
    ctx.go({ experiment: (e.target as HTMLSelectElement).value, metric: undefined, chart: undefined });
  ctx.el.querySelector<HTMLSelectElement>('#rmetric')!.onchange = (e) =>
    ctx.go({ metric: (e.target as HTMLSelectElement).value, chart: undefined });
  ctx.el.querySelector('.chart.highlight')?.scrollIntoView();
}
