/**
 * Overview: per experiment, the picture that answers its question, from one commit: the one the
 * URL names (`?commit=`), else the newest complete run (a partial run, a narrowed or failed
 * dispatch, never replaces a complete one as the default). An experiment the commit did not run
 * is taken from the newest complete run that has it, and says so.
 */

import { countingSentence } from '../../../harness/src/counts/counting-text.js';
import type { Results } from '../../../harness/src/formats/results-format.js';
import { compareText } from '../../../harness/src/lib/compare-text.js';
import { experimentSummary } from '../../../harness/src/report/summary-model.js';
import { loadCharts } from '../charts.js';
import type { RunFile, WindowCommit } from '../data.js';
import { appendHtml, html, setHtml } from '../html.js';
import { toHash } from '../state.js';
import { afterPaint, type Ctx, commitLink, commitOptions, viewOfRun } from './ctx.js';
import { coldReadNote, machineLine } from './machine-line.js';
import { overviewCharts } from './overview-charts.js';
import { countsHtml } from './overview-counts.js';
import { problemsHtml, summaryHtml } from './summary-html.js';

/** How far back a complete run is looked for behind partial ones. */
const LOOK_BACK = 10;

/**
 * The runs to draw: the named commit's, or each experiment's newest (the catalog names them, so
 * the landing view needs no commit list first); behind a partial run, the newest complete one.
 */
async function pick(ctx: Ctx, commits: Promise<WindowCommit[]>) {
  const run = (c: Pick<WindowCommit, 'file'>) => ctx.store.run(ctx.machine, c);
  const named = ctx.state.commit ? await ctx.profile.find(ctx.state.commit) : undefined;
  if (named) {
    const shown = await run(named);
    return { named, shown, files: [shown] };
  }
  const latest = [...new Set(Object.values(ctx.profile.catalog.experiments).map((e) => e.latest))];
  const files = (
    await Promise.all(
      latest.map(async (m) => {
        const at = await ctx.profile.runAt(m);
        return at ? run(at) : undefined;
      }),
    )
  ).filter((r): r is RunFile => r !== undefined);
  files.sort((a, b) => (a.run.commit.date < b.run.commit.date ? 1 : -1));
  if (!files.some((r) => !r.run.partial))
    for (const c of [...(await commits)].reverse().slice(0, LOOK_BACK)) {
      if (files.some((r) => r.run.commit.sha === c.sha)) continue;
      const r = await run(c);
      files.push(r);
      if (!r.run.partial) break;
    }
  return { named, shown: files.find((r) => !r.run.partial) ?? files[0], files };
}

export async function overview(ctx: Ctx): Promise<void> {
  const charts = loadCharts();
  const list = ctx.profile.commits(ctx.profile.recentWindows(0));
  const [{ named, shown, files }, commits] = await Promise.all([pick(ctx, list), list]);
  if (!shown) {
    setHtml(ctx.el, html`<p class="notice">This machine has no runs of this profile yet.</p>`);
    return;
  }
  const complete = files.filter((r) => !r.run.partial);
  const m = shown.run.machine;
  const options = named && !commits.some((c) => c.sha === named.sha) ? [...commits, named] : commits;
  setHtml(
    ctx.el,
    html`<div class="controls"><label>commit <select id="commit">${commitOptions(options, shown.run.commit.sha)}</select></label></div>
      <section class="card"><h2>${named ? 'Run' : 'Latest complete run'}</h2><p>Commit ${commitLink(ctx, shown.run.commit.sha)} “${shown.run.commit.subject}”, ${shown.run.commit.date.slice(0, 16).replace('T', ' ')} UTC · profile <b>${shown.run.profile}</b>${shown.run.partial ? html` · <b class="bad">partial run</b>` : ''}</p>
      <p class="muted machine">${machineLine(m, shown.run.conditions)}</p>
      <p class="muted">${Object.entries(shown.run.toolchains)
        .map(([k, v]) => `${k} ${v}`)
        .join(
          ' · ',
        )}</p>${shown.run.counting ? html`<p class="muted counting">${countingSentence(shown.run.counting)}</p>` : ''}${newerPartial(ctx, files, shown)}</section>`,
  );
  ctx.el.querySelector<HTMLSelectElement>('#commit')!.onchange = (e) =>
    ctx.go({ commit: (e.target as HTMLSelectElement).value });
  // The manifests' overview order (wc first), then by id.
  const rank = (id: string) => (ctx.overview[id] as { order?: number } | undefined)?.order ?? 1000;
  const ids = Object.keys(ctx.profile.catalog.experiments).sort((a, b) => rank(a) - rank(b) || compareText(a, b));
  // The first experiment's picture is drawn and painted before the other sections are built: it
  // is what a visitor sees first, and the rest (their tables and charts) is below it.
  let first = true;
  for (const id of ids) {
    // A run narrowed to some experiments still describes them all: it has one only if it measured it.
    const has = (r: RunFile) => Boolean(r.experiments[id]) && r.benchmarks.some((b) => b.experiment === id);
    const run = has(shown) ? shown : (complete.find(has) ?? files.find(has));
    if (!run) continue;
    const draw = section(ctx, id, run, run !== shown);
    if (!draw) continue;
    await charts;
    draw();
    if (first) {
      const controls = ctx.el.firstElementChild;
      await afterPaint();
      // Another view may have replaced this one meanwhile (a click during the frame).
      if (!controls?.isConnected) return;
    }
    first = false;
  }
  await charts;
}

function newerPartial(ctx: Ctx, files: readonly RunFile[], shown: RunFile) {
  const newer = files.find((r) => r.run.partial && r.run.commit.date > shown.run.commit.date);
  if (!newer) return '';
  const link = toHash({
    view: 'overview',
    machine: ctx.machine,
    profile: ctx.profile.profile,
    commit: newer.run.commit.sha,
  });
  return html`<p class="muted">A newer partial run (${newer.run.commit.sha.slice(0, 10)}) is not the default view: <a href="${link}">show it</a>.</p>`;
}

/** Builds an experiment's section; returns what draws its picture (undefined: it has none). */
function section(ctx: Ctx, id: string, run: RunFile, other: boolean): (() => void) | undefined {
  const info = run.experiments[id]!;
  const keys = Object.keys(ctx.profile.catalog.experiments[id]?.metrics ?? {}).sort((a, b) => b.length - a.length);
  const relabel = (text: string) =>
    keys.reduce(
      (t, k) => t.replace(new RegExp(`(^|[^\\w.])${k.replace('.', '\\.')}(?![\\w.])`, 'g'), `$1${ctx.label(id, k)}`),
      text,
    );
  const summary = experimentSummary(
    viewOfRun(id, info),
    run.benchmarks as unknown as Results['benchmarks'],
    (run.analyses ?? []) as never,
  );
  const el = document.createElement('section');
  el.className = 'card experiment';
  el.dataset.experiment = id;
  const at = other
    ? html`<p class="muted">From ${commitLink(ctx, run.run.commit.sha)} (${run.run.commit.date.slice(0, 10)}), the newest complete run with this experiment.</p>`
    : '';
  setHtml(
    el,
    html`<h2>${id}: ${info.title}</h2><p class="question">${info.question}</p>${at}<div class="picture"></div>`,
  );
  const picture = el.querySelector<HTMLElement>('.picture')!;
  // A cold-cache answer says what "cold" costs on the machine that gave it.
  const cold = run.benchmarks.some((b) => b.experiment === id && Object.values(b.params).includes('cold'));
  const note = cold ? html`<p class="muted cold-read">${coldReadNote(run.run.conditions)}</p>` : undefined;
  const drawn = overviewCharts(
    id,
    ctx.overview[id] ?? info.overview,
    info,
    run.benchmarks,
    picture,
    (m) => ctx.label(id, m),
    note,
  );
  if (note && !drawn) appendHtml(picture, note);
  // Counted work beside the time, at the headline point: what a run's counts say there.
  const work = countsHtml(id, info, run.benchmarks, (m) => ctx.label(id, m), ctx.overview[id] ?? info.overview);
  if (work) appendHtml(el, work);
  const rest = summaryHtml(summary, relabel);
  if (rest)
    appendHtml(
      el,
      html`<details class="tables"${drawn ? '' : html` open`}><summary>Tables: ${summary.at ?? 'this run'}</summary>${rest}</details>`,
    );
  const link = (view: 'trends' | 'sweeps') =>
    toHash({ view, machine: ctx.machine, profile: ctx.profile.profile, experiment: id });
  appendHtml(
    el,
    html`${problemsHtml(summary)}<p><a href="${link('trends')}">Trends</a> · <a href="${link('sweeps')}">Sweeps</a></p>`,
  );
  ctx.el.appendChild(el);
  return drawn;
}
