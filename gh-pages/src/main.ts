// The trend site: machine and workload (profile) selectors, its views (views/index.ts), and the whole view state in the URL hash.
import 'uplot/dist/uPlot.min.css';
import { defaultProfile, LEGACY_PROFILE, sortProfiles } from '../../harness/src/formats/parts/store-layout.js';
import { metricLabel } from '../../harness/src/report/metric-labels.js';
import { loadCharts } from './charts.js';
import { DataError, Profile, Store } from './data.js';
import { html, setHtml } from './html.js';
import { type State, toHash } from './state.js';
import { type Ctx, route, viewTabs } from './views/index.js';
import { plural } from './views/machine-line.js';

const app = document.getElementById('app')!;
const nav = document.getElementById('nav')!;
const store = new Store('data/');

interface Config {
  repoUrl?: string;
  /** Each experiment's Overview picture, from its manifest (written by the site build). */
  overview?: Record<string, unknown>;
  /** Each experiment's metric labels, from its manifest. */
  labels?: Record<string, Record<string, string>>;
  /** Which release files each machine has (written by the site build). */
  releases?: Record<string, { index: boolean; changes: boolean }>;
}

/** config.json: the copy the build put into the page, else the file. */
async function config(): Promise<Config> {
  try {
    const inlined = document.getElementById('site-config')?.textContent;
    if (inlined) return JSON.parse(inlined) as Config;
    const r = await fetch('config.json');
    return r.ok ? ((await r.json()) as Config) : {};
  } catch {
    return {};
  }
}

function showError(e: unknown): void {
  const msg = e instanceof DataError ? e.message : `unexpected error: ${(e as Error)?.message ?? String(e)}`;
  setHtml(
    app,
    html`<div class="error" role="alert"><h2>The results could not be shown</h2><p>${msg}</p><p class="muted">The store is written by <code>npm run publish-run</code>; rebuilding the site (<code>npm run site</code>) or re-publishing usually fixes this.</p></div>`,
  );
}

let renderId = 0;

async function render(): Promise<void> {
  const id = ++renderId;
  // Tests (and tools) wait for data-rendered: it names only a view that is fully drawn.
  delete document.body.dataset.rendered;
  const { state, view } = route(location.hash);
  // Evaluated now, while the view's data is still on its way: the view awaits it again and
  // reports a failure.
  if (view.charts) loadCharts().catch(() => undefined);
  // Both at once: every round trip before the first chart counts against its budget (site/perf.ts).
  const [cfg, machines] = await Promise.all([
    config(),
    store.machines().catch((e: unknown) => {
      // A missing machines.json is an empty store, not a broken one.
      if (e instanceof DataError && /was not found/.test(e.message)) return undefined;
      throw e;
    }),
  ]);
  const ids = machines ? Object.keys(machines.machines).sort() : [];
  if (!ids.length) {
    setHtml(nav, html``);
    setHtml(
      app,
      html`<div class="notice"><h2>No results yet</h2><p>Run <code>npm run bench</code> (locally) or wait for the first benchmark workflow to publish.</p></div>`,
    );
    return;
  }
  const machine = state.machine && ids.includes(state.machine) ? state.machine : ids[0]!;
  // The workload: one profile at a time (standard by default), data from before store v3 apart.
  const profiles = sortProfiles(Object.keys(machines!.machines[machine]!.profiles ?? {}));
  const profile = state.profile && profiles.includes(state.profile) ? state.profile : defaultProfile(profiles);
  const go = (patch: Partial<State>) => {
    location.hash = toHash({ ...state, machine, ...(profile ? { profile } : {}), ...patch });
  };
  const profileLabel = (p: string) =>
    p === LEGACY_PROFILE
      ? 'legacy (before store v3: profiles mixed)'
      : `${p} (${plural(machines!.machines[machine]!.profiles[p]!.commits, 'commit')})`;
  showNav(state, { ids, machine, profiles, profile, profileLabel });
  setHtml(app, html`<p class="muted">Loading…</p>`);
  if (!profile) {
    setHtml(app, html`<p class="notice">This machine has no runs yet.</p>`);
    document.body.dataset.rendered = state.view;
    return;
  }
  const catalog = await store.catalog(machine, profile);
  if (id !== renderId) return;
  const ctx: Ctx = {
    store,
    state,
    machine,
    profile: new Profile(store, machine, profile, catalog),
    overview: cfg.overview ?? {},
    label: (experiment, metric) => metricLabel(metric, cfg.labels?.[experiment]),
    releases: cfg.releases?.[machine] ?? { index: false, changes: false },
    el: app,
    go,
    // Only an http(s) repository becomes a link (config.json is written by the site build).
    commitUrl: (sha) => (cfg.repoUrl && /^https?:\/\//.test(cfg.repoUrl) ? `${cfg.repoUrl}/commit/${sha}` : undefined),
  };
  const draw = await view.render();
  if (id !== renderId) return;
  await draw(ctx);
  if (id !== renderId) return;
  document.body.dataset.rendered = state.view;
}

/** The machine and workload selectors and the view tabs, for this state. */
function showNav(
  state: State,
  {
    ids,
    machine,
    profiles,
    profile,
    profileLabel,
  }: {
    ids: string[];
    machine: string;
    profiles: string[];
    profile: string | undefined;
    profileLabel: (p: string) => string;
  },
): void {
  setHtml(
    nav,
    html`<label>machine <select id="machine">${ids.map((m) => html`<option value="${m}"${m === machine ? html` selected` : ''}>${m}</option>`)}</select></label>
      <label>workload <select id="profile">${profiles.map((p) => html`<option value="${p}"${p === profile ? html` selected` : ''}>${profileLabel(p)}</option>`)}</select></label>
      ${viewTabs(state, machine, profile)}`,
  );
  nav.querySelector<HTMLSelectElement>('#machine')!.onchange = (e) => {
    location.hash = toHash({ view: state.view, machine: (e.target as HTMLSelectElement).value });
  };
  nav.querySelector<HTMLSelectElement>('#profile')!.onchange = (e) => {
    location.hash = toHash({
      view: state.view,
      machine,
      profile: (e.target as HTMLSelectElement).value,
      ...(state.experiment ? { experiment: state.experiment } : {}),
    });
  };
}

function run(): void {
  render().catch(showError);
}

// Opened from disk (file://), the page cannot fetch its data: index.html's hint says how to serve it.
if (location.protocol !== 'file:') {
  window.addEventListener('hashchange', run);
  run();
}
