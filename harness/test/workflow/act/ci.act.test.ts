// SLOW (a few minutes): ci.yml's test job under nektos/act, in host mode: the test removes only
// the job's `container:` (a container never runs in host mode). The real checkout and setup-go
// (the pinned Go, seeded in the runner's tool cache), the just(js) install step, npm ci, then
// `npm test`: typecheck, lint, knip, actionlint, and vitest on one file (JSIO_ACT_TEST_ARGS, see
// helpers/act/stand-ins.ts), not the whole suite, which holds these tests.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { type HostState, hostState } from '../../helpers/act/host.js';
import { runAct, step, why } from '../../helpers/act/runs.js';
import { actReadiness, unlessActReady } from '../../helpers/act/suite.js';
import { type ActWorld, makeActWorld, REPOSITORY } from '../../helpers/act/world.js';
import { ROOT } from '../../helpers/cli.js';
import { removeScratch } from '../../helpers/scratch.js';

const readiness = actReadiness();
const { ready } = readiness;
unlessActReady(readiness);

describe.runIf(ready)('ci.yml under act', () => {
  let w: ActWorld;
  let before: HostState;
  beforeAll(() => {
    before = hostState();
    w = makeActWorld(mkdtempSync(join(tmpdir(), 'jsio-act-ci-')));
  }, 300_000);
  afterAll(() => removeScratch(w?.root));

  it('the test job passes: pinned Go from the tool cache, just(js) installed, npm test green', {
    timeout: 1_200_000,
  }, async () => {
    const doc = parseDocument(readFileSync(join(ROOT, '.github', 'workflows', 'ci.yml'), 'utf8'));
    expect(doc.hasIn(['jobs', 'test', 'container'])).toBe(true);
    doc.deleteIn(['jobs', 'test', 'container']);
    const goVersion = String(
      (doc.getIn(['jobs', 'test', 'steps']) as { toJSON(): { with?: { 'go-version'?: string } }[] })
        .toJSON()
        .find((s) => s.with?.['go-version'])?.with?.['go-version'],
    );
    expect(goVersion).toMatch(/^\d+\.\d+\.\d+$/);
    const file = join(w.root, 'ci-host.yml');
    writeFileSync(file, doc.toString());
    const r = await runAct({
      world: w,
      name: 'ci',
      workflow: file,
      event: 'push',
      payload: { ref: 'refs/heads/main', after: w.main, repository: { full_name: REPOSITORY, default_branch: 'main' } },
      env: { JSIO_ACT_TEST_ARGS: 'harness/test/workflow/workflows-design.test.ts' },
      tools: { go: [goVersion] },
    });
    expect(r.status, why(r)).toBe(0);
    expect(step(r, 'test', /setup-go/).output).toContain(
      `Found in cache @ ${r.dir}/action-cache/tool_cache/go/${goVersion}/x64`,
    );
    const just = step(r, 'test', 'Install just(js)');
    expect(just.output).toContain(`JUST_HOME=${r.dir}/action-cache/tool_cache/jsio-bench/ci/just/just-`);
    const test = stripVTControlCharacters(step(r, 'test', 'npm test').output);
    expect(test).toContain('== actionlint (with shellcheck)');
    expect(test).toMatch(/Tests +\d+ passed/);
    expect(test).not.toMatch(/failed/);
  });

  it('left the machine alone: its git configuration and HOME as they were (the job writes git config --global)', () => {
    expect(hostState()).toEqual(before);
  });
});
