/**
 * The views, one entry each: the name its URL and its tab carry, whether it draws charts, the data
 * files the preloader asks for before its first chart, the function that renders it and the URL
 * the site's benchmark lands on it with. Everything
 * that names a view reads it here (the page's routing and tabs in main.ts, the preloader in
 * ../preload-files.ts, the site's benchmark in harness/src/site/perf.ts): a new view is one file
 * under views/ and one entry here. The renderer is
 * imported when first shown: the preloader reads this table too and must carry no view's code (its
 * bundle leaves dynamic imports out: harness/src/site/bundle.ts).
 */
import type { PreloadPlan } from '../../../harness/src/model/preload-plan.js';
import { countMetric, isCountMetric } from '../count-metric.js';
import { type Html, html } from '../html.js';
import { parseHash, type State, toHash } from '../state.js';
import type { View } from './ctx.js';

/** What a view's preload rule is given: the plan, the URL's state, the recent windows' commit lists. */
interface PreloadAsk {
  plan: PreloadPlan;
  state: State;
  commits: string[];
}

export interface SiteView {
  /** The URL's path (#/trends) and the tab's text. */
  name: string;
  /** It draws charts: the page starts evaluating uPlot as soon as the URL names it. */
  charts: boolean;
  /** The data files it surely reads first, beyond machines.json and the catalog every view reads. */
  preload: (ask: PreloadAsk) => string[];
  render: () => Promise<View>;
  /**
   * A view a visitor lands on: the URL query the site's benchmark opens it with on its synthetic
   * store (harness/src/site/perf.ts holds its first view to the limits). Absent: not measured.
   */
  landing?: string;
}

const BUILT_IN: readonly SiteView[] = [
  {
    name: 'overview',
    charts: true,
    preload: ({ plan, state, commits }) => [...commits, ...(state.commit ? [] : plan.runs)],
    render: () => import('./overview.js').then((m) => m.overview),
    landing: '',
  },
  {
    name: 'trends',
    charts: true,
    preload: ({ plan, state, commits }) => [...commits, plan.noise, plan.marks, ...trendShards(plan, state)],
    render: () => import('./trends.js').then((m) => m.trends),
    landing: 'machine=perf-machine&experiment=wc&metric=wall_time',
  },
  {
    name: 'sweeps',
    charts: true,
    preload: ({ plan, state, commits }) => [...commits, ...(state.commit ? [] : sweptRun(plan, state))],
    render: () => import('./sweeps.js').then((m) => m.sweeps),
    landing: 'machine=perf-machine&experiment=wc',
  },
  {
    name: 'compare',
    charts: false,
    preload: ({ plan, state, commits }) => [...commits, plan.noise, ...(state.base || state.head ? [] : plan.compare)],
    render: () => import('./compare.js').then((m) => m.compare),
    landing: 'machine=perf-machine',
  },
  {
    name: 'regressions',
    charts: false,
    preload: ({ plan }) => [plan.regressions],
    render: () => import('./regressions.js').then((m) => m.regressions),
    landing: 'machine=perf-machine',
  },
  {
    name: 'runtimes',
    charts: false,
    preload: () => [],
    render: () => import('./runtimes.js').then((m) => m.runtimes),
    // Its data grows with releases, not with commits, and the benchmark's store has none.
  },
];

/** Views added at run time (registerView): after the built-in ones, in the order added. */
const added: SiteView[] = [];

/** Every view, in tab order; the first is the one an unknown or empty URL opens. */
export const siteViews = (): readonly SiteView[] => [...BUILT_IN, ...added];

/** The state a URL hash holds and the view it names: the first view when it names none. */
export function route(hash: string): { state: State; view: SiteView } {
  const views = siteViews();
  const state = parseHash(
    hash,
    views.map((v) => v.name),
  );
  return { state, view: views.find((v) => v.name === state.view)! };
}

/**
 * Adds a view beside the built-in ones (a test's), and returns the function that removes it
 * again. Names are lower-case words and never repeat.
 */
export function registerView(view: SiteView): () => void {
  if (!/^[a-z][a-z-]*$/.test(view.name)) throw new Error(`view "${view.name}": expected a lower-case word`);
  if (siteViews().some((v) => v.name === view.name)) throw new Error(`view "${view.name}" is already defined`);
  added.push(view);
  return () => {
    const i = added.indexOf(view);
    if (i >= 0) added.splice(i, 1);
  };
}

/** The tabs, one per view, the one shown marked; each keeps the machine, workload and experiment. */
export function viewTabs(state: State, machine: string, profile: string | undefined): Html {
  const href = (view: string) =>
    toHash({
      view,
      machine,
      ...(profile ? { profile } : {}),
      ...(state.experiment ? { experiment: state.experiment } : {}),
    });
  return html`<span class="tabs">${siteViews().map(({ name }) => html`<a class="tab${name === state.view ? ' active' : ''}" href="${href(name)}">${name}</a>`)}</span>`;
}

/**
 * The shards of the experiment and metric a Trends link names (the view picks its own otherwise),
 * and of the counted work the view draws below a timing.
 */
function trendShards(plan: PreloadPlan, s: State): string[] {
  const { experiment: e, metric: m } = s;
  const metrics = e && Object.hasOwn(plan.shards, e) ? plan.shards[e] : undefined;
  if (!metrics || !m || !Object.hasOwn(metrics, m)) return [];
  const counted = isCountMetric(m) ? undefined : countMetric(Object.keys(metrics));
  return [m, ...(counted ? [counted] : [])].flatMap((metric) =>
    metrics[metric]!.map((i) => `${plan.windows[i]}${e}/${metric}.json`),
  );
}

/** The newest run of the experiment Sweeps opens on: the one the link names, else the first. */
function sweptRun(plan: PreloadPlan, s: State): string[] {
  const named = plan.latest.find(([id]) => id === s.experiment);
  const run = (named ?? plan.latest[0])?.[1];
  return run ? [run] : [];
}

export type { Ctx } from './ctx.js';
