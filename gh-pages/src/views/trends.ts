/**
 * Trends: one chart per metric and parameter point, one line per variant (and runtime version)
 * across commits; opens on the experiment's headline metric. Below a timing's charts, the
 * experiment's counted work (instructions per operation, else per run) has charts of its own,
 * never an axis shared with a time. Charts are drawn as they scroll into view, and the detected
 * changes are listed below them after the first paint.
 */
import { countSteps } from '../../../harness/src/counts/count-steps.js';
import { programChanges } from '../../../harness/src/formats/parts/store-layout.js';
import { detectChangePoints, MIN_SHIFT } from '../change-detection.js';
import { loadCharts, trendChart, wide } from '../charts.js';
import { type Profile, type TrendChartSpec, trendCharts, type WindowCommit } from '../data.js';
import { type Html, html, setHtml } from '../html.js';
import { toHash } from '../state.js';
import { countChartNote, countLabel, countMetric, factNote, isCountMetric } from './count-trend.js';
import { afterPaint, boxWidth, type Ctx, select } from './ctx.js';
import { headlineMetric } from './headline.js';
import { plural } from './machine-line.js';
import { shownLines, shownSentence } from './shown-lines.js';
import { changeItems, chartChanges, type TrendLine } from './trend-changes.js';
import { markList, marksAt, type PlacedMark } from './trend-marks.js';

export async function trends(ctx: Ctx): Promise<void> {
  const charts = loadCharts();
  const catalog = ctx.profile.catalog;
  const experiments = Object.keys(catalog.experiments).sort();
  const experiment =
    ctx.state.experiment && experiments.includes(ctx.state.experiment) ? ctx.state.experiment : experiments[0];
  if (!experiment) {
    setHtml(ctx.el, html`<p class="notice">No experiment has been published for this machine yet.</p>`);
    return;
  }
  const metrics = Object.keys(catalog.experiments[experiment]!.metrics).sort();
  const metric =
    ctx.state.metric && metrics.includes(ctx.state.metric)
      ? ctx.state.metric
      : headlineMetric(ctx.overview[experiment], metrics);
  const older = ctx.state.older ?? 0;
  const windows = ctx.profile.recentWindows(older);
  const hasOlder = windows.length < ctx.profile.windows.length;
  // Counted work beside a timing, on charts of its own (a work metric chosen above is drawn alone),
  // fetched beside the timing's data but drawn after its first charts: they are what the view opens on.
  const work = metric && !isCountMetric(metric) ? countMetric(metrics) : undefined;
  const workTrend = work ? ctx.profile.trend(experiment, work, windows) : undefined;
  const [trend, noise, marks] = await Promise.all([
    metric ? ctx.profile.trend(experiment, metric, windows) : Promise.resolve(undefined),
    ctx.store.noise(ctx.machine),
    ctx.store.marks(ctx.machine),
    charts,
  ]);
  const commits = trend?.commits ?? [];
  const span = commits.length ? `${commits[0]!.date.slice(0, 10)} … ${commits.at(-1)!.date.slice(0, 10)}` : '';
  const label = (m: string) => ctx.label(experiment, m);
  showControls(ctx, { experiments, experiment, metrics, metric, label, older, hasOlder, commits, span, work });
  if (!metric || !trend) return;
  const chartsEl = ctx.el.querySelector<HTMLElement>('#charts')!;
  const changesEl = ctx.el.querySelector<HTMLElement>('#changes')!;
  const observer = drawWhenVisible();
  const placed = marksAt(marks, trend.commits);
  setHtml(ctx.el.querySelector<HTMLElement>('#marks')!, markList(ctx, placed, trend.commits));
  const listers = drawCharts(ctx, chartsEl, { experiment, metric, trend, noise, label, marks: placed }, observer);
  const scrollToLinked = () =>
    ctx.state.chart &&
    ctx.el.querySelector<HTMLElement>(`.chart[data-key="${CSS.escape(ctx.state.chart)}"]`)?.scrollIntoView();
  scrollToLinked();
  await drawNearViewport(chartsEl, observer);
  const section = ctx.el.querySelector<HTMLElement>('.work-trends');
  const counted = await workTrend;
  if (section?.isConnected && work && counted && Object.keys(counted.series).length) {
    const workEl = section.querySelector<HTMLElement>('#work-charts')!;
    const workMarks = marksAt(marks, counted.commits);
    listers.push(
      ...drawCharts(
        ctx,
        workEl,
        { experiment, metric: work, trend: counted, noise, label, marks: workMarks },
        observer,
      ),
    );
    if (ctx.state.chart?.startsWith(`${work}|`)) scrollToLinked();
  } else section?.remove();
  await afterPaint();
  const items = listers.flatMap((list) => list());
  setHtml(
    changesEl,
    items.length
      ? html`${items.sort((x, y) => y.index - x.index).map((c) => c.html)}`
      : html`<li class="muted">No change points detected.</li>`,
  );
}

/** The controls a trend is chosen with, and the empty chart and change-list containers. */
function showControls(
  ctx: Ctx,
  c: {
    experiments: string[];
    experiment: string;
    metrics: string[];
    metric: string | undefined;
    label: (m: string) => string;
    older: number;
    hasOlder: boolean;
    commits: WindowCommit[];
    span: string;
    /** The counted-work metric drawn below the timing, when there is one. */
    work: string | undefined;
  },
): void {
  const { experiments, experiment, metrics, metric, label, older, hasOlder, commits, span, work } = c;
  setHtml(
    ctx.el,
    html`<div class="controls"><label>experiment ${select('exp', experiments, experiment)}</label>
      <label>metric ${select('metric', metrics, metric, label)}</label>
      <label><input type="checkbox" id="log"${ctx.state.log ? html` checked` : ''}> log scale</label>
      <span class="muted">${plural(commits.length, 'commit')} (${span})</span>
      ${hasOlder ? html`<button id="older" type="button">load older commits</button>` : ''}
      <span class="muted">drag to zoom, double-click to reset</span></div>
      ${commits.length < 2 ? html`<p class="notice">Only one commit so far: trends need at least two. The points are shown; lines appear from the next run on.</p>` : ''}
      <div id="charts"></div>${
        work
          ? html`<section class="work-trends"><h3>Counted work: ${label(work)}</h3><p class="muted">Its own charts, never on a time's axis: exact counts of user-space instructions under each runtime's deterministic settings (kernel work is not in them). Lines marked <i>evidence only</i> or <i>not deterministic</i> are no trend to act on.</p><div id="work-charts"></div></section>`
          : ''
      }<section class="card"><h3>Marked commits</h3><p class="muted">Numbers moved here for a known reason that is not the programs' performance; drawn on the charts as dotted orange lines.</p><ul id="marks"></ul></section><section class="card"><h3>Detected changes</h3><p class="muted">×after/before of the medians; worse or better by the metric's direction.</p><ul id="changes"></ul></section>`,
  );
  ctx.el.querySelector<HTMLSelectElement>('#exp')!.onchange = (e) =>
    ctx.go({ experiment: (e.target as HTMLSelectElement).value, metric: undefined, chart: undefined });
  ctx.el.querySelector<HTMLSelectElement>('#metric')!.onchange = (e) =>
    ctx.go({ metric: (e.target as HTMLSelectElement).value, chart: undefined });
  ctx.el.querySelector<HTMLInputElement>('#log')!.onchange = (e) =>
    ctx.go({ log: (e.target as HTMLInputElement).checked });
  const more = ctx.el.querySelector<HTMLButtonElement>('#older');
  if (more) more.onclick = () => ctx.go({ older: older + 1 });
}

type Trend = Awaited<ReturnType<Profile['trend']>>;

/** A chart box: `draw` is there until the box has been drawn. */
type ChartBox = HTMLDivElement & { draw?: () => void };

/**
 * One chart box per parameter point, each drawn when `observer` sees it come into view (years of
 * data stay fast); returns, per chart, what lists its detected changes. Counted work's steps are
 * exact (counts/count-steps.ts); a timing's are change points against its noise.
 */
function drawCharts(
  ctx: Ctx,
  chartsEl: HTMLElement,
  {
    experiment,
    metric,
    trend,
    noise,
    label,
    marks: placed,
  }: {
    experiment: string;
    metric: string;
    trend: Trend;
    noise: Record<string, number>;
    label: (m: string) => string;
    marks: readonly PlacedMark[];
  },
  observer: IntersectionObserver,
): (() => { index: number; html: Html }[])[] {
  const commits = trend.commits;
  const charts = trendCharts(trend.series, metric);
  const work = isCountMetric(metric);
  const pointKeys = new Set(charts.flatMap((c) => Object.keys(c.point)));
  const state = { view: 'trends' as const, machine: ctx.machine, profile: ctx.profile.profile, experiment, metric };
  // Each chart's change points are found when it is drawn or when the list below is filled
  // (after the first paint), not all before the first chart.
  const listers: (() => { index: number; html: Html }[])[] = [];
  const refs = referenceVariants(ctx.overview[experiment]);
  let chartWidth: number | undefined;
  for (const chart of charts) {
    const box: ChartBox = document.createElement('div');
    box.className = `chart${ctx.state.chart === chart.key ? ' highlight' : ''}`;
    box.dataset.key = chart.key;
    box.style.minHeight = '300px';
    const pointText = `${work ? `${label(metric)} · ` : ''}${pointTextOf(chart, pointKeys)}`;
    const lines = chartLines(trend, chart, work);
    let found: ReturnType<typeof chartChanges> | undefined;
    const marks = () => {
      found ??= chartChanges(lines, (l) =>
        work
          ? countSteps(l.values, l.counts)
          : detectChangePoints(l.values, Math.max(MIN_SHIFT, noise[`${l.id} ${metric}`] ?? 0)),
      );
      return found;
    };
    const link = toHash({ ...state, chart: chart.key, ...(ctx.state.log ? { log: true } : {}) });
    listers.push(() => changeItems(ctx, marks(), lines, commits, link, pointText));
    const a = permalink(link);
    box.draw = () => {
      box.draw = undefined;
      const { changes, programs } = marks();
      drawTrend(box, {
        ctx,
        title: work ? pointText : `${label(metric)} · ${pointText}`,
        commits,
        lines,
        changes: [...changes, ...programs],
        marks: placed,
        refs,
        width: chartWidth ?? boxWidth(box),
        work,
      });
      box.appendChild(a);
      box.style.minHeight = '';
    };
    chartsEl.appendChild(box);
    // Measured once, on the first box: reading it in every draw forced a layout per chart.
    chartWidth ??= boxWidth(box);
    observer.observe(box);
  }
  return listers;
}

/**
 * Draws the boxes the observer's first report would draw (those within NEAR of the viewport, as
 * laid out before any is drawn), without waiting for it: it reports only with the next frame.
 * The first the viewport shows is drawn and painted before the others.
 */
async function drawNearViewport(chartsEl: HTMLElement, observer: IntersectionObserver): Promise<void> {
  // All rectangles first: each drawing changes the layout, reading one after it would redo it.
  const rects = ([...chartsEl.children] as ChartBox[]).map((box) => ({ box, r: box.getBoundingClientRect() }));
  const near = rects.filter(({ r }) => r.top <= innerHeight + NEAR && r.bottom >= -NEAR);
  for (const { box } of near) observer.unobserve(box);
  const first = near.find(({ r }) => r.bottom > 0 && r.top < innerHeight) ?? near[0];
  first?.box.draw?.();
  if (near.length > 1) await afterPaint();
  for (const { box } of near) box.draw?.();
}

/** The experiment's reference variants (C), from its Overview picture: always drawn. */
function referenceVariants(overview: unknown): string[] {
  return ((overview as { references?: { variant: string }[] } | undefined)?.references ?? []).map((r) => r.variant);
}

/**
 * Draws one trend chart: the references, the lines that changed and the ends at the newest commit
 * (at most MAX_SHOWN), the rest in the legend, and under it what is drawn with its newest values.
 */
function drawTrend(
  box: HTMLElement,
  t: {
    ctx: Ctx;
    title: string;
    commits: WindowCommit[];
    lines: ReturnType<typeof chartLines>;
    changes: { line: number; index: number; kind: 'perf' | 'program' }[];
    marks: readonly PlacedMark[];
    refs: readonly string[];
    width: number;
    /** Counted work: a log axis where its lines are far apart, and what its counts were said under it. */
    work: boolean;
  },
): void {
  const candidates = t.lines.map((l, i) => ({
    ...l,
    reference: t.refs.includes(l.variant),
    // A step, not a program change alone: a new runtime version marks every line of its runtime.
    changed: t.changes.some((c) => c.line === i && c.kind === 'perf'),
  }));
  const shown = shownLines(candidates);
  const unit = t.lines[0]?.unit ?? '';
  trendChart(
    box,
    {
      title: t.title,
      unit,
      // Counts of C and of a JIT runtime are orders of magnitude apart: one linear axis flattens C.
      log: Boolean(t.ctx.state.log) || (t.work && wide(t.lines.flatMap((l) => l.values))),
      commits: t.commits,
      lines: t.lines.map((l, i) => (shown[i] ? l : { ...l, hidden: true })),
      changes: t.changes,
      marks: t.marks,
      commitUrl: t.ctx.commitUrl,
    },
    t.width,
  );
  const said = document.createElement('p');
  said.className = 'muted legend-hint';
  said.textContent = shownSentence(candidates, shown, unit);
  box.appendChild(said);
  if (t.work) {
    const note = document.createElement('p');
    note.className = 'muted work-note';
    note.textContent = countChartNote(t.lines.map((l) => ({ label: l.name, counts: l.counts })));
    box.appendChild(note);
  }
}

/** How near the viewport a chart box is drawn (pixels beyond its edges). */
const NEAR = 400;

/** An observer that draws each chart box it observes once it comes near the viewport. */
function drawWhenVisible(): IntersectionObserver {
  // Draw charts as they scroll into view: years of data stay fast.
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        (entry.target as ChartBox).draw?.();
      }
    },
    { rootMargin: `${NEAR}px` },
  );
  return observer;
}

/** A chart's parameter point, as its title says it. */
function pointTextOf(chart: TrendChartSpec, pointKeys: ReadonlySet<string>): string {
  // A chart of variants that do not take a parameter the others do (Bun: no pool size) says so.
  return [
    ...Object.entries(chart.point).map(([k, v]) => `${k}=${v}`),
    ...[...pointKeys].filter((k) => !(k in chart.point)).map((k) => `${k} n/a`),
  ].join(' ');
}

/**
 * A chart's lines: each series' values, ranges and where its program changed; counted work also
 * its facts per commit, its label marked when its newest count is no figure to act on, and a
 * note per commit for the tooltip.
 */
function chartLines(trend: Trend, chart: TrendChartSpec, work: boolean) {
  return chart.lines.map((l) => {
    const s = trend.series[l.key]!;
    return {
      id: s.id,
      variant: s.variant,
      label: work ? countLabel(l.label, s.counts) : l.label,
      name: l.label,
      values: s.values,
      ranges: s.ranges,
      unit: s.unit,
      direction: s.direction,
      programChanged: programChanges(s.programs),
      counts: s.counts,
      ...(work && s.counts ? { notes: s.counts.map(factNote) } : {}),
    } satisfies TrendLine & Record<string, unknown>;
  });
}

function permalink(link: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.className = 'permalink';
  a.href = link;
  a.textContent = 'permalink to this chart';
  return a;
}
