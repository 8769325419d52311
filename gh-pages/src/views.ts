/** The four views. Each renders into a container from the store and the URL state. */
import { compareSamples } from '../../harness/src/analysis/two-sample.js';
import { formatParam, formatRatio, formatValue } from '../../harness/src/lib/format.js';
import { type At, matchesAt } from '../../harness/src/model/select.js';
import { type AnswerScenario, answerComparison, answerScenarios } from '../../harness/src/report/answers.js';
import { type Ratio, ratioReference, ratioTarget } from '../../harness/src/report/ratios.js';
import { FINDINGS, rowLabel } from '../../harness/src/report/summary.js';
import { detectChangePoints, MIN_SHIFT } from './changepoints.js';
import { escapeHtml as esc, sweepChart, trendChart } from './charts.js';
import {
  type Benchmark,
  type CommitEntry,
  definitionChanges,
  type IndexFile,
  lineLabel,
  type RunFile,
  type Store,
  trendCharts,
} from './data.js';
import { type State, toHash } from './state.js';

export interface Ctx {
  store: Store;
  state: State;
  machine: string;
  index: IndexFile;
  el: HTMLElement;
  commitUrl: (sha: string) => string | undefined;
  go: (s: Partial<State>) => void;
}

const width = (el: HTMLElement) => Math.max(320, Math.min(el.clientWidth || 900, 1150));
const latest = (index: IndexFile) => index.commits.at(-1);
const commitBySha = (index: IndexFile, sha?: string) =>
  sha ? index.commits.find((c) => c.sha.startsWith(sha)) : undefined;
const short = (sha: string) => sha.slice(0, 10);

function commitOptions(index: IndexFile, selected?: string): string {
  return [...index.commits]
    .reverse()
    .map(
      (c) =>
        `<option value="${esc(c.sha)}"${c.sha === selected ? ' selected' : ''}>${short(c.sha)} · ${esc(c.date.slice(0, 10))} · ${esc(c.subject.slice(0, 60))}</option>`,
    )
    .join('');
}

// ---------------------------------------------------------------- overview

export async function overview(ctx: Ctx): Promise<void> {
  const last = latest(ctx.index);
  if (!last) {
    ctx.el.innerHTML = '<p class="notice">This machine has no runs yet.</p>';
    return;
  }
  const run = await ctx.store.run(ctx.machine, last);
  const m = run.run.machine;
  const parts: string[] = [];
  const url = ctx.commitUrl(last.sha);
  parts.push(
    `<section class="card"><h2>Latest run</h2><p>Commit ${url ? `<a href="${esc(url)}">${short(last.sha)}</a>` : short(last.sha)} “${esc(last.subject)}”, ${esc(last.date)} · profile <b>${esc(run.run.profile)}</b>${run.run.partial ? ' · <b class="bad">partial run</b>' : ''}</p>` +
      `<p class="muted">${esc(m.cpu)}, ${m.cores} cores, ${(m.memoryBytes / 2 ** 30).toFixed(0)} GiB, ${esc(m.kernel)}, governor ${esc(m.governor)}${run.run.conditions ? `, turbo ${esc(run.run.conditions.turbo)}, SMT ${esc(run.run.conditions.smt)}, measured on CPUs ${esc(run.run.conditions.measuredCpus)}` : ''}</p>` +
      `<p class="muted">${Object.entries(run.run.toolchains)
        .map(([k, v]) => `${esc(k)} ${esc(v)}`)
        .join(' · ')}</p></section>`,
  );
  for (const [id, info] of Object.entries(run.experiments)) {
    const mine = run.benchmarks.filter((b) => b.experiment === id);
    if (!mine.length) continue;
    parts.push(
      `<section class="card experiment" data-experiment="${esc(id)}"><h2>${esc(id)}: ${esc(info.title)}</h2><p class="question">${esc(info.question)}</p>`,
    );
    const s = info.summary;
    if (s) {
      const rows = mine.filter((b) => b.status === 'ok' && matchesAt(b, s.at as At, 'matches'));
      const unitOf = (k: string) => info.parameters?.[k]?.unit;
      const atText = Object.entries(s.at)
        .map(
          ([k, v]) =>
            `${k} ${(Array.isArray(v) ? v : [v]).map((x) => formatParam(x as number | string, unitOf(k))).join(', ')}`,
        )
        .join('; ');
      const cell = (b: Benchmark, r: Ratio) => {
        const ref = ratioReference(b, r, mine, s.at);
        const a = b.metrics[r.metric];
        const c = ref?.metrics[r.metric];
        return ref && ref !== b && a && c ? a.value / c.value : undefined;
      };
      // Findings: each row against a reference variant (e.g. "vs c"), the first such ratio.
      const r0 = s.ratios.find((r) => r.to !== undefined);
      const findings = r0
        ? rows.flatMap((b) => {
            const x = cell(b, r0);
            const mv = b.metrics[r0.metric];
            return x !== undefined && mv
              ? [
                  `<li><b>${esc(rowLabel(b, s.at))}</b>: ${esc(r0.metric)} ${formatValue(mv.value, mv.unit)}, <b>${formatRatio(x)}</b> ${esc(ratioTarget(r0, unitOf))} at ${esc(atText)}</li>`,
                ]
              : [];
          })
        : [];
      if (findings.length) parts.push(`<ul class="findings">${findings.join('')}</ul>`);
      parts.push(
        `<table><thead><tr><th>variant</th>${s.metrics.map((x) => `<th>${esc(x)}</th>`).join('')}${s.ratios.map((r) => `<th>${esc(r.metric)} vs ${esc(ratioTarget(r, unitOf))}</th>`).join('')}</tr></thead><tbody>${rows
          .map(
            (b) =>
              `<tr><td>${esc(rowLabel(b, s.at))}</td>${s.metrics.map((x) => `<td>${b.metrics[x] ? formatValue(b.metrics[x]!.value, b.metrics[x]!.unit) : '—'}</td>`).join('')}${s.ratios
                .map((r) => {
                  const x = ratioReference(b, r, mine, s.at) === b ? 1 : cell(b, r);
                  return `<td>${x !== undefined ? formatRatio(x) : '—'}</td>`;
                })
                .join('')}</tr>`,
          )
          .join('')}</tbody></table>`,
      );
      // The experiment's own questions, answered from this run (same code as summary.md).
      for (const a of s.answers ?? []) {
        const scenarios = answerScenarios(a, mine);
        const items = (sc: AnswerScenario) =>
          sc.items
            .map(
              (i) =>
                `${esc(i.variant)} <b>${formatRatio(i.ratio)}</b> <span class="${i.finding === 'lower' || i.finding === 'higher' ? '' : 'muted'}">(${FINDINGS[i.finding]})</span>`,
            )
            .join('; ');
        parts.push(
          `<div class="answer"><p><b>${esc(a.question)}</b> <span class="muted">${esc(a.metric)}, ${esc(answerComparison(a))}</span></p>` +
            (scenarios.length
              ? `<ul>${scenarios.map((sc) => `<li>${sc.scenario ? `${esc(sc.scenario)}: ` : ''}${items(sc)}</li>`).join('')}</ul>`
              : '<p class="muted">No pair of points measured for it in this run.</p>') +
            '</div>',
        );
      }
    }
    const problems = mine.filter((b) => b.status !== 'ok');
    if (problems.length) {
      const grouped = new Map<string, { b: Benchmark; n: number }>();
      for (const b of problems) {
        const key = `${b.status}|${b.variant}|${b.reason}`;
        const g = grouped.get(key);
        if (g) g.n++;
        else grouped.set(key, { b, n: 1 });
      }
      parts.push(
        `<details class="problems" open><summary>${problems.length} skipped or failed</summary><ul>${[
          ...grouped.values(),
        ]
          .map(
            ({ b, n }) =>
              `<li><span class="status ${b.status}">${b.status}</span> <b>${esc(b.variant)}</b>${n > 1 ? ` (${n} points)` : ` ${esc(b.id)}`}: ${esc(b.reason ?? '')}${b.hint ? ` <span class="muted">— ${esc(b.hint)}</span>` : ''}</li>`,
          )
          .join('')}</ul></details>`,
      );
    }
    parts.push(
      `<p><a href="${toHash({ view: 'trends', machine: ctx.machine, experiment: id })}">Trends</a> · <a href="${toHash({ view: 'sweeps', machine: ctx.machine, experiment: id })}">Sweeps</a></p></section>`,
    );
  }
  ctx.el.innerHTML = parts.join('');
}

// ---------------------------------------------------------------- trends

export async function trends(ctx: Ctx): Promise<void> {
  const experiments = [...new Set(ctx.index.commits.flatMap((c) => c.experiments))].sort();
  const experiment =
    ctx.state.experiment && experiments.includes(ctx.state.experiment) ? ctx.state.experiment : experiments[0];
  if (!experiment) {
    ctx.el.innerHTML = '<p class="notice">No experiment has been published for this machine yet.</p>';
    return;
  }
  const [series, noise] = await Promise.all([ctx.store.series(ctx.machine, experiment), ctx.store.noise(ctx.machine)]);
  const metrics = [...new Set(Object.values(series.series).flatMap((s) => Object.keys(s.metrics)))].sort();
  const metric =
    ctx.state.metric && metrics.includes(ctx.state.metric)
      ? ctx.state.metric
      : metrics.includes('wall_time')
        ? 'wall_time'
        : metrics[0];
  const byCommit = new Map(ctx.index.commits.map((c) => [c.sha, c]));
  const commits = series.commits.map(
    (sha) => byCommit.get(sha) ?? { sha, date: '', subject: '(commit not in the index)' },
  );
  ctx.el.innerHTML =
    `<div class="controls"><label>experiment <select id="exp">${experiments.map((e) => `<option${e === experiment ? ' selected' : ''}>${esc(e)}</option>`).join('')}</select></label>` +
    `<label>metric <select id="metric">${metrics.map((x) => `<option${x === metric ? ' selected' : ''}>${esc(x)}</option>`).join('')}</select></label>` +
    `<label><input type="checkbox" id="log"${ctx.state.log ? ' checked' : ''}> log scale</label><span class="muted">drag to zoom, double-click to reset</span></div>` +
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
  if (!metric) return;
  const chartsEl = ctx.el.querySelector<HTMLElement>('#charts')!;
  const changesEl = ctx.el.querySelector<HTMLElement>('#changes')!;
  const charts = trendCharts(series, metric);
  const changeItems: string[] = [];
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
      const m = series.series[l.id]!.metrics[metric]!;
      return {
        id: l.id,
        label: l.label,
        values: m.values,
        ranges: m.ranges,
        unit: m.unit,
        redefined: definitionChanges(series.series[l.id]!.definitions),
      };
    });
    // Change points are searched within each definition's stretch only: a redefined benchmark
    // is marked as such, never reported as a performance change.
    const changes = lines.flatMap((l, i) => {
      const cuts = [0, ...l.redefined, l.values.length];
      return cuts
        .slice(0, -1)
        .flatMap((from, k) =>
          detectChangePoints(
            l.values.slice(from, cuts[k + 1]),
            Math.max(MIN_SHIFT, noise[`${l.id} ${metric}`] ?? 0),
          ).map((c) => ({ line: i, index: from + c.index, ratio: c.ratio, kind: 'perf' as const })),
        );
    });
    const redefinitions = lines.flatMap((l, i) =>
      l.redefined.map((index) => ({ line: i, index, kind: 'definition' as const })),
    );
    for (const r of redefinitions) {
      const commit = commits[r.index];
      changeItems.push(
        `<li><a href="${toHash({ ...ctx.state, view: 'trends', machine: ctx.machine, experiment, metric, chart: chart.key })}">${esc(pointText)}</a> · ${esc(lines[r.line]!.label)}: <b>benchmark definition changed</b> at ${commit ? `${short(commit.sha)} ${esc(commit.subject)}` : '?'} (values before and after are not comparable)</li>`,
      );
    }
    for (const c of changes) {
      const commit = commits[c.index];
      changeItems.push(
        `<li><a href="${toHash({ ...ctx.state, view: 'trends', machine: ctx.machine, experiment, metric, chart: chart.key })}">${esc(pointText)}</a> · ${esc(lines[c.line]!.label)}: <b class="${(c.ratio > 1) === (series.series[chart.lines[c.line]!.id]!.metrics[metric]!.direction === 'smaller') ? 'bad' : 'good'}">×${c.ratio.toFixed(3)}</b> at ${commit ? `${short(commit.sha)} ${esc(commit.subject)}` : '?'}</li>`,
      );
    }
    const link = document.createElement('a');
    link.className = 'permalink';
    link.href = toHash({
      view: 'trends',
      machine: ctx.machine,
      experiment,
      metric,
      chart: chart.key,
      ...(ctx.state.log ? { log: true } : {}),
    });
    link.textContent = 'permalink to this chart';
    box.draw = () => {
      trendChart(
        box,
        {
          title: `${metric} · ${pointText}`,
          unit: lines[0]?.unit ?? '',
          log: Boolean(ctx.state.log),
          commits,
          lines,
          changes: [...changes, ...redefinitions],
          commitUrl: ctx.commitUrl,
        },
        width(chartsEl),
      );
      box.appendChild(link);
      box.style.minHeight = '';
    };
    chartsEl.appendChild(box);
    observer.observe(box);
  }
  changesEl.innerHTML = changeItems.length ? changeItems.join('') : '<li class="muted">No change points detected.</li>';
  if (ctx.state.chart) chartsEl.querySelector(`[data-key="${CSS.escape(ctx.state.chart)}"]`)?.scrollIntoView();
}

// ---------------------------------------------------------------- sweeps

export async function sweeps(ctx: Ctx): Promise<void> {
  const last = latest(ctx.index);
  if (!last) {
    ctx.el.innerHTML = '<p class="notice">No runs yet.</p>';
    return;
  }
  const commit = commitBySha(ctx.index, ctx.state.commit) ?? last;
  const vs = commitBySha(ctx.index, ctx.state.vs);
  const run = await ctx.store.run(ctx.machine, commit);
  const other = vs ? await ctx.store.run(ctx.machine, vs) : undefined;
  const experiments = Object.keys(run.experiments).filter((e) => run.benchmarks.some((b) => b.experiment === e));
  const experiment =
    ctx.state.experiment && experiments.includes(ctx.state.experiment) ? ctx.state.experiment : experiments[0];
  if (!experiment) {
    ctx.el.innerHTML = '<p class="notice">This run has no benchmarks.</p>';
    return;
  }
  const info = run.experiments[experiment]!;
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
  const params = Object.keys(info.parameters ?? {}).filter((p) => ok.some((b) => typeof b.params[p] === 'number'));
  const distinct = (p: string) => new Set(ok.filter((x) => p in x.params).map((x) => x.params[p])).size;
  const axis = params.sort((a, b) => distinct(b) - distinct(a))[0];
  ctx.el.innerHTML =
    `<div class="controls"><label>experiment <select id="exp">${experiments.map((e) => `<option${e === experiment ? ' selected' : ''}>${esc(e)}</option>`).join('')}</select></label>` +
    `<label>metric <select id="metric">${metrics.map((x) => `<option${x === metric ? ' selected' : ''}>${esc(x)}</option>`).join('')}</select></label>` +
    `<label>commit <select id="commit">${commitOptions(ctx.index, commit.sha)}</select></label>` +
    `<label>overlay <select id="vs"><option value="">(none)</option>${commitOptions(ctx.index, vs?.sha)}</select></label>` +
    `<label><input type="checkbox" id="log"${ctx.state.log ? ' checked' : ''}> log scale</label></div><div id="sweeps"></div>`;
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
  if (!axis || !metric) {
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
  for (const [key, list] of groups) {
    const lineIds = [...new Set(list.map((b) => lineLabel(b.variant, b.params, [axis, ...groupKeys])))].sort();
    const valuesFor = (bs: Benchmark[], label: string) =>
      // A variant that does not take the swept parameter is one value: drawn flat across the axis.
      xs.map(
        (x) =>
          bs.find(
            (b) =>
              (b.params[axis] === x || !(axis in b.params)) &&
              lineLabel(b.variant, b.params, [axis, ...groupKeys]) === label &&
              groupKeys.every((k) => `${k}=${b.params[k]}` === key.split(' ').find((p) => p.startsWith(`${k}=`))),
          )?.metrics[metric]?.value ?? null,
      );
    const lines = lineIds.map((label, i) => ({
      label: `${label} @${short(commit.sha)}`,
      values: valuesFor(list, label),
      colorIndex: i,
    }));
    if (other) {
      const otherOk = other.benchmarks.filter((b) => b.experiment === experiment && b.status === 'ok');
      lineIds.forEach((label, i) => {
        lines.push({
          label: `${label} @${short(other.run.commit.sha)}`,
          values: valuesFor(otherOk, label),
          colorIndex: i,
          dashed: true,
        } as never);
      });
    }
    const box = document.createElement('div');
    box.className = 'chart';
    host.appendChild(box);
    const unit = list[0]?.metrics[metric]?.unit ?? '';
    sweepChart(
      box,
      {
        title: `${metric} vs ${axis}${key ? ` · ${key}` : ''}`,
        param: `${axis}${info.parameters?.[axis]?.unit ? ` (${info.parameters[axis]!.unit})` : ''}`,
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
  const commits = ctx.index.commits;
  if (commits.length < 2) {
    ctx.el.innerHTML = '<p class="notice">Compare needs two commits; this machine has one so far.</p>';
    return;
  }
  const head = commitBySha(ctx.index, ctx.state.head) ?? commits.at(-1)!;
  const base = commitBySha(ctx.index, ctx.state.base) ?? commits.at(-2)!;
  ctx.el.innerHTML = `<div class="controls"><label>base <select id="base">${commitOptions(ctx.index, base.sha)}</select></label><label>head <select id="head">${commitOptions(ctx.index, head.sha)}</select></label></div><div id="table"><p>Loading both runs…</p></div>`;
  ctx.el.querySelector<HTMLSelectElement>('#base')!.onchange = (e) =>
    ctx.go({ base: (e.target as HTMLSelectElement).value });
  ctx.el.querySelector<HTMLSelectElement>('#head')!.onchange = (e) =>
    ctx.go({ head: (e.target as HTMLSelectElement).value });
  const [b, h] = await Promise.all([ctx.store.run(ctx.machine, base), ctx.store.run(ctx.machine, head)]);
  ctx.el.querySelector<HTMLElement>('#table')!.innerHTML = compareTable(b, h);
}

/** Same verdict logic as `npm run compare` (harness/src/analysis/two-sample.ts). */
export function compareTable(base: RunFile, head: RunFile): string {
  const rows: string[] = [];
  const counts = { slower: 0, faster: 0, unchanged: 0 };
  for (const hb of head.benchmarks) {
    const bb = base.benchmarks.find((x) => x.id === hb.id);
    if (bb?.status !== 'ok' || hb.status !== 'ok') continue;
    for (const [name, hm] of Object.entries(hb.metrics)) {
      const bm = bb.metrics[name];
      if (!hm.samples?.length || !bm?.samples?.length || name === 'throughput' || name === 'pipeline_max_rss') continue;
      const redefined = Boolean(bb.definition && hb.definition && bb.definition !== hb.definition);
      const c = compareSamples(bm.samples, hm.samples, hm.direction);
      const verdict = redefined ? 'unchanged' : c.verdict;
      counts[verdict]++;
      const pct = (r: number) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;
      rows.push(
        `<tr class="${verdict}"><td>${esc(hb.id)}</td><td>${esc(name)}</td><td>${formatValue(c.baseMedian, hm.unit)}</td><td>${formatValue(c.headMedian, hm.unit)}</td><td>${pct(c.ratio)}</td><td>${pct(c.ci[0])} … ${pct(c.ci[1])}</td><td>${c.p.toFixed(3)}</td><td>${redefined ? 'redefined (not compared)' : verdict === 'unchanged' ? 'no significant change' : verdict}</td></tr>`,
      );
    }
  }
  if (!rows.length) return '<p class="notice">No benchmark has samples on both sides.</p>';
  return `<p><b>${counts.slower} slower, ${counts.faster} faster, ${counts.unchanged} unchanged.</b> <span class="muted">Change &gt; 0 means head is worse.</span></p><table class="compare"><thead><tr><th>benchmark</th><th>metric</th><th>base</th><th>head</th><th>change</th><th>95% CI</th><th>p</th><th>verdict</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

export type { CommitEntry };
