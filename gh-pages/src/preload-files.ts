/**
 * The files a view fetches before its first chart, from the build's preload plan and the URL
 * hash, parsed as the app parses it: the preloader asks for them while the bundle is on its way.
 * Only for the plan's machine and workload, and only files the view surely reads (each view's
 * rule is its entry's in views/index.ts): a file a view does not ask for would be downloaded for
 * nothing, and one the store lacks would fail loudly.
 */
import type { PreloadPlan } from '../../harness/src/model/preload-plan.js';
import { route } from './views/index.js';

export function preloadFiles(plan: PreloadPlan, hash: string): string[] {
  const { state, view } = route(hash);
  // Every view reads machines.json first, whatever machine it shows.
  if ((state.machine && state.machine !== plan.machine) || (state.profile && state.profile !== plan.profile))
    return [plan.machines];
  const commits = plan.windows.map((w) => `${w}commits.json`);
  return [plan.machines, plan.catalog, ...view.preload({ plan, state, commits })];
}
