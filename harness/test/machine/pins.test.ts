// Pins are enforced, not recorded: a just(js) found on this machine that is not the pinned
// version is that point's failure with both versions and how to install the pinned one, never a
// measurement with the wrong binary; the harness's own Node stands in for its major only when it
// is that major's pinned release.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CURRENT_NODE_MAJOR, npmPackageDir, resolveRuntime } from '../../src/machine/toolchains.js';
import { recordTree } from '../../src/machine/verify-cache.js';
import { familyOf } from '../../src/model/runtime-families.js';
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

/**
 * A just(js) installation whose `just` answers the version probe with `version`; the machine's
 * ($JUST_HOME: PATH is never searched, machine/tools.ts) unless `installed` is false.
 */
function fakeJust(version: string, installed = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-pins-'));
  writeFileSync(join(dir, 'just'), `#!/bin/sh\necho '${version} (V8 10.6.0)'\n`);
  chmodSync(join(dir, 'just'), 0o755);
  if (installed) process.env.JUST_HOME = dir;
  return join(dir, 'just');
}

/**
 * A runtime's tree in the runtimes cache under its pin's folder, recorded as an install records
 * it (so the cache check accepts it), whose binary answers `--version` with `says`.
 */
function plantInCache(cache: string, family: 'node' | 'bun', pin: string, says: string): string {
  const source = familyOf(family)!.source;
  if (source.kind !== 'npm') throw new Error(`${family} is not installed from npm`);
  const dir = npmPackageDir(cache, source.pkg, pin);
  const bin = join(dir, source.bin);
  mkdirSync(join(bin, '..'), { recursive: true });
  writeFileSync(bin, `#!/bin/sh\necho '${says}'\n`);
  chmodSync(bin, 0o755);
  recordTree(dir);
  return bin;
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

  it('records what install-just compiled it for, beside its version (.install-just.flags)', async () => {
    const path = fakeJust('0.1.13');
    writeFileSync(join(path, '..', '.install-just.flags'), '-march=x86-64-v2 -mtune=generic\n');
    expect(await resolveRuntime('just', { just: '0.1.13' }, cache, () => {})).toEqual({
      ok: true,
      path,
      version: '0.1.13 (V8 10.6.0) built for -march=x86-64-v2 -mtune=generic',
    });
    // Another architecture's build: the compiler's default target.
    writeFileSync(join(path, '..', '.install-just.flags'), '\n');
    expect(await resolveRuntime('just', { just: '0.1.13' }, cache, () => {})).toMatchObject({
      version: "0.1.13 (V8 10.6.0) built for the compiler's default target",
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

  it("with its side's own installation given, takes that one, not the machine's (a pin bump's head side)", async () => {
    const machines = fakeJust('0.1.13');
    const headJust = fakeJust('0.1.14', false);
    const home = join(headJust, '..');
    // The base side (its pin, the machine's just) and the head side (its pin, its own installation).
    expect(await resolveRuntime('just', { just: '0.1.13' }, cache, () => {})).toMatchObject({
      ok: true,
      path: machines,
    });
    expect(await resolveRuntime('just', { just: '0.1.14' }, cache, () => {}, { JUST_HOME: home })).toEqual({
      ok: true,
      path: headJust,
      version: '0.1.14 (V8 10.6.0)',
    });
    // Without it, the head's points would run the machine's 0.1.13: broken, never measured.
    expect(await resolveRuntime('just', { just: '0.1.14' }, cache, () => {})).toMatchObject({
      ok: false,
      broken: true,
      reason: `just 0.1.13 found, 0.1.14 pinned (${machines})`,
    });
    // A given installation without `just` is not replaced by the machine's.
    const empty = mkdtempSync(join(tmpdir(), 'jsio-pins-empty-'));
    expect(await resolveRuntime('just', { just: '0.1.13' }, cache, () => {}, { JUST_HOME: empty })).toMatchObject({
      ok: false,
      reason: `just(js) is not installed (no \`just\` in ${empty})`,
    });
  });
});

describe('a pinned runtime from the npm registry, found in the runtimes cache', () => {
  it("is broken when its binary says another version than the pin (a tree planted under the pin's folder)", async () => {
    const cache = mkdtempSync(join(tmpdir(), 'jsio-pins-npm-'));
    const bin = plantInCache(cache, 'bun', '1.4.5', '1.4.4');
    const r = await resolveRuntime('bun', { bun: '1.4.5' }, cache, () => {});
    expect(r).toEqual({
      ok: false,
      broken: true,
      reason: `bun 1.4.4 found, 1.4.5 pinned (${bin})`,
      hint: expect.stringContaining('it is installed again from the npm registry'),
    });
  });

  it('is taken when its binary says the pin', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'jsio-pins-npm-'));
    const bin = plantInCache(cache, 'bun', '1.4.5', '1.4.5');
    expect(await resolveRuntime('bun', { bun: '1.4.5' }, cache, () => {})).toEqual({
      ok: true,
      path: bin,
      version: '1.4.5',
    });
  });

  it("checks node@<the harness's own major> too, when the harness's node is not that major's pin", async () => {
    const cache = mkdtempSync(join(tmpdir(), 'jsio-pins-npm-'));
    const pin = `${CURRENT_NODE_MAJOR}.99.0`;
    const bin = plantInCache(cache, 'node', pin, `v${CURRENT_NODE_MAJOR}.98.0`);
    const r = await resolveRuntime(
      `node@${CURRENT_NODE_MAJOR}`,
      { node: { [CURRENT_NODE_MAJOR]: pin } },
      cache,
      () => {},
    );
    expect(r).toMatchObject({
      ok: false,
      broken: true,
      reason: `node@${CURRENT_NODE_MAJOR} ${CURRENT_NODE_MAJOR}.98.0 found, ${pin} pinned (${bin})`,
    });
  });

  it('checks another pinned major the same way (node@24 answering 24.8.0)', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'jsio-pins-npm-'));
    plantInCache(cache, 'node', '24.9.0', 'v24.8.0');
    expect(await resolveRuntime('node@24', { node: { 24: '24.9.0' } }, cache, () => {})).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^node@24 24\.8\.0 found, 24\.9\.0 pinned/),
    });
  });
});
