// The trend site: a machine selector, four views, and the whole view state in the URL hash.
import 'uplot/dist/uPlot.min.css';
import { escapeHtml as esc } from './charts.js';
import { DataError, Store } from './data.js';
import { parseHash, type State, toHash, VIEWS } from './state.js';
import { type Ctx, compare, overview, sweeps, trends } from './views.js';

const app = document.getElementById('app')!;
const nav = document.getElementById('nav')!;
const store = new Store('data/');

interface Config {
  repoUrl?: string;
}

async function config(): Promise<Config> {
  try {
    const r = await fetch('config.json');
    return r.ok ? ((await r.json()) as Config) : {};
  } catch {
    return {};
  }
}

function showError(e: unknown): void {
  const msg = e instanceof DataError ? e.message : `unexpected error: ${(e as Error)?.message ?? String(e)}`;
  app.innerHTML = `<div class="error" role="alert"><h2>The results could not be shown</h2><p>${esc(msg)}</p><p class="muted">The store is written by <code>npm run publish</code>; rebuilding the site (<code>npm run site</code>) or re-publishing usually fixes this.</p></div>`;
}

let renderId = 0;

async function render(): Promise<void> {
  const id = ++renderId;
  const state = parseHash(location.hash);
  const cfg = await config();
  const machines = await store.machines().catch((e: unknown) => {
    // A missing machines.json is an empty store, not a broken one.
    if (e instanceof DataError && /was not found/.test(e.message)) return undefined;
    throw e;
  });
  const ids = machines ? Object.keys(machines.machines).sort() : [];
  if (!ids.length) {
    nav.innerHTML = '';
    app.innerHTML =
      '<div class="notice"><h2>No results yet</h2><p>Run <code>npm run bench</code> (locally) or wait for the first benchmark workflow to publish.</p></div>';
    return;
  }
  const machine = state.machine && ids.includes(state.machine) ? state.machine : ids[0]!;
  const go = (patch: Partial<State>) => {
    location.hash = toHash({ ...state, machine, ...patch });
  };
  nav.innerHTML =
    `<label>machine <select id="machine">${ids.map((m) => `<option${m === machine ? ' selected' : ''}>${esc(m)}</option>`).join('')}</select></label>` +
    VIEWS.map(
      (v) =>
        `<a class="tab${v === state.view ? ' active' : ''}" href="${toHash({ view: v, machine, ...(state.experiment ? { experiment: state.experiment } : {}) })}">${v}</a>`,
    ).join('');
  nav.querySelector<HTMLSelectElement>('#machine')!.onchange = (e) => {
    location.hash = toHash({ view: state.view, machine: (e.target as HTMLSelectElement).value });
  };
  app.innerHTML = '<p class="muted">Loading…</p>';
  const index = await store.index(machine);
  if (id !== renderId) return;
  const ctx: Ctx = {
    store,
    state,
    machine,
    index,
    el: app,
    go,
    commitUrl: (sha) => (cfg.repoUrl ? `${cfg.repoUrl}/commit/${sha}` : undefined),
  };
  const view = { overview, trends, sweeps, compare }[state.view];
  await view(ctx);
  document.body.dataset.rendered = state.view;
}

function run(): void {
  render().catch(showError);
}

window.addEventListener('hashchange', run);
run();
