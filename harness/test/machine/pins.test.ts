// Pins are enforced, not recorded: a just(js) found on this machine that is not the pinned
// version is that point's failure with both versions and how to install the pinned one, never a
// measurement with the wrong binary; the harness's own Node stands in for its major only when it
// is that major's pinned release.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CURRENT_NODE_MAJOR, resolveRuntime } from '../../src/machine/toolchains.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf } from '../helpers/jobs.js';

const saved = { PATH: process.env.PATH, JUST_HOME: process.env.JUST_HOME };
afterEach(() => {
  process.env.PATH = saved.PATH;
  if (saved.JUST_HOME === undefined) delete process.env.JUST_HOME;
  else process.env.JUST_HOME = saved.JUST_HOME;
});

/** A `just` on PATH that answers the version probe with `version`. */
function fakeJust(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-pins-'));
  writeFileSync(join(dir, 'just'), `#!/bin/sh\necho '${version} (V8 10.6.0)'\n`);
  chmodSync(join(dir, 'just'), 0o755);
  process.env.PATH = `${dir}:${process.env.PATH}`;
  return join(dir, 'just');
}

describe('a pinned runtime found on this machine', () => {
  const cache = mkdtempSync(join(tmpdir(), 'jsio-pins-cache-'));

  it('is refused when it is another version: broken, with both versions and how to install the pin', async () => {
    const path = fakeJust('0.1.14');
    const r = await resolveRuntime('just', { just: '0.1.13' }, cache, () => {});
    expect(r).toEqual({
      ok: false,
      broken: true,
      reason: `just 0.1.14 found, 0.1.13 pinned (${path})`,
      hint: expect.stringContaining('install just(js) 0.1.13'),
    });
  });

  it('is taken when it is the pinned version', async () => {
    const path = fakeJust('0.1.13');
    expect(await resolveRuntime('just', { just: '0.1.13' }, cache, () => {})).toEqual({
      ok: true,
      path,
      version: '0.1.13 (V8 10.6.0)',
    });
  });

  it('makes each point that runs it fail with the reason (not skipped as if it were missing)', () => {
    const exp = loadExperiment(join(ROOT, 'programs', 'wc'));
    const point = expand([exp], 'smoke', { variants: ['just-sync'] })[0]!;
    const broken = {
      ok: false as const,
      broken: true as const,
      reason: 'just 0.1.14 found, 0.1.13 pinned (/x/just)',
      hint: 'h',
    };
    const job = jobOf(point, { runtimes: new Map([[point.runtime, broken]]) });
    expect(job.blocked).toEqual({ status: 'failed', reason: broken.reason, hint: 'h' });
  });

  it("lets the harness's own Node stand in for its major when it is that major's pin", async () => {
    const r = await resolveRuntime(
      `node@${CURRENT_NODE_MAJOR}`,
      { node: { [CURRENT_NODE_MAJOR]: process.versions.node } },
      cache,
      () => {},
    );
    expect(r).toEqual({ ok: true, path: process.execPath, version: process.versions.node });
  });
});
