/**
 * Every view is addressable: the URL hash holds the whole view state, so a link in a PR
 * comment opens exactly that chart. Pure functions, round-trip tested.
 */
export interface State {
  /** A view's name (views/index.ts lists them). */
  view: string;
  machine?: string;
  /** The workload shown: a profile of the store (standard by default), one at a time. */
  profile?: string;
  experiment?: string;
  metric?: string;
  /** trends: one chart's key, to scroll to and highlight. */
  chart?: string;
  log?: boolean;
  /** sweeps: the commit (default latest) and an optional second one overlaid; compare: base/head. */
  commit?: string;
  vs?: string;
  base?: string;
  head?: string;
  /** trends: how many windows older than the recent ones are loaded too. */
  older?: number;
}

const KEYS = ['machine', 'profile', 'experiment', 'metric', 'chart', 'commit', 'vs', 'base', 'head'] as const;

/** The state a hash holds; a path that names none of `views` opens the first of them. */
export function parseHash(hash: string, views: readonly string[]): State {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const view = views.includes(path) ? path : (views[0] ?? '');
  const q = new URLSearchParams(query);
  const state: State = { view };
  for (const k of KEYS) {
    const v = q.get(k);
    if (v) state[k] = v;
  }
  // Explicit both ways: a view may open on a log axis by default (Sweeps, as the Overview).
  if (q.get('log') === '1') state.log = true;
  if (q.get('log') === '0') state.log = false;
  const older = Number(q.get('older'));
  if (Number.isInteger(older) && older > 0) state.older = older;
  return state;
}

export function toHash(s: State): string {
  const q = new URLSearchParams();
  for (const k of KEYS) {
    const v = s[k];
    if (v) q.set(k, v);
  }
  if (s.log !== undefined) q.set('log', s.log ? '1' : '0');
  if (s.older) q.set('older', String(s.older));
  const query = q.toString();
  return `#/${s.view}${query ? `?${query}` : ''}`;
}
