// What pr.yml lets a pull request's own code decide. The stdout of the
// pull request's install-just went into GITHUB_ENV/GITHUB_PATH as it was, so extra lines set
// NODE_OPTIONS (or BASH_ENV) for every later step. The step's real script is run here with a
// stand-in `npm` printing what a hostile install-just would. The job's time limit.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { readWorkflow } from '../helpers/workflow-replay.js';

const pr = readWorkflow(join(ROOT, '.github', 'workflows', 'pr.yml'));
const diff = pr.jobs.diff!;
const installStep = diff.steps.find((s) => /^Install .*just\(js\)/.test(s.name ?? ''))!;

/** Runs a step script as the runner does (bash -e), with `npm` printing `printed`. */
function runStep(script: string, printed: string) {
  const d = mkdtempSync(join(tmpdir(), 'jsio-prenv-'));
  mkdirSync(join(d, 'bin'));
  writeFileSync(join(d, 'printed'), printed);
  writeFileSync(join(d, 'bin', 'npm'), `#!/bin/sh\ncat '${join(d, 'printed')}'\n`);
  chmodSync(join(d, 'bin', 'npm'), 0o755);
  for (const f of ['env', 'path']) writeFileSync(join(d, f), '');
  const r = spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], {
    encoding: 'utf8',
    env: {
      PATH: `${join(d, 'bin')}:${process.env.PATH}`,
      GITHUB_ENV: join(d, 'env'),
      GITHUB_PATH: join(d, 'path'),
      JSIO_CACHE: '/opt/runner/_work/_tool/jsio-bench/pr',
    },
  });
  return {
    status: r.status,
    out: r.stdout + r.stderr,
    env: readFileSync(join(d, 'env'), 'utf8'),
    path: readFileSync(join(d, 'path'), 'utf8'),
  };
}

const DIR = '/opt/runner/_work/_tool/jsio-bench/pr/just/just-0.1.13';
const HOSTILE = [
  ['an extra NODE_OPTIONS line', `${DIR}\nNODE_OPTIONS=--require=/tmp/evil.js`],
  ['a BASH_ENV line', `${DIR}\nBASH_ENV=/tmp/evil.sh`],
  ['another directory', '/tmp/evil'],
  ['a heredoc delimiter', `${DIR}<<EOF`],
  ['a PATH entry before the real one', `/tmp/evil\n${DIR}`],
] as const;

describe('install-just output reaches GITHUB_ENV/GITHUB_PATH only when it is the expected directory', () => {
  it('reproduces the attack on the step without its check: NODE_OPTIONS lands in GITHUB_ENV', () => {
    const unchecked = installStep
      .run!.split('\n')
      .filter((l) => !l.trimStart().startsWith('[['))
      .join('\n');
    const r = runStep(unchecked, HOSTILE[0][1]);
    expect(r.status).toBe(0);
    expect(r.env).toMatch(/^NODE_OPTIONS=--require=\/tmp\/evil\.js$/m);
  });

  it('passes the honest directory through', () => {
    const r = runStep(installStep.run!, `${DIR}\n`);
    expect(r.status, r.out).toBe(0);
    // The base's pin for the harness's own use, the head's for its side (here the same version).
    expect(r.env).toBe(`JUST_HOME=${DIR}\nJUST_TARGET=${DIR}\nHEAD_JUST_HOME=${DIR}\n`);
    expect(r.path).toBe(`${DIR}\n`);
  });

  it.each(HOSTILE)('refuses %s: the step fails and writes nothing', (_n, printed) => {
    const r = runStep(installStep.run!, printed);
    expect(r.status).not.toBe(0);
    expect(r.out).toContain('::error::install-just printed an unexpected directory');
    expect([r.env, r.path]).toEqual(['', '']);
  });
});

describe("the diff job's time limit is the deadline plus a margin", () => {
  it("is at most 60 minutes, and at least the default deadline and the recordings' bound plus 15", () => {
    const timeout = (diff as { 'timeout-minutes'?: number })['timeout-minutes'] ?? Infinity;
    const deadline = Number(/'(\d+)'/.exec(String(diff.env?.DEADLINE_MINUTES))?.[1]);
    const recordings = Number(/'(\d+)'/.exec(String(diff.env?.TRANSCRIPT_MINUTES))?.[1]);
    expect(timeout).toBeLessThanOrEqual(60);
    expect(timeout).toBeGreaterThanOrEqual(deadline + recordings + 15);
  });
});

describe('In every workflow: install-just output is checked before it reaches GITHUB_ENV', () => {
  // releases.yml, added after the fix, first wrote it unchecked: every workflow is read here.
  for (const file of ['pr.yml', 'bench.yml', 'calibrate.yml', 'releases.yml']) {
    it(`${file}`, () => {
      const w = readWorkflow(join(ROOT, '.github', 'workflows', file));
      const steps = Object.values(w.jobs).flatMap((j) => j.steps ?? []);
      const writers = steps.filter((s) => /install-just/.test(s.run ?? '') && /GITHUB_ENV/.test(s.run ?? ''));
      for (const s of writers) {
        const run = s.run ?? '';
        expect(run.indexOf('unexpected directory'), `${file}: ${s.name}`).toBeGreaterThan(-1);
        expect(run.indexOf('unexpected directory')).toBeLessThan(run.indexOf('>> "$GITHUB_ENV"'));
      }
    });
  }
});
