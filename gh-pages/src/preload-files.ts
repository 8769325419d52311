/**
 * The files a view fetches before its first chart, from the build's preload plan and the URL
 * hash, parsed as the app parses it: the preloader asks for them while the bundle is on its way.
 * Only for the plan's machine and workload, and only files the view surely reads: a file a view
 * does not ask for would be downloaded for nothing, and one the store lacks would fail loudly.
 */
import type { PreloadPlan } from '../../harness/src/model/preload-plan.js';
import { parseHash, type State } from './state.js';
import { WORK_METRICS, workMetric } from './work-metric.js';

export function preloadFiles(plan: PreloadPlan, hash: string): string[] {
  const s = parseHash(hash);
  // Every view reads machines.json first, whatever machine it shows.
  if ((s.machine && s.machine !== plan.machine) || (s.profile && s.profile !== plan.profile)) return [plan.machines];
  const commits = plan.windows.map((w) => `${w}commits.json`);
  const view: Record<State['view'], () => string[]> = {
    overview: () => [...commits, ...(s.commit ? [] : plan.runs)],
    trends: () => [...commits, plan.noise, plan.marks, ...trendShards(plan, s)],
    sweeps: () => [...commits, ...(s.commit ? [] : sweptRun(plan, s))],
    compare: () => [...commits, plan.noise, ...(s.base || s.head ? [] : plan.compare)],
    regressions: () => [plan.regressions],
    runtimes: () => [],
  };
  return [plan.machines, plan.catalog, ...view[s.view]()];
}

/**
 * The shards of the experiment and metric a Trends link names (the view picks its own otherwise),
 * and of the counted work the view draws below a timing.
 */
function trendShards(plan: PreloadPlan, s: State): string[] {
  const { experiment: e, metric: m } = s;
  const metrics = e && Object.hasOwn(plan.shards, e) ? plan.shards[e] : undefined;
  if (!metrics || !m || !Object.hasOwn(metrics, m)) return [];
  const work = (WORK_METRICS as readonly string[]).includes(m) ? undefined : workMetric(Object.keys(metrics));
  return [m, ...(work ? [work] : [])].flatMap((metric) =>
    metrics[metric]!.map((i) => `${plan.windows[i]}${e}/${metric}.json`),
  );
}

/** The newest run of the experiment Sweeps opens on: the one the link names, else the first. */
function sweptRun(plan: PreloadPlan, s: State): string[] {
  const named = plan.latest.find(([id]) => id === s.experiment);
  const run = (named ?? plan.latest[0])?.[1];
  return run ? [run] : [];
}
