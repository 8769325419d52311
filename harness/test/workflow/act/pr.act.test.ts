// SLOW (about two minutes): pr.yml and pr-comment.yml under nektos/act, host mode, offline, with
// the pinned actions' own code (helpers/act/). A branch of this repository plants a regression in
// wc's C reader; pr.yml's diff job plans it with the base's harness, measures base and head in
// pairs (narrowed through the repository variables: smoke, wc c and dd-null, bs=65536) and uploads
// its artifacts; pr-comment.yml, on the workflow_run that follows, downloads them through the
// stand-in REST API and posts the comment there. A fork's pull request goes through the `approve`
// job, which refuses a pull request that moved since the run started (act cannot hold a job for an
// environment's required reviewers: workflows-design.test.ts checks that rule statically).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { artifactFile, artifactFiles, artifactNames } from '../../helpers/act/artifacts.js';
import { type StandInApi, standInApi } from '../../helpers/act/github-api.js';
import { type HostState, hostState } from '../../helpers/act/host.js';
import { type ActRun, runAct, step, why } from '../../helpers/act/runs.js';
import { actReadiness, mustRun } from '../../helpers/act/suite.js';
import { type ActWorld, commitAndPush, makeActWorld, REPOSITORY } from '../../helpers/act/world.js';
import { ROOT } from '../../helpers/cli.js';
import { removeScratch } from '../../helpers/scratch.js';

const { ready, why: missing } = actReadiness();
const PR = 7;
const vars = {
  PR_BUDGET_MINUTES: '2',
  PR_PROFILE: 'smoke',
  PR_BENCH_FLAGS: '--experiments wc --variants c,dd-null --param bs=65536',
};

it.runIf(!ready && mustRun())('act and a local copy of every pinned action are here (CI requires them)', () => {
  expect.fail(missing);
});

/** Extra work per read in wc's C program: a regression the diff must call. */
function plantSpin(d: string) {
  const f = join(d, 'programs', 'wc', 'wc-c.c');
  const marker = '      bytes += (unsigned long long)n;\n';
  const src = readFileSync(f, 'utf8');
  expect(src).toContain(marker);
  writeFileSync(
    f,
    src.replace(marker, `${marker}      for (volatile unsigned long spin = 0; spin < 500000UL; spin++) {}\n`),
  );
}

describe.runIf(ready)('pr.yml and pr-comment.yml under act', () => {
  let w: ActWorld;
  let api: StandInApi;
  let before: HostState;
  beforeAll(async () => {
    before = hostState();
    w = makeActWorld(mkdtempSync(join(tmpdir(), 'jsio-act-pr-')));
    api = await standInApi(REPOSITORY);
  }, 300_000);
  afterAll(async () => {
    await api?.close();
    removeScratch(w?.root);
  });

  const event = (sha: string, fromRepo: string, user = 'alice') => ({
    action: 'synchronize',
    number: PR,
    repository: { full_name: REPOSITORY, default_branch: 'main' },
    sender: { login: user, type: 'User' },
    pull_request: {
      number: PR,
      user: { login: user, type: 'User' },
      head: { sha, ref: 'faster-wc', repo: { full_name: fromRepo } },
      base: { ref: 'main', sha: w.main, repo: { full_name: REPOSITORY } },
    },
  });
  const prRun = (name: string, payload: Record<string, unknown>, job?: string) =>
    runAct({
      world: w,
      name,
      workflow: '.github/workflows/pr.yml',
      event: 'pull_request_target',
      payload,
      vars,
      api,
      ...(job ? { job } : {}),
      tools: { node: ['22'] },
    });
  const openPull = (sha: string) => {
    api.pulls[PR] = { number: PR, state: 'open', head: { sha }, base: { repo: { full_name: REPOSITORY } } };
  };
  let head = '';
  let diff: ActRun;

  it("a branch's pull request: no approval, the base's harness plans, the pairs measure the planted regression", {
    timeout: 900_000,
  }, async () => {
    head = commitAndPush(w, w.main, `refs/pull/${PR}/head`, plantSpin, 'wc-c: read faster (actually slower)');
    openPull(head);
    diff = await prRun('pr-branch', event(head, REPOSITORY));
    expect(diff.status, why(diff)).toBe(0);
    expect(diff.jobs.approve?.result ?? 'skipped').not.toBe('success');
    expect(diff.jobs.plan?.result).toBe('success');
    expect(diff.jobs.diff?.result).toBe('success');
    expect(step(diff, 'plan', "The trusted plan, by the base's harness").output).not.toContain('::error::');
    // Before the diff, the default branch's code marked the head's merge check pending.
    expect(api.statuses.at(-1)).toMatchObject({ sha: head, state: 'pending' });
    expect(artifactNames(diff)).toEqual(['perf-diff', 'trusted-plan']);
    const plan = JSON.parse(artifactFile(diff, 'trusted-plan', 'plan.json')) as { affected: { benchmark: string }[] };
    expect(plan.affected.map((a) => a.benchmark)).toContain('wc/c/bs=65536');
    expect(artifactFiles(diff, 'perf-diff')).toEqual(['comparison.json', 'comparison.md', 'pr-number']);
    expect(artifactFile(diff, 'perf-diff', 'pr-number')).toBe(String(PR));
    const cmp = JSON.parse(artifactFile(diff, 'perf-diff', 'comparison.json')) as {
      head: { commits: string[] };
      base: { commits: string[] };
      points: { variant: string; lead: { verdict: string; ratio: number }; changed?: boolean }[];
    };
    expect(cmp.head.commits).toEqual([head]);
    expect(cmp.base.commits).toEqual([w.main]);
    const wcC = cmp.points.find((p) => p.variant === 'c')!;
    expect(wcC.changed).toBe(true);
    expect(wcC.lead.verdict, JSON.stringify(wcC)).toBe('slower');
    expect(diff.jobs.plan!.summary).toContain('What the base harness found affected');
    expect(diff.jobs.diff!.summary).toContain(artifactFile(diff, 'perf-diff', 'comparison.md').trim().split('\n')[0]!);
  });

  it('pr-comment.yml on the workflow_run that follows: downloads both artifacts and posts the comment naming the commit', {
    timeout: 600_000,
  }, async () => {
    api.runs['4242'] = diff.artifacts;
    const asked = api.requests.length;
    const title = `PR perf diff #${PR} at ${head}`;
    const r = await runAct({
      world: w,
      name: 'pr-comment',
      workflow: '.github/workflows/pr-comment.yml',
      event: 'workflow_run',
      payload: {
        action: 'completed',
        repository: { full_name: REPOSITORY, default_branch: 'main' },
        workflow_run: {
          id: 4242,
          name: 'PR perf diff',
          event: 'pull_request_target',
          path: '.github/workflows/pr.yml',
          conclusion: 'success',
          display_title: title,
          head_sha: head,
          repository: { full_name: REPOSITORY },
        },
      },
      api,
      tools: { node: ['22'] },
    });
    expect(r.status, why(r)).toBe(0);
    expect(step(r, 'comment', /^Check the run/).output).toContain(`sha=${head}`);
    expect(api.comments.map((c) => c.issue)).toEqual([PR]);
    const body = api.comments[0]!.body;
    expect(body).toContain(head);
    expect(body).toContain('**Merge check');
    expect(body).toContain('passes**');
    expect(body).toMatch(/\| wc c bs=65536 \|/);
    // A commit status on the head, when the workflow posts one (it needs `statuses: write`).
    const wf = parse(readFileSync(join(ROOT, '.github', 'workflows', 'pr-comment.yml'), 'utf8')) as {
      jobs: Record<string, { permissions?: Record<string, string> }>;
    };
    const posts = api.requests.slice(asked).filter((q) => q.method === 'POST' && q.path.includes('/statuses/'));
    if (Object.values(wf.jobs).some((j) => j.permissions?.statuses === 'write')) {
      expect(posts.map((p) => p.path)).toEqual([`/repos/${REPOSITORY}/statuses/${head}`]);
    } else expect(posts).toEqual([]);
    expect(api.unanswered()).toEqual([]);
  });

  it("a fork's pull request waits for `approve`, which refuses a pull request that moved: nothing is measured", {
    timeout: 600_000,
  }, async () => {
    const forkHead = commitAndPush(w, w.main, 'refs/pull/8/head', plantSpin, 'from a fork');
    api.pulls[PR] = {
      number: PR,
      state: 'open',
      head: { sha: 'f'.repeat(40) },
      base: { repo: { full_name: REPOSITORY } },
    };
    const r = await prRun('pr-fork-moved', event(forkHead, 'stranger/jsio-bench', 'stranger'));
    expect(r.status).not.toBe(0);
    expect(r.jobs.approve?.result).toBe('failure');
    expect(step(r, 'approve', 'Refuse if the pull request moved since this run was started').output).toContain(
      `its head is now ${'f'.repeat(40)}`,
    );
    expect(r.jobs.diff?.result).not.toBe('success');
    expect(artifactNames(r)).not.toContain('perf-diff');
  });

  it('left the machine alone: its HOME and git configuration are as they were', () => {
    expect(hostState()).toEqual(before);
  });
});
