// calibrate.yml under nektos/act, host mode, offline, with the pinned
// actions' own code (helpers/act/): a dispatch at the smallest workload its inputs allow (one
// A/A diff and one planted one of wc at smoke size, a few seconds of pairs each) measures, uploads
// the machine's noise.json, and the publish job pushes it to gh-pages as data/<machine>/noise.json.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactFile, artifactFiles, artifactNames } from '../../helpers/act/artifacts.js';
import { type HostState, hostState } from '../../helpers/act/host.js';
import { runAct, step, TOKEN, why } from '../../helpers/act/runs.js';
import { actReadiness, unlessActReady } from '../../helpers/act/suite.js';
import { type ActWorld, git, makeActWorld, REPOSITORY } from '../../helpers/act/world.js';
import { removeScratch } from '../../helpers/scratch.js';

const readiness = actReadiness();
const { ready } = readiness;
unlessActReady(readiness);

describe.runIf(ready)('calibrate.yml under act', () => {
  let w: ActWorld;
  let before: HostState;
  beforeAll(() => {
    before = hostState();
    w = makeActWorld(mkdtempSync(join(tmpdir(), 'jsio-act-calibrate-')));
  }, 300_000);
  afterAll(() => removeScratch(w?.root));

  it('a dispatch calibrates, uploads the noise file and publishes it to gh-pages', { timeout: 1_200_000 }, async () => {
    const inputs = { runners: '["jsio-bench-1"]', repeats: '1', budget: '0.2', profile: 'smoke', experiments: 'wc' };
    const r = await runAct({
      world: w,
      name: 'calibrate',
      workflow: '.github/workflows/calibrate.yml',
      event: 'workflow_dispatch',
      payload: { inputs, ref: 'refs/heads/main', repository: { full_name: REPOSITORY } },
      inputs,
      tools: { node: ['22'] },
    });
    expect(r.status, why(r)).toBe(0);
    expect(step(r, 'calibrate', 'A/A paired diffs').output).toContain('calibrate: ');
    expect(artifactNames(r)).toEqual(['noise-jsio-bench-1']);
    const files = artifactFiles(r, 'noise-jsio-bench-1');
    expect(files).toHaveLength(1);
    const [machine] = files[0]!.split('/');
    expect(files[0]).toBe(`${machine}/noise.json`);
    const noise = artifactFile(r, 'noise-jsio-bench-1', files[0]!);
    expect(JSON.parse(noise)).toMatchObject({ machine });
    expect(r.jobs.calibrate!.summary.length).toBeGreaterThan(0);
    expect(JSON.parse(git(w.remote, 'show', `gh-pages:data/${machine}/noise.json`))).toMatchObject({ machine });
    expect(git(w.remote, 'log', '--format=%s', 'gh-pages')).toBe('Noise calibration on jsio-bench-1');
    expect(spawnSync('git', ['-C', w.remote, 'grep', '-q', TOKEN, 'gh-pages']).status).toBe(1);
  });

  it('left the machine alone: its HOME and git configuration are as they were', () => {
    expect(hostState()).toEqual(before);
  });
});
