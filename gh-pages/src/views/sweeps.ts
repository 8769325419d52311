/**
 * Sweeps: the swept parameter on the x axis (the one the Overview draws, else the numeric one with
 * the most values), one line per variant for a chosen commit, optionally overlaid with a second;
 * opens on the headline metric and on the axes the Overview uses (log where lines are far apart).
 */
import { medianInterval } from '../../../harness/src/analysis/median-interval.js';
import { trended } from '../../../harness/src/model/metrics.js';
import { MAX_SHOWN } from '../../../harness/src/report/overview-model.js';
import { loadCharts, wide, xyChart } from '../charts.js';
import { type Benchmark, type ExperimentInfo, lineLabel, type RunFile, type WindowCommit } from '../data.js';
import { html, setHtml } from '../html.js';
import type { State } from '../state.js';
import { afterPaint, boxWidth, type Ctx, commitOptions, select, short } from './ctx.js';
import { headlineMetric, overviewAxis } from './headline.js';
import { shownLines, shownSentence } from './shown-lines.js';

/** A metric's value with its 95% interval (of the median, from the samples), for a sweep point. */
function withInterval(b: Benchmark | undefined, metric: string) {
  const m = b?.metrics[metric];
  if (!m) return { v: null, lo: null, hi: null };
  const ci = m.samples && m.samples.length > 1 ? medianInterval(m.samples) : undefined;
  return { v: m.value, lo: ci?.low ?? null, hi: ci?.high ?? null };
}

/**
 * The commit to draw: the one the URL names, else the experiment's newest, or the newest complete
 * run before it when that one is partial (a narrowed dispatch never becomes the default view).
 */
async function pick(
  ctx: Ctx,
  recent: readonly WindowCommit[],
  sha: string,
): Promise<[WindowCommit, RunFile] | undefined> {
  const first = await ctx.profile.find(sha);
  if (!first) return undefined;
  const run = await ctx.store.run(ctx.machine, first);
  if (!run.run.partial || ctx.state.commit) return [first, run];
  for (const c of [...recent]
    .reverse()
    .filter((x) => x.date < first.date)
    .slice(0, 10)) {
    const r = await ctx.store.run(ctx.machine, c);
    if (!r.run.partial) return [c, r];
  }
  return [first, run];
}

export async function sweeps(ctx: Ctx): Promise<void> {
  const charts = loadCharts();
  const catalog = ctx.profile.catalog;
  const experiments = Object.keys(catalog.experiments).sort();
  const experiment =
    ctx.state.experiment && experiments.includes(ctx.state.experiment) ? ctx.state.experiment : experiments[0];
  if (!experiment) {
    setHtml(ctx.el, html`<p class="notice">No runs yet.</p>`);
    return;
  }
  const recent = (await ctx.profile.commits(ctx.profile.recentWindows(ctx.state.older ?? 0))).filter((c) =>
    c.experiments.includes(experiment),
  );
  const picked = await pick(ctx, recent, ctx.state.commit ?? catalog.experiments[experiment]!.latest.sha);
  const vs = ctx.state.vs ? await ctx.profile.find(ctx.state.vs) : undefined;
  if (!picked) {
    setHtml(ctx.el, html`<p class="notice">No runs yet.</p>`);
    return;
  }
  const [commit, run] = picked;
  const options = [...recent];
  for (const c of [commit, vs]) if (c && !options.some((o) => o.sha === c.sha)) options.push(c);
  options.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const other = vs ? await ctx.store.run(ctx.machine, vs) : undefined;
  const info = run.experiments[experiment] ?? other?.experiments[experiment];
  const ok = run.benchmarks.filter((b) => b.experiment === experiment && b.status === 'ok');
  const metrics = [...new Set(ok.flatMap((b) => Object.keys(b.metrics)))].filter(trended).sort();
  const metric =
    ctx.state.metric && metrics.includes(ctx.state.metric)
      ? ctx.state.metric
      : headlineMetric(ctx.overview[experiment], metrics, ['throughput', 'wall_time']);
  const axis = sweptAxis(ctx, experiment, info, ok);
  const values = metric ? ok.map((b) => b.metrics[metric]?.value ?? null) : [];
  // The Overview's axes: log where lines are two orders of magnitude apart, unless the URL says.
  const log = ctx.state.log ?? wide(values);
  const label = (m: string) => ctx.label(experiment, m);
  const host = showControls(ctx, { experiments, experiment, metrics, metric, label, options, commit, vs, log });
  if (!axis || !metric || !info) {
    setHtml(host, html`<p class="notice">This experiment has no numeric parameter to sweep.</p>`);
    return;
  }
  const refs = ((ctx.overview[experiment] as { references?: { variant: string }[] } | undefined)?.references ?? []).map(
    (r) => r.variant,
  );
  await charts;
  await drawSweeps(host, { experiment, info, ok, axis, metric, commit, other, log, label, refs });
}

/** The swept parameter: the Overview's, else the numeric one with the most distinct values. */
function sweptAxis(
  ctx: Ctx,
  experiment: string,
  info: ExperimentInfo | undefined,
  ok: readonly Benchmark[],
): string | undefined {
  const params = Object.keys(info?.parameters ?? {}).filter((p) => ok.some((b) => typeof b.params[p] === 'number'));
  const distinct = (p: string) => new Set(ok.filter((x) => p in x.params).map((x) => x.params[p])).size;
  const preferred = overviewAxis(ctx.overview[experiment]);
  return preferred && params.includes(preferred) ? preferred : params.sort((a, b) => distinct(b) - distinct(a))[0];
}

/** The controls a sweep is chosen with; returns the element its charts go in. */
function showControls(
  ctx: Ctx,
  c: {
    experiments: string[];
    experiment: string;
    metrics: string[];
    metric: string | undefined;
    label: (m: string) => string;
    options: WindowCommit[];
    commit: WindowCommit;
    vs: WindowCommit | undefined;
    log: boolean;
  },
): HTMLElement {
  const { experiments, experiment, metrics, metric, label, options, commit, vs, log } = c;
  setHtml(
    ctx.el,
    html`<div class="controls"><label>experiment ${select('exp', experiments, experiment)}</label>
      <label>metric ${select('metric', metrics, metric, label)}</label>
      <label>commit <select id="commit">${commitOptions(options, commit.sha)}</select></label>
      <label>overlay <select id="vs"><option value="">(none)</option>${commitOptions(options, vs?.sha)}</select></label>
      <label><input type="checkbox" id="log"${log ? html` checked` : ''}> log scale</label></div>
      <p class="muted">Whiskers: the 95% interval of each median from its samples (the samples’ range below 6 samples); the overlaid commit is dashed.</p><div id="sweeps"></div>`,
  );
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
  return ctx.el.querySelector<HTMLElement>('#sweeps')!;
}

/** What a sweep draws: the chosen commit's measured benchmarks of one experiment, and the overlay's run. */
interface Sweep {
  experiment: string;
  /** The reference variants (C): drawn first, always. */
  refs: readonly string[];
  info: ExperimentInfo;
  ok: Benchmark[];
  axis: string;
  metric: string;
  commit: WindowCommit;
  other: RunFile | undefined;
  log: boolean;
  label: (m: string) => string;
}

/**
 * One chart per combination of the other parameters, one line per variant (dashed: the overlay's);
 * the first is drawn and painted before the others.
 */
async function drawSweeps(host: HTMLElement, sweep: Sweep): Promise<void> {
  const { info, ok, axis, metric, log, label } = sweep;
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
  let drawn = 0;
  for (const [key, list] of groups) {
    const unit = list[0]?.metrics[metric]?.unit ?? '';
    const { lines, caption } = sweepLines(sweep, { xs, key, groupKeys, list, unit });
    const box = document.createElement('div');
    box.className = 'chart';
    host.appendChild(box);
    xyChart(
      box,
      {
        title: `${label(metric)} against ${axis}${key ? ` · ${key}` : ''}`,
        param: axis,
        ...(unitOf ? { xUnit: unitOf } : {}),
        unit,
        logX: xs.every((x) => x > 0) && xs.length > 2 && xs.at(-1)! / xs[0]! >= 16,
        log,
        xs,
        lines,
        caption,
      },
      boxWidth(box),
    );
    if (++drawn === 1 && groups.size > 1) {
      await afterPaint();
      // Another view may have replaced this one meanwhile (a click during the frame).
      if (!host.isConnected) return;
    }
  }
}

/**
 * One sweep chart's lines: per variant the chosen commit's (and the overlay's, dashed), at most
 * MAX_SHOWN drawn by default (the references, then the best and the worst at the largest x), and
 * the sentence that says what is drawn.
 */
function sweepLines(
  { experiment, axis, metric, commit, other, refs }: Sweep,
  g: { xs: number[]; key: string; groupKeys: string[]; list: Benchmark[]; unit: string },
) {
  const { xs, key, groupKeys, list, unit } = g;
  const fixed = [axis, ...groupKeys];
  const isRef = (name: string) => refs.some((r) => name === r || name.startsWith(`${r} `));
  const lineIds = [...new Set(list.map((b) => lineLabel(b.variant, b.params, fixed)))]
    .sort()
    .sort((a, b) => Number(isRef(b)) - Number(isRef(a)));
  const inGroup = (b: Benchmark) =>
    groupKeys.every((k) => `${k}=${b.params[k]}` === key.split(' ').find((p) => p.startsWith(`${k}=`)));
  // Each list's benchmarks by line once (the first of each line and x, as a search in order finds),
  // not searched again for every line and x: a run of hundreds of points would make that quadratic.
  const indexed = new Map<Benchmark[], Map<string, { flat?: Benchmark; at: Map<number, Benchmark> }>>();
  const byLine = (bs: Benchmark[]) => {
    let index = indexed.get(bs);
    if (!index) {
      index = new Map();
      for (const b of bs) {
        if (!inGroup(b)) continue;
        const name = lineLabel(b.variant, b.params, fixed);
        const entry = index.get(name) ?? { at: new Map<number, Benchmark>() };
        index.set(name, entry);
        const x = b.params[axis];
        if (!(axis in b.params)) entry.flat ??= b;
        else if (typeof x === 'number' && !entry.at.has(x)) entry.at.set(x, b);
      }
      indexed.set(bs, index);
    }
    return index;
  };
  const pointsFor = (bs: Benchmark[], name: string) => {
    const line = byLine(bs).get(name);
    // A variant that does not take the swept parameter is one value: drawn flat across the axis.
    return xs.map((x) => withInterval(line?.at.get(x) ?? line?.flat, metric));
  };
  const direction = list.find((b) => b.metrics[metric])?.metrics[metric]?.direction ?? 'smaller';
  const candidates = lineIds.map((name) => ({
    label: name,
    values: pointsFor(list, name).map((p) => p.v),
    direction,
    reference: isRef(name),
    changed: false,
  }));
  // At most MAX_SHOWN lines drawn by default (an overlaid commit doubles each): the rest in the legend.
  const shown = shownLines(candidates, Math.floor(MAX_SHOWN / (other ? 2 : 1)));
  const lineOf = (name: string, bs: Benchmark[], sha: string, i: number, dashed: boolean) => {
    const pts = pointsFor(bs, name);
    return {
      label: `${name} @${short(sha)}`,
      values: pts.map((p) => p.v),
      low: pts.map((p) => p.lo),
      high: pts.map((p) => p.hi),
      colorIndex: i,
      dashed,
      ...(shown[i] ? {} : { hidden: true }),
    };
  };
  const lines = lineIds.map((name, i) => lineOf(name, list, commit.sha, i, false));
  if (other) {
    const otherOk = other.benchmarks.filter((b) => b.experiment === experiment && b.status === 'ok');
    lineIds.forEach((name, i) => {
      lines.push(lineOf(name, otherOk, other.run.commit.sha, i, true));
    });
  }
  const caption = shownSentence(candidates, shown, unit, `at each line's largest ${axis} (@${short(commit.sha)})`);
  return { lines, caption };
}
