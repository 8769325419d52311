// The preloader asks, per view the URL names, for exactly the files that view reads first, and for
// nothing on another machine or workload, or of an experiment or metric the plan does not list.
import { describe, expect, it } from 'vitest';
import type { PreloadPlan } from '../../harness/src/model/preload-plan.js';
import { preloadFiles, preloadModules } from '../src/preload-files.js';

const T = 'data/m/trends/standard';
const RUN = (n: number) => `data/m/runs/${String(n).repeat(40)}/standard.json`;
const plan: PreloadPlan = {
  machine: 'm',
  profile: 'standard',
  catalog: `${T}/catalog.json`,
  noise: 'data/m/noise.json',
  regressions: `${T}/regressions.json`,
  windows: [`${T}/0003/`, `${T}/0004/`],
  runs: [RUN(2)],
  latest: [
    ['streams', RUN(1)],
    ['wc', RUN(2)],
  ],
  compare: [`${T}/newest-pair.json`],
  shards: { wc: { wall_time: [0, 1], read_cost: [1] } },
  charts: ['uPlot.esm.js'],
};
const COMMITS = [`${T}/0003/commits.json`, `${T}/0004/commits.json`];

describe('preloadFiles', () => {
  it.each<[string, string[]]>([
    ['', [plan.catalog, ...COMMITS, RUN(2)]],
    ['#/overview?machine=m&profile=standard', [plan.catalog, ...COMMITS, RUN(2)]],
    ['#/nonsense', [plan.catalog, ...COMMITS, RUN(2)]],
    ['#/overview?commit=abc', [plan.catalog, ...COMMITS]],
    [
      '#/trends?experiment=wc&metric=wall_time',
      [plan.catalog, ...COMMITS, plan.noise, `${T}/0003/wc/wall_time.json`, `${T}/0004/wc/wall_time.json`],
    ],
    ['#/trends?experiment=wc&metric=read_cost', [plan.catalog, ...COMMITS, plan.noise, `${T}/0004/wc/read_cost.json`]],
    ['#/trends?experiment=wc', [plan.catalog, ...COMMITS, plan.noise]],
    ['#/sweeps', [plan.catalog, ...COMMITS, RUN(1)]],
    ['#/sweeps?experiment=wc', [plan.catalog, ...COMMITS, RUN(2)]],
    ['#/sweeps?experiment=wc&commit=abc', [plan.catalog, ...COMMITS]],
    ['#/compare?machine=m', [plan.catalog, ...COMMITS, plan.noise, `${T}/newest-pair.json`]],
    ['#/compare?base=abc', [plan.catalog, ...COMMITS, plan.noise]],
    ['#/regressions?log=1', [plan.catalog, plan.regressions]],
    ['#/runtimes', [plan.catalog]],
  ])('%s', (hash, files) => {
    expect(preloadFiles(plan, hash)).toEqual(files);
  });

  it('preloads nothing for another machine or workload', () => {
    expect(preloadFiles(plan, '#/overview?machine=other')).toEqual([]);
    expect(preloadFiles(plan, '#/compare?machine=m&profile=smoke')).toEqual([]);
  });

  it('asks for no shard the plan does not list, whatever the link names', () => {
    for (const [experiment, metric] of [
      ['wc', 'nope'],
      ['nope', 'wall_time'],
      ['__proto__', 'constructor'],
      ['wc', 'toString'],
      ['../x', 'wall_time'],
    ])
      expect(preloadFiles(plan, `#/trends?experiment=${experiment}&metric=${metric}`)).toEqual([
        plan.catalog,
        ...COMMITS,
        plan.noise,
      ]);
  });

  it('preloads the charts module for the views that draw charts, on any machine', () => {
    for (const hash of ['', '#/trends?machine=other', '#/sweeps?experiment=wc'])
      expect(preloadModules(plan, hash), hash).toEqual(['uPlot.esm.js']);
    for (const hash of ['#/compare', '#/regressions', '#/runtimes'])
      expect(preloadModules(plan, hash), hash).toEqual([]);
  });
});
