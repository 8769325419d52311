// A site view is one entry of gh-pages/src/views/index.ts: a view added there alone is routed to
// by its URL, has its tab, has the preloader ask for its files, is drawn by its own renderer, and
// is measured by the site's benchmark as a first view.
// The preloader, which reads the same table, carries no view's code; the app carries every view's.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreloadPlan } from '../../harness/src/model/preload-plan.js';
import { bundleApp, bundlePreloader, loadViewTable } from '../../harness/src/site/bundle.js';
import { firstViews, overLimits } from '../../harness/src/site/perf.js';
import { preloadFiles } from '../src/preload-files.js';
import { toHash } from '../src/state.js';
import type { Ctx } from '../src/views/ctx.js';
import { registerView, route, type SiteView, siteViews, viewTabs } from '../src/views/index.js';

const plan: PreloadPlan = {
  machine: 'm',
  profile: 'standard',
  machines: 'data/machines.json',
  catalog: 'data/m/trends/standard/catalog.json',
  noise: 'data/m/noise.json',
  marks: 'data/m/marks.json',
  regressions: 'data/m/trends/standard/regressions.json',
  windows: ['data/m/trends/standard/0004/'],
  runs: [],
  latest: [],
  compare: [],
  shards: {},
};

const drawn: string[] = [];
const FAKE: SiteView = {
  name: 'fake-view',
  charts: true,
  preload: ({ plan: p, state, commits }) => [...commits, `${p.noise}?${state.experiment ?? 'none'}`],
  render: async () => async (ctx) => {
    drawn.push(ctx.state.view);
  },
  landing: 'machine=perf-machine&experiment=wc',
};

it("the site's benchmark reads the view table from the site's sources, as the page has it", async () => {
  const table = await loadViewTable(join(import.meta.dirname, '..'));
  expect(table).toEqual(
    siteViews().map(({ name, charts, landing }) => ({ name, charts, ...(landing === undefined ? {} : { landing }) })),
  );
  expect(Object.keys(firstViews(table))).toEqual(['overview', 'trends', 'sweeps', 'compare', 'regressions']);
});

describe('a view registered at run time', () => {
  let unregister: () => void;
  beforeAll(() => {
    unregister = registerView(FAKE);
  });
  afterAll(() => unregister());

  it('is routed to by its URL, which round-trips', () => {
    const { state, view } = route('#/fake-view?machine=m&experiment=wc');
    expect(state).toEqual({ view: 'fake-view', machine: 'm', experiment: 'wc' });
    expect(view).toBe(FAKE);
    expect(route(toHash(state)).state).toEqual(state);
  });

  it('has its tab, after the built-in ones, marked when shown, keeping the machine, workload and experiment', () => {
    const tabs = viewTabs({ view: 'fake-view', experiment: 'wc' }, 'm', 'standard').markup;
    const links = [...tabs.matchAll(/<a class="tab( active)?" href="([^"]*)">([^<]*)<\/a>/g)];
    expect(links.map((l) => l[3])).toEqual([
      ...siteViews()
        .slice(0, -1)
        .map((v) => v.name),
      'fake-view',
    ]);
    expect(links.filter((l) => l[1]).map((l) => l[3])).toEqual(['fake-view']);
    expect(links.at(-1)?.[2]).toBe('#/fake-view?machine=m&#38;profile=standard&#38;experiment=wc');
  });

  it('has the preloader ask for the files its rule names, after the ones every view reads', () => {
    expect(preloadFiles(plan, '#/fake-view?experiment=wc')).toEqual([
      plan.machines,
      plan.catalog,
      'data/m/trends/standard/0004/commits.json',
      'data/m/noise.json?wc',
    ]);
    // Another machine's page: machines.json alone, as for every view.
    expect(preloadFiles(plan, '#/fake-view?machine=other')).toEqual([plan.machines]);
  });

  it('is drawn by its own renderer', async () => {
    const { state, view } = route('#/fake-view');
    // What main.ts does with the route: uPlot first for a view that draws charts, then its renderer.
    expect(view.charts).toBe(true);
    await (await view.render())({ state } as Ctx);
    expect(drawn).toEqual(['fake-view']);
  });

  it("is a first view of the site's benchmark, opened at its landing URL and held to the limits", () => {
    expect(firstViews(siteViews())['fake-view']).toEqual([
      '#/fake-view?machine=perf-machine&experiment=wc',
      '.chart canvas, .picture canvas',
    ]);
    const r = { first_views: Object.keys(firstViews(siteViews())).join(' '), 'fake-view_bytes': 400_000 };
    expect(overLimits(r, { times: false })).toEqual(['fake-view: 400000 bytes > 300000']);
  });

  it('is known only while registered, and no name is taken twice', () => {
    expect(() => registerView({ ...FAKE })).toThrow('view "fake-view" is already defined');
    expect(() => registerView({ ...FAKE, name: 'Fake' })).toThrow('expected a lower-case word');
    unregister();
    expect(route('#/fake-view').view.name).toBe('overview');
    expect(viewTabs({ view: 'overview' }, 'm', undefined).markup).not.toContain('fake-view');
    // Runtimes has no landing: its data grows with releases, and the benchmark's store has none.
    expect(Object.keys(firstViews(siteViews()))).toEqual(['overview', 'trends', 'sweeps', 'compare', 'regressions']);
    unregister = registerView(FAKE);
  });
});

describe('the built-in views in the bundles', () => {
  const src = join(import.meta.dirname, '..');
  it("the preloader holds every view's preload rule and no view's renderer; the app holds every renderer", async () => {
    const [preloader, app] = await Promise.all([bundlePreloader(src), bundleApp(src)]);
    // Text only a renderer writes (the Runtimes view's notice, Compare's heading).
    for (const text of ['No runtime release has been measured', 'Compare needs two commits']) {
      expect(app.js).toContain(text);
      expect(preloader).not.toContain(text);
    }
    for (const { name } of siteViews()) expect(preloader).toContain(`"${name}"`);
  });
});
