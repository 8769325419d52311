/**
 * The views. Each renders into a container from the store and the URL state, one profile (the
 * workload) at a time. Verdicts, tables and answers come from the harness's own models
 * (report/summary-model.ts, compare/compare.ts, analysis/*), never re-derived here.
 */
import { medianInterval } from '../../harness/src/analysis/median-interval.js';
import { compareRuns } from '../../harness/src/compare/compare.js';
import { formatValue } from '../../harness/src/lib/format.js';
import type { Results } from '../../harness/src/model/results.js';
import { programChanges } from '../../harness/src/model/store-layout.js';
import {
  type ExperimentSummary,
  experimentSummary,
  FINDINGS,
  type Table,
} from '../../harness/src/report/summary-model.js';
import { detectChangePoints, MIN_SHIFT } from './changepoints.js';
import { escapeHtml as esc, trendChart, xyChart } from './charts.js';
import {
  type Benchmark,
  type ExperimentInfo,
  lineLabel,
  type Profile,
  type RunFile,
  type Store,
  trendCharts,
  type WindowCommit,
} from './data.js';
import { overviewCharts } from './overview.js';
import { type State, toHash } from './state.js';

export interface Ctx {
  store: Store;
  state: State;
  machine: string;
  profile: Profile;
  /** Each experiment's Overview picture (manifest `overview`, from config.json). */
  overview: Record<string, unknown>;
  el: HTMLElement;
  commitUrl: (sha: string) => string | undefined;
  go: (s: Partial<State>) => void;
}

export const width = (el: HTMLElement) => Math.max(320, Math.min(el.clientWidth || 900, 1150));
export const short = (sha: string) => sha.slice(0, 10);

function commitOptions(commits: readonly WindowCommit[], selected?: string): string {
  return [...commits]
    .reverse()
    .map(
      (c) =>
        `<option value="${esc(c.sha)}"${c.sha === selected ? ' selected' : ''}>${short(c.sha)} · ${esc(c.date.slice(0, 10))} · ${esc(c.subject.slice(0, 60))}</option>`,
    )
    .join('');
}

export function commitLink(ctx: Ctx, sha: string, text = short(sha)): string {
  const url = ctx.commitUrl(sha);
  return url ? `<a href="${esc(url)}">${esc(text)}</a>` : esc(text);
}

/** The experiment's presentation fields as the summary model wants them. */
export function viewOfRun(id: string, info: ExperimentInfo) {
  return {
    id,
    title: info.title,
    question: info.question,
    parameters: (info.parameters ?? {}) as Record<string, { unit?: string }>,
    ...(info.summary ? { summary: info.summary as never } : {}),
    analyses: ((info as { analyses?: unknown[] }).analyses ?? []) as never[],
  };
}

export function tableHtml(t: Table, cls = ''): string {
  return `<table${cls ? ` class="${cls}"` : ''}><thead><tr>${t.headers.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${t.rows
    .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** Everything of the summary model but the picture: the table, the answers, slopes, problems. */
function summaryHtml(s: ExperimentSummary): string {
  const parts: string[] = [];
  if (s.table) parts.push(`<p class="muted">at ${esc(s.at ?? '')}</p>${tableHtml(s.table)}`);
  for (const a of s.answers)
    parts.push(
      `<div class="answer"><p><b>${esc(a.question)}</b> <span class="muted">${esc(a.metric)}, ${esc(a.comparison)}</span></p>` +
        (a.scenarios.length
          ? `<ul>${a.scenarios
              .map(
                (sc) =>
                  `<li>${sc.scenario ? `${esc(sc.scenario)}: ` : ''}${sc.items
                    .map(
                      (i) =>
                        `${esc(i.variant)} <b>${i.ratio.toFixed(2)}x</b> <span class="${i.finding === 'lower' || i.finding === 'higher' ? '' : 'muted'}">(${FINDINGS[i.finding]})</span>`,
                    )
                    .join('; ')}</li>`,
              )
              .join('')}</ul>`
          : '<p class="muted">No pair of points measured for it in this run.</p>') +
        '</div>',
    );
  for (const sl of s.slopes) parts.push(`<p><b>${esc(sl.title)}</b></p>${tableHtml(sl.table)}`);
  return parts.join('');
}

function problemsHtml(s: ExperimentSummary): string {
  if (!s.problems.length) return '';
  const n = s.counts.skipped + s.counts.failed;
  return `<details class="problems" open><summary>${n} skipped or failed</summary><ul>${s.problems
    .map(
      (p) =>
        `<li><span class="status ${p.status}">${p.status}</span> <b>${esc(p.where)}</b>: ${esc(p.reason)}${p.hint ? ` <span class="muted">— ${esc(p.hint)}</span>` : ''}</li>`,
    )
    .join('')}</ul></details>`;
}

// ---------------------------------------------------------------- overview

export async function overview(ctx: Ctx): Promise<void> {
  const entries = Object.entries(ctx.profile.catalog.experiments);
  if (!entries.length) {
    ctx.el.innerHTML = '<p class="notice">This machine has no runs of this profile yet.</p>';
    return;
  }
  // Each experiment from the newest commit that ran it (a filtered dispatch may have run one alone).
  const latestCommit = await Promise.all(entries.map(([, e]) => ctx.profile.runAt(e.latest)));
  const runs = await Promise.all(latestCommit.map((c) => (c ? ctx.store.run(ctx.machine, c) : undefined)));
  const newest = runs
    .filter((r): r is RunFile => r !== undefined)
    .sort((a, b) => (a.run.commit.date < b.run.commit.date ? 1 : -1))[0];
  if (!newest) {
    ctx.el.innerHTML = '<p class="notice">This machine has no runs of this profile yet.</p>';
    return;
  }
  const m = newest.run.machine;
  ctx.el.innerHTML =
    `<section class="card"><h2>Latest run</h2><p>Commit ${commitLink(ctx, newest.run.commit.sha)} “${esc(newest.run.commit.subject)}”, ${esc(newest.run.commit.date)} · profile <b>${esc(newest.run.profile)}</b>${newest.run.partial ? ' · <b class="bad">partial run</b>' : ''}</p>` +
    `<p class="muted">${esc(m.cpu)}, ${m.cores} cores, ${(m.memoryBytes / 2 ** 30).toFixed(0)} GiB, ${esc(m.kernel)}, governor ${esc(m.governor)}${newest.run.conditions ? `, turbo ${esc(newest.run.conditions.turbo)}, SMT ${esc(newest.run.conditions.smt)}, measured on CPUs ${esc(newest.run.conditions.measuredCpus)}` : ''}</p>` +
    `<p class="muted">${Object.entries(newest.run.toolchains)
      .map(([k, v]) => `${esc(k)} ${esc(v)}`)
      .join(' · ')}</p></section>`;
  // The manifests' overview order (wc first), then by id.
  const rank = (id: string) => (ctx.overview[id] as { order?: number } | undefined)?.order ?? 1000;
  const items = entries
    .map(([id], i) => ({ id, run: runs[i] }))
    .filter((x): x is { id: string; run: RunFile } => Boolean(x.run?.experiments[x.id]))
    .sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
  const pictures: (() => void)[] = [];
  for (const { id, run } of items) {
    const info = run.experiments[id]!;
    const summary = experimentSummary(
      viewOfRun(id, info),
      run.benchmarks as unknown as Results['benchmarks'],
      (run.analyses ?? []) as never,
    );
    const section = document.createElement('section');
    section.className = 'card experiment';
    section.dataset.experiment = id;
    const at =
      run !== newest
        ? `<p class="muted">From ${commitLink(ctx, run.run.commit.sha)} (${esc(run.run.commit.date.slice(0, 10))}), the newest commit with this experiment.</p>`
        : '';
    section.innerHTML = `<h2>${esc(id)}: ${esc(info.title)}</h2><p class="question">${esc(info.question)}</p>${at}<div class="picture"></div>`;
    const picture = section.querySelector<HTMLElement>('.picture')!;
    const drawn = overviewCharts(id, ctx.overview[id] ?? info.overview, info, run.benchmarks, picture);
    if (drawn) pictures.push(drawn);
    const rest = summaryHtml(summary);
    if (rest)
      section.insertAdjacentHTML(
        'beforeend',
        `<details class="tables"${drawn ? '' : ' open'}><summary>Tables: ${esc(summary.at ?? 'this run')}</summary>${rest}</details>`,
      );
    section.insertAdjacentHTML(
      'beforeend',
      `${problemsHtml(summary)}<p><a href="${toHash({ view: 'trends', machine: ctx.machine, profile: ctx.profile.profile, experiment: id })}">Trends</a> · <a href="${toHash({ view: 'sweeps', machine: ctx.machine, profile: ctx.profile.profile, experiment: id })}">Sweeps</a></p>`,
    );
    ctx.el.appendChild(section);
  }
  for (const draw of pictures) draw();
}

// ---------------------------------------------------------------- trends

export async function trends(ctx: Ctx): Promise<void> {
  const catalog = ctx.profile.catalog;
  const experiments = Object.keys(catalog.experiments).sort();
  const experiment =
    ctx.state.experiment && experiments.includes(ctx.state.experiment) ? ctx.state.experiment : experiments[0];
  if (!experiment) {
    ctx.el.innerHTML = '<p class="notice">No experiment has been published for this machine yet.</p>';
    return;
  }
  const metrics = Object.keys(catalog.experiments[experiment]!.metrics).sort();
  const metric =
    ctx.state.metric && metrics.includes(ctx.state.metric)
      ? ctx.state.metric
      : metrics.includes('wall_time')
        ? 'wall_time'
        : metrics[0];
  const older = ctx.state.older ?? 0;
  const windows = ctx.profile.recentWindows(older);
  const hasOlder = windows.length < ctx.profile.windows.length;
  const [trend, noise] = await Promise.all([
    metric ? ctx.profile.trend(experiment, metric, windows) : Promise.resolve(undefined),
    ctx.store.noise(ctx.machine),
  ]);
  const commits = trend?.commits ?? [];
  const span = commits.length ? `${commits[0]!.date.slice(0, 10)} … ${commits.at(-1)!.date.slice(0, 10)}` : '';
  ctx.el.innerHTML =
    `<div class="controls"><label>experiment <select id="exp">${experiments.map((e) => `<option${e === experiment ? ' selected' : ''}>${esc(e)}</option>`).join('')}</select></label>` +
    `<label>metric <select id="metric">${metrics.map((x) => `<option${x === metric ? ' selected' : ''}>${esc(x)}</option>`).join('')}</select></label>` +
    `<label><input type="checkbox" id="log"${ctx.state.log ? ' checked' : ''}> log scale</label>` +
    `<span class="muted">${commits.length} commits (${esc(span)})</span>` +
    (hasOlder ? '<button id="older" type="button">load older commits</button>' : '') +
    '<span class="muted">drag to zoom, double-click to reset</span></div>' +
    (commits.length < 2
      ? '<p class="notice">Only one commit so far: trends need at least two. The points are shown; lines appear from the next run on.</p>'
      : '') +
    '<div id="charts"></div><section class="card"><h3>Detected changes</h3><ul id="changes"></ul></section>';
  ctx.el.querySelector<HTMLSelectElement>('#exp')!.onchange = (e) =>
    ctx.go({ experiment: (e.target as HTMLSelectElement).value, metric: undefined, chart: undefined });
  ctx.el.querySelector<HTMLSelectElement>('#metric')!.onchange = (e) =>
    ctx.go({ metric: (e.target as HTMLSelectElement).value, chart: undefined });
  ctx.el.querySelector<HTMLInputElement>('#log')!.onchange = (e) =>
    ctx.go({ log: (e.target as HTMLInputElement).checked });
  const more = ctx.el.querySelector<HTMLButtonElement>('#older');
  if (more) more.onclick = () => ctx.go({ older: older + 1 });
  if (!metric || !trend) return;
  const chartsEl = ctx.el.querySelector<HTMLElement>('#charts')!;
  const changesEl = ctx.el.querySelector<HTMLElement>('#changes')!;
  // Measured once, before any chart is added: reading it in every draw forced a layout per chart.
  const chartWidth = width(chartsEl);
  const charts = trendCharts(trend.series, metric);
  // Draw charts as they scroll into view: years of data stay fast.
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        (entry.target as HTMLElement & { draw?: () => void }).draw?.();
      }
    },
    { rootMargin: '400px' },
  );
  const pointKeys = new Set(charts.flatMap((c) => Object.keys(c.point)));
  const state = { view: 'trends' as const, machine: ctx.machine, profile: ctx.profile.profile, experiment, metric };
  // Each chart's change points are found when it is drawn or when the list below is filled
  // (after the first paint), not all before the first chart.
  const listers: (() => { index: number; html: string }[])[] = [];
  for (const chart of charts) {
    const box = document.createElement('div') as HTMLDivElement & { draw?: () => void };
    box.className = `chart${ctx.state.chart === chart.key ? ' highlight' : ''}`;
    box.dataset.key = chart.key;
    box.style.minHeight = '300px';
    // A chart of variants that do not take a parameter the others do (Bun: no pool size) says so.
    const pointText = [
      ...Object.entries(chart.point).map(([k, v]) => `${k}=${v}`),
      ...[...pointKeys].filter((k) => !(k in chart.point)).map((k) => `${k} n/a`),
    ].join(' ');
    const lines = chart.lines.map((l) => {
      const s = trend.series[l.key]!;
      return {
        id: s.id,
        label: l.label,
        values: s.values,
        ranges: s.ranges,
        unit: s.unit,
        direction: s.direction,
        programChanged: programChanges(s.programs),
      };
    });
    let found: ReturnType<typeof chartChanges> | undefined;
    const marks = () => {
      found ??= chartChanges(lines, (id) => Math.max(MIN_SHIFT, noise[`${id} ${metric}`] ?? 0));
      return found;
    };
    const link = toHash({ ...state, chart: chart.key, ...(ctx.state.log ? { log: true } : {}) });
    listers.push(() => {
      const { changes, programs } = marks();
      const items: { index: number; html: string }[] = [];
      for (const r of programs.filter((p) => !changes.some((c) => c.line === p.line && c.index === p.index))) {
        const commit = commits[r.index];
        items.push({
          index: r.index,
          html: `<li><a href="${link}">${esc(pointText)}</a> · ${esc(lines[r.line]!.label)}: <b>program changed</b> at ${commit ? `${commitLink(ctx, commit.sha)} ${esc(commit.subject)}` : '?'}</li>`,
        });
      }
      for (const c of changes) {
        const commit = commits[c.index];
        const worse = c.ratio > 1 === (lines[c.line]!.direction === 'smaller');
        items.push({
          index: c.index,
          html: `<li><a href="${link}">${esc(pointText)}</a> · ${esc(lines[c.line]!.label)}: <b class="${worse ? 'bad' : 'good'}">×${c.ratio.toFixed(3)}</b> at ${commit ? `${commitLink(ctx, commit.sha)} ${esc(commit.subject)}` : '?'}${c.program ? ' <b>(program changed here)</b>' : ''}</li>`,
        });
      }
      return items;
    });
    const a = document.createElement('a');
    a.className = 'permalink';
    a.href = link;
    a.textContent = 'permalink to this chart';
    box.draw = () => {
      const { changes, programs } = marks();
      trendChart(
        box,
        {
          title: `${metric} · ${pointText}`,
          unit: lines[0]?.unit ?? '',
          log: Boolean(ctx.state.log),
          commits,
          lines,
          changes: [...changes, ...programs],
          commitUrl: ctx.commitUrl,
        },
        chartWidth,
      );
      box.appendChild(a);
      box.style.minHeight = '';
    };
    chartsEl.appendChild(box);
    observer.observe(box);
  }
  if (ctx.state.chart) {
    const target = chartsEl.querySelector<HTMLElement & { draw?: () => void }>(
      `[data-key="${CSS.escape(ctx.state.chart)}"]`,
    );
    target?.scrollIntoView();
  }
  await afterPaint();
  const changeItems = listers.flatMap((list) => list());
  changesEl.innerHTML = changeItems.length
    ? changeItems
        .sort((x, y) => y.index - x.index)
        .map((c) => c.html)
        .join('')
    : '<li class="muted">No change points detected.</li>';
}

/** Resolves after the browser has painted what is on the page now (a frame, then a task). */
const afterPaint = () => new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)));

type TrendLine = { id: string; values: (number | null)[]; programChanged: number[] };

/** A chart's change points (marked "program changed here" where its program changed) and its program changes. */
function chartChanges(lines: readonly TrendLine[], minShift: (id: string) => number) {
  // A step where the program changed is found like any other, and marked (issue 14).
  const changes = lines.flatMap((l, i) =>
    detectChangePoints(l.values, minShift(l.id)).map((c) => ({
      line: i,
      index: c.index,
      ratio: c.ratio,
      kind: 'perf' as const,
      program: l.programChanged.includes(c.index),
    })),
  );
  const programs = lines.flatMap((l, i) =>
    l.programChanged.map((index) => ({ line: i, index, kind: 'program' as const })),
  );
  return { changes, programs };
}

// ---------------------------------------------------------------- sweeps

/** A metric's value with its 95% interval (of the median, from the samples), for a sweep point. */
function withInterval(b: Benchmark | undefined, metric: string) {
  const m = b?.metrics[metric];
  if (!m) return { v: null, lo: null, hi: null };
  const ci = m.samples && m.samples.length > 1 ? medianInterval(m.samples) : undefined;
  return { v: m.value, lo: ci?.low ?? null, hi: ci?.high ?? null };
}

export async function sweeps(ctx: Ctx): Promise<void> {
  const catalog = ctx.profile.catalog;
  const experiments = Object.keys(catalog.experiments).sort();
  const experiment =
    ctx.state.experiment && experiments.includes(ctx.state.experiment) ? ctx.state.experiment : experiments[0];
  if (!experiment) {
    ctx.el.innerHTML = '<p class="notice">No runs yet.</p>';
    return;
  }
  const recent = (await ctx.profile.commits(ctx.profile.recentWindows(ctx.state.older ?? 0))).filter((c) =>
    c.experiments.includes(experiment),
  );
  const commit =
    (ctx.state.commit ? await ctx.profile.find(ctx.state.commit) : undefined) ??
    (await ctx.profile.at(catalog.experiments[experiment]!.latest));
  const vs = ctx.state.vs ? await ctx.profile.find(ctx.state.vs) : undefined;
  if (!commit) {
    ctx.el.innerHTML = '<p class="notice">No runs yet.</p>';
    return;
  }
  const options = [...recent];
  for (const c of [commit, vs]) if (c && !options.some((o) => o.sha === c.sha)) options.push(c);
  options.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const [run, other] = await Promise.all([
    ctx.store.run(ctx.machine, commit),
    vs ? ctx.store.run(ctx.machine, vs) : Promise.resolve(undefined),
  ]);
  const info = run.experiments[experiment] ?? other?.experiments[experiment];
  const ok = run.benchmarks.filter((b) => b.experiment === experiment && b.status === 'ok');
  const metrics = [...new Set(ok.flatMap((b) => Object.keys(b.metrics)))]
    .filter((m) => !m.startsWith('syscalls.') || m === 'syscalls.total')
    .sort();
  const metric =
    ctx.state.metric && metrics.includes(ctx.state.metric)
      ? ctx.state.metric
      : metrics.includes('throughput')
        ? 'throughput'
        : metrics[0];
  // The swept parameter: the numeric one with the most distinct values.
  const params = Object.keys(info?.parameters ?? {}).filter((p) => ok.some((b) => typeof b.params[p] === 'number'));
  const distinct = (p: string) => new Set(ok.filter((x) => p in x.params).map((x) => x.params[p])).size;
  const axis = params.sort((a, b) => distinct(b) - distinct(a))[0];
  ctx.el.innerHTML =
    `<div class="controls"><label>experiment <select id="exp">${experiments.map((e) => `<option${e === experiment ? ' selected' : ''}>${esc(e)}</option>`).join('')}</select></label>` +
    `<label>metric <select id="metric">${metrics.map((x) => `<option${x === metric ? ' selected' : ''}>${esc(x)}</option>`).join('')}</select></label>` +
    `<label>commit <select id="commit">${commitOptions(options, commit.sha)}</select></label>` +
    `<label>overlay <select id="vs"><option value="">(none)</option>${commitOptions(options, vs?.sha)}</select></label>` +
    `<label><input type="checkbox" id="log"${ctx.state.log ? ' checked' : ''}> log scale</label></div>` +
    '<p class="muted">Whiskers: the 95% interval of each median from its samples (the samples’ range below 6 samples); the overlaid commit is dashed.</p><div id="sweeps"></div>';
  const on = (id: string, key: keyof State) => {
    ctx.el.querySelector<HTMLSelectElement | HTMLInputElement>(`#${id}`)!.onchange = (e) => {
      const t = e.target as HTMLInputElement;
      ctx.go({ [key]: t.type === 'checkbox' ? t.checked : t.value || undefined });
    };
  };
  on('exp', 'experiment');
  on('metric', 'metric');
  on('commit', 'commit');
  on('vs', 'vs');
  on('log', 'log');
  const host = ctx.el.querySelector<HTMLElement>('#sweeps')!;
  if (!axis || !metric || !info) {
    host.innerHTML = '<p class="notice">This experiment has no numeric parameter to sweep.</p>';
    return;
  }
  const xs = [
    ...new Set(ok.filter((b) => typeof b.params[axis] === 'number').map((b) => b.params[axis] as number)),
  ].sort((a, b) => a - b);
  // Other parameters (except runtime versions, which become lines) make separate charts.
  const groupKeys = Object.keys(info.parameters ?? {}).filter((p) => p !== axis);
  const groups = new Map<string, Benchmark[]>();
  for (const b of ok) {
    const key = groupKeys.map((k) => `${k}=${b.params[k]}`).join(' ');
    groups.set(key, [...(groups.get(key) ?? []), b]);
  }
  const unitOf = info.parameters?.[axis]?.unit;
  for (const [key, list] of groups) {
    const lineIds = [...new Set(list.map((b) => lineLabel(b.variant, b.params, [axis, ...groupKeys])))].sort();
    const pointsFor = (bs: Benchmark[], label: string) =>
      // A variant that does not take the swept parameter is one value: drawn flat across the axis.
      xs.map((x) =>
        withInterval(
          bs.find(
            (b) =>
              (b.params[axis] === x || !(axis in b.params)) &&
              lineLabel(b.variant, b.params, [axis, ...groupKeys]) === label &&
              groupKeys.every((k) => `${k}=${b.params[k]}` === key.split(' ').find((p) => p.startsWith(`${k}=`))),
          ),
          metric,
        ),
      );
    const lineOf = (label: string, bs: Benchmark[], sha: string, i: number, dashed: boolean) => {
      const pts = pointsFor(bs, label);
      return {
        label: `${label} @${short(sha)}`,
        values: pts.map((p) => p.v),
        low: pts.map((p) => p.lo),
        high: pts.map((p) => p.hi),
        colorIndex: i,
        dashed,
      };
    };
    const lines = lineIds.map((label, i) => lineOf(label, list, commit.sha, i, false));
    if (other) {
      const otherOk = other.benchmarks.filter((b) => b.experiment === experiment && b.status === 'ok');
      lineIds.forEach((label, i) => {
        lines.push(lineOf(label, otherOk, other.run.commit.sha, i, true));
      });
    }
    const box = document.createElement('div');
    box.className = 'chart';
    host.appendChild(box);
    const unit = list[0]?.metrics[metric]?.unit ?? '';
    xyChart(
      box,
      {
        title: `${metric} vs ${axis}${key ? ` · ${key}` : ''}`,
        param: axis,
        ...(unitOf ? { xUnit: unitOf } : {}),
        unit,
        logX: xs.every((x) => x > 0) && xs.length > 2 && xs.at(-1)! / xs[0]! >= 16,
        log: Boolean(ctx.state.log),
        xs,
        lines,
      },
      width(host),
    );
  }
}

// ---------------------------------------------------------------- compare

export async function compare(ctx: Ctx): Promise<void> {
  const commits = await ctx.profile.commits(ctx.profile.recentWindows(ctx.state.older ?? 0));
  if (commits.length < 2) {
    ctx.el.innerHTML = '<p class="notice">Compare needs two commits; this machine has one so far.</p>';
    return;
  }
  const head = (ctx.state.head ? await ctx.profile.find(ctx.state.head) : undefined) ?? commits.at(-1)!;
  const base = (ctx.state.base ? await ctx.profile.find(ctx.state.base) : undefined) ?? commits.at(-2)!;
  const options = [...commits];
  for (const c of [base, head]) if (!options.some((o) => o.sha === c.sha)) options.push(c);
  options.sort((a, b) => (a.date < b.date ? -1 : 1));
  ctx.el.innerHTML = `<div class="controls"><label>base <select id="base">${commitOptions(options, base.sha)}</select></label><label>head <select id="head">${commitOptions(options, head.sha)}</select></label></div><div id="table"><p>Loading both runs…</p></div>`;
  ctx.el.querySelector<HTMLSelectElement>('#base')!.onchange = (e) =>
    ctx.go({ base: (e.target as HTMLSelectElement).value });
  ctx.el.querySelector<HTMLSelectElement>('#head')!.onchange = (e) =>
    ctx.go({ head: (e.target as HTMLSelectElement).value });
  const [b, h, noise] = await Promise.all([
    ctx.store.run(ctx.machine, base),
    ctx.store.run(ctx.machine, head),
    ctx.store.noise(ctx.machine),
  ]);
  ctx.el.querySelector<HTMLElement>('#table')!.innerHTML = compareTable(b, h, noise);
}

/** `npm run compare`'s own comparison (compare/compare.ts) of two stored runs, as a table. */
export function compareTable(base: RunFile, head: RunFile, noise: Record<string, number> = {}): string {
  let c: ReturnType<typeof compareRuns>;
  try {
    c = compareRuns([base as unknown as Results], [head as unknown as Results], noise);
  } catch (e) {
    return `<p class="notice">${esc((e as Error).message)}</p>`;
  }
  const counts = { slower: 0, faster: 0, unchanged: 0 };
  for (const m of c.metrics) counts[m.verdict]++;
  const changed = c.metrics.filter((m) => m.changed).length;
  const pct = (r: number) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;
  const order = { slower: 0, faster: 1, unchanged: 2 };
  const rows = [...c.metrics]
    .sort((x, y) => Number(Boolean(y.changed)) - Number(Boolean(x.changed)) || order[x.verdict] - order[y.verdict])
    .map(
      (m) =>
        `<tr class="${m.verdict}"><td>${esc(m.benchmark)}</td><td>${esc(m.metric)}</td><td>${formatValue(m.base.median, m.unit)}</td><td>${formatValue(m.head.median, m.unit)}</td><td>${pct(m.ratio)}</td><td>${pct(m.ci[0])} … ${pct(m.ci[1])}</td><td>${m.p.toFixed(3)}</td><td>${m.verdict === 'unchanged' ? 'no significant change' : m.verdict}${m.changed ? ' <b>(program changed)</b>' : ''}${m.note ? ` <span class="muted">${esc(m.note)}</span>` : ''}</td></tr>`,
    );
  if (!rows.length) return '<p class="notice">No benchmark has samples on both sides.</p>';
  const incomparable = c.incomparable?.length
    ? `<details><summary>${c.incomparable.length} not comparable</summary><ul>${c.incomparable.map((x) => `<li>${esc(x.benchmark)} ${esc(x.metric)}: ${esc(x.reason)}</li>`).join('')}</ul></details>`
    : '';
  return `<p><b>${counts.slower} slower, ${counts.faster} faster, ${counts.unchanged} unchanged${changed ? `; ${changed} with a changed program` : ''}.</b> <span class="muted">${esc(c.method)}. Change &gt; 0 means the value grew.</span></p>${(c.warnings ?? []).map((w) => `<p class="bad">${esc(w)}</p>`).join('')}<table class="compare"><thead><tr><th>benchmark</th><th>metric</th><th>base</th><th>head</th><th>change</th><th>95% CI</th><th>p</th><th>verdict</th></tr></thead><tbody>${rows.join('')}</tbody></table>${incomparable}`;
}
