// The preloader asks, per view the URL names, for exactly the files that view reads first: only
// machines.json on another machine or workload, nothing of an experiment or metric the plan does not list.
import { describe, expect, it } from 'vitest';
import type { PreloadPlan } from '../../harness/src/model/preload-plan.js';
import { preloadFiles } from '../src/preload-files.js';

const T = 'data/m/trends/standard';
const RUN = (n: number) => `data/m/runs/${String(n).repeat(40)}/standard.json`;
const plan: PreloadPlan = {
  machine: 'm',
  profile: 'standard',
  machines: 'data/machines.json',
  catalog: `${T}/catalog.json`,
  noise: 'data/m/noise.json',
  marks: 'data/m/marks.json',
  regressions: `${T}/regressions.json`,
  windows: [`${T}/0003/`, `${T}/0004/`],
  runs: [RUN(2)],
  latest: [
    ['streams', RUN(1)],
    ['wc', RUN(2)],
  ],
  compare: [`${T}/newest-pair.json`],
  shards: { wc: { wall_time: [0, 1], read_cost: [1], instructions: [0, 1], instructions_per_op: [1] } },
};
const COMMITS = [`${T}/0003/commits.json`, `${T}/0004/commits.json`];
const FIRST = [plan.machines, plan.catalog];

describe('preloadFiles', () => {
  it.each<[string, string[]]>([
    ['', [...FIRST, ...COMMITS, RUN(2)]],
    ['#/overview?machine=m&profile=standard', [...FIRST, ...COMMITS, RUN(2)]],
    ['#/nonsense', [...FIRST, ...COMMITS, RUN(2)]],
    ['#/overview?commit=abc', [...FIRST, ...COMMITS]],
    [
      '#/trends?experiment=wc&metric=wall_time',
      [
        ...FIRST,
        ...COMMITS,
        plan.noise,
        plan.marks,
        `${T}/0003/wc/wall_time.json`,
        `${T}/0004/wc/wall_time.json`,
        `${T}/0004/wc/instructions_per_op.json`,
      ],
    ],
    [
      '#/trends?experiment=wc&metric=read_cost',
      [
        ...FIRST,
        ...COMMITS,
        plan.noise,
        plan.marks,
        `${T}/0004/wc/read_cost.json`,
        `${T}/0004/wc/instructions_per_op.json`,
      ],
    ],
    // Counted work chosen above is drawn alone; beside a timing, per operation where there is one.
    [
      '#/trends?experiment=wc&metric=instructions',
      [
        ...FIRST,
        ...COMMITS,
        plan.noise,
        plan.marks,
        `${T}/0003/wc/instructions.json`,
        `${T}/0004/wc/instructions.json`,
      ],
    ],
    ['#/trends?experiment=wc', [...FIRST, ...COMMITS, plan.noise, plan.marks]],
    ['#/sweeps', [...FIRST, ...COMMITS, RUN(1)]],
    ['#/sweeps?experiment=wc', [...FIRST, ...COMMITS, RUN(2)]],
    ['#/sweeps?experiment=wc&commit=abc', [...FIRST, ...COMMITS]],
    ['#/compare?machine=m', [...FIRST, ...COMMITS, plan.noise, `${T}/newest-pair.json`]],
    ['#/compare?base=abc', [...FIRST, ...COMMITS, plan.noise]],
    ['#/regressions?log=1', [...FIRST, plan.regressions]],
    ['#/runtimes', FIRST],
  ])('%s', (hash, files) => {
    expect(preloadFiles(plan, hash)).toEqual(files);
  });

  it('preloads only machines.json for another machine or workload', () => {
    expect(preloadFiles(plan, '#/overview?machine=other')).toEqual([plan.machines]);
    expect(preloadFiles(plan, '#/compare?machine=m&profile=smoke')).toEqual([plan.machines]);
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
        ...FIRST,
        ...COMMITS,
        plan.noise,
        plan.marks,
      ]);
  });
});
