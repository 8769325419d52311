// The benchmark machine's own gate (harness/tools/runner-job-started.sh, installed outside the
// repository as the runner's job-started hook) and its cleanup (runner-job-completed.sh): which
// jobs are admitted, run with the variables the runner gives them, and that every job starts and
// ends with an empty workspace.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const started = join(ROOT, 'harness', 'tools', 'runner-job-started.sh');
const completed = join(ROOT, 'harness', 'tools', 'runner-job-completed.sh');
const REPO = 'owner/jsio-bench';

function machine() {
  const d = mkdtempSync(join(tmpdir(), 'jsio-hook-'));
  const work = join(d, '_work', 'jsio-bench');
  const ws = join(work, 'jsio-bench');
  mkdirSync(join(ws, 'base', '.cache'), { recursive: true });
  writeFileSync(join(ws, 'left-behind'), 'x');
  writeFileSync(join(d, 'runner.conf'), `# test\nrepository=${REPO}\n`);
  mkdirSync(join(d, 'temp', 'home'), { recursive: true });
  writeFileSync(join(d, 'temp', 'home', '.gitconfig'), '[core]\n');
  return { d, ws, work };
}

function hook(script: string, m: ReturnType<typeof machine>, env: Record<string, string>) {
  const r = spawnSync('bash', [script], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: m.d,
      JSIO_RUNNER_CONF: join(m.d, 'runner.conf'),
      GITHUB_REPOSITORY: REPO,
      GITHUB_WORKSPACE: m.ws,
      RUNNER_WORKSPACE: m.work,
      RUNNER_TEMP: join(m.d, 'temp'),
      ...env,
    },
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const wf = (file: string, ref = 'refs/heads/main', repo = REPO) => `${repo}/.github/workflows/${file}@${ref}`;

describe('runner-job-started.sh', () => {
  it.each([
    ['bench.yml on push', wf('bench.yml'), 'push'],
    ['bench.yml nightly', wf('bench.yml'), 'schedule'],
    ['bench.yml by hand', wf('bench.yml'), 'workflow_dispatch'],
    ['calibrate.yml by hand', wf('calibrate.yml'), 'workflow_dispatch'],
    ['releases.yml nightly', wf('releases.yml'), 'schedule'],
    ['releases.yml by hand', wf('releases.yml'), 'workflow_dispatch'],
    ['pr.yml on pull_request_target', wf('pr.yml'), 'pull_request_target'],
  ])('admits %s and empties the workspace', (_n, ref, event) => {
    const m = machine();
    const r = hook(started, m, { GITHUB_WORKFLOW_REF: ref, GITHUB_EVENT_NAME: event });
    expect(r.out).toContain('admitted');
    expect(r.status).toBe(0);
    expect(readdirSync(m.ws)).toEqual([]);
  });

  it.each([
    [
      "a fork's copy of pr.yml (pull_request runs the pull request's file)",
      wf('pr.yml', 'refs/pull/7/merge'),
      'pull_request',
      /is not one of/,
    ],
    ['our pr.yml started by pull_request', wf('pr.yml'), 'pull_request', /not run by 'pull_request'/],
    ['a workflow a pull request added', wf('evil.yml', 'refs/pull/7/merge'), 'pull_request', /is not one of/],
    ['bench.yml from another branch', wf('bench.yml', 'refs/heads/feature'), 'workflow_dispatch', /is not one of/],
    ['another repository', wf('bench.yml', 'refs/heads/main', 'stranger/jsio-bench'), 'push', /is not one of/],
    ['calibrate.yml on push', wf('calibrate.yml'), 'push', /not run by 'push'/],
    ['releases.yml on push', wf('releases.yml'), 'push', /not run by 'push'/],
    ['releases.yml from another branch', wf('releases.yml', 'refs/heads/feature'), 'schedule', /is not one of/],
    ["a pull request's copy of releases.yml", wf('releases.yml', 'refs/pull/7/merge'), 'pull_request', /is not one of/],
    ['a job with no workflow ref', '', 'push', /is not one of/],
  ])('refuses %s, leaving the workspace alone', (_n, ref, event, msg) => {
    const m = machine();
    const r = hook(started, m, { GITHUB_WORKFLOW_REF: ref, GITHUB_EVENT_NAME: event });
    expect(r.status).toBe(1);
    expect(r.out).toMatch(msg);
    expect(existsSync(join(m.ws, 'left-behind'))).toBe(true);
  });

  it('refuses a job of another repository even with our file name', () => {
    const m = machine();
    const r = hook(started, m, {
      GITHUB_REPOSITORY: 'stranger/jsio-bench',
      GITHUB_WORKFLOW_REF: wf('bench.yml'),
      GITHUB_EVENT_NAME: 'push',
    });
    expect([r.status, r.out]).toEqual([
      1,
      expect.stringMatching(/repository 'stranger\/jsio-bench' is not owner\/jsio-bench/),
    ]);
  });

  it('refuses without its configuration, and never empties a directory outside the work folder', () => {
    const m = machine();
    expect(
      hook(started, m, {
        JSIO_RUNNER_CONF: join(m.d, 'missing.conf'),
        GITHUB_WORKFLOW_REF: wf('bench.yml'),
        GITHUB_EVENT_NAME: 'push',
      }).status,
    ).toBe(1);
    const r = hook(started, m, {
      GITHUB_WORKSPACE: m.d,
      GITHUB_WORKFLOW_REF: wf('bench.yml'),
      GITHUB_EVENT_NAME: 'push',
    });
    expect(r.status).toBe(1);
    expect(existsSync(join(m.d, 'runner.conf'))).toBe(true);
  });
});

describe('runner-job-started.sh with a level', () => {
  const at = (level: string) => {
    const m = machine();
    writeFileSync(join(m.d, 'runner.conf'), `repository=${REPO}\nlevel=${level}\n`);
    return m;
  };

  it('admits releases.yml on the trusted level', () => {
    const r = hook(started, at('trusted'), { GITHUB_WORKFLOW_REF: wf('releases.yml'), GITHUB_EVENT_NAME: 'schedule' });
    expect([r.status, r.out]).toEqual([0, expect.stringContaining('admitted')]);
  });

  it("refuses releases.yml on the pull-request level's agent", () => {
    const m = at('pr');
    const r = hook(started, m, { GITHUB_WORKFLOW_REF: wf('releases.yml'), GITHUB_EVENT_NAME: 'schedule' });
    expect([r.status, r.out]).toEqual([
      1,
      expect.stringMatching(/not for the pr level's agent \(it runs on the trusted/),
    ]);
    expect(existsSync(join(m.ws, 'left-behind'))).toBe(true);
  });
});

describe('runner-job-completed.sh', () => {
  it('empties the workspace and the per-job HOME', () => {
    const m = machine();
    const r = hook(completed, m, {});
    expect(r.status).toBe(0);
    expect(readdirSync(m.ws)).toEqual([]);
    expect(readdirSync(join(m.d, 'temp', 'home'))).toEqual([]);
    expect(existsSync(join(m.d, 'runner.conf'))).toBe(true);
  });
});
