// SLOW (about two minutes on a quiet machine): pr.yml and pr-comment.yml under nektos/act, host mode, offline, with
// the pinned actions' own code (helpers/act/). A branch of this repository plants a regression in
// wc's C reader; pr.yml's diff job plans it with the base's harness, measures base and head in
// pairs (narrowed through the repository variables: smoke, wc c and dd-null, bs=65536) and uploads
// its artifacts; pr-comment.yml, on the workflow_run that follows, downloads them through the
// stand-in REST API and posts the comment there. A fork's pull request goes through the `approve`
// job, which refuses a pull request that moved since the run started (act cannot hold a job for an
// environment's required reviewers: workflows-design.test.ts checks that rule statically).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrustedPlan } from '../../../src/workflow/artifact.js';
import { STATUS_CONTEXT } from '../../../src/workflow/github.js';
import { artifactFile, artifactFiles, artifactNames } from '../../helpers/act/artifacts.js';
import { type StandInApi, standInApi } from '../../helpers/act/github-api.js';
import { type HostState, hostState } from '../../helpers/act/host.js';
import { type ActRun, runAct, step, why } from '../../helpers/act/runs.js';
import { actReadiness, unlessActReady } from '../../helpers/act/suite.js';
import { type ActWorld, commitAndPush, makeActWorld, REPOSITORY } from '../../helpers/act/world.js';
import { removeScratch } from '../../helpers/scratch.js';

const readiness = actReadiness();
const { ready } = readiness;
unlessActReady(readiness);
const PR = 7;
const vars = {
  PR_BUDGET_MINUTES: '1',
  PR_PROFILE: 'smoke',
  PR_BENCH_FLAGS: '--experiments wc --variants c,dd-null --param bs=65536',
};

/**
 * Extra work per read in wc's C program: a regression the diff must call. A few times a read's own
 * cost, few enough instructions that counting them under Valgrind takes seconds.
 */
function plantSpin(d: string) {
  const f = join(d, 'programs', 'wc', 'wc-c.c');
  const marker = '      bytes += (unsigned long long)n;\n';
  const src = readFileSync(f, 'utf8');
  expect(src).toContain(marker);
  writeFileSync(
    f,
    src.replace(marker, `${marker}      for (volatile unsigned long spin = 0; spin < 50000UL; spin++) {}\n`),
  );
}

describe.runIf(ready)('pr.yml and pr-comment.yml under act', () => {
  let w: ActWorld;
  let api: StandInApi;
  let before: HostState;
  beforeAll(async () => {
    before = hostState();
    w = makeActWorld(mkdtempSync(join(tmpdir(), 'jsio-act-pr-')), { pages: true });
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
  /** pr-comment.yml on the workflow_run of a finished pr.yml run (its artifacts served as run `id`'s). */
  const commentRun = (name: string, id: number, of: ActRun, sha: string, conclusion: 'success' | 'failure') => {
    api.runs[String(id)] = of.artifacts;
    return runAct({
      world: w,
      name,
      workflow: '.github/workflows/pr-comment.yml',
      event: 'workflow_run',
      payload: {
        action: 'completed',
        repository: { full_name: REPOSITORY, default_branch: 'main' },
        workflow_run: {
          id,
          name: 'PR perf diff',
          event: 'pull_request_target',
          path: '.github/workflows/pr.yml',
          conclusion,
          display_title: `PR perf diff #${PR} at ${sha}`,
          head_sha: sha,
          repository: { full_name: REPOSITORY },
        },
      },
      api,
      vars,
      tools: { node: ['22'] },
    });
  };
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
    expect(api.statuses).toEqual([
      {
        sha: head,
        state: 'pending',
        context: STATUS_CONTEXT,
        description: "planned by the default branch's code; waiting for the diff",
      },
    ]);
    expect(artifactNames(diff)).toEqual(['perf-diff', 'trusted-plan']);
    expect(artifactFiles(diff, 'trusted-plan')).toEqual(['plan.json']);
    const planFile = join(w.root, 'plan.json');
    writeFileSync(planFile, artifactFile(diff, 'trusted-plan', 'plan.json'));
    const plan = readTrustedPlan(planFile);
    expect(plan.base.commit).toBe(w.main);
    expect(plan.head.commit).toBe(head);
    expect(plan.profile).toBe('smoke');
    // The narrowing of the repository variables: wc's C reader at one block size, dd-null the control.
    expect(plan.affected.map((a) => a.benchmark)).toEqual(['wc/c/bs=65536']);
    expect(plan.control).toEqual(['wc/dd-null/bs=65536']);
    expect(plan.harnessChange.changed).toBe(false);
    // The diff measured with the harness `workflow measuring-side` chose from that plan: the base's.
    const side = step(diff, 'diff', /^Which harness measures/);
    expect(side.output).toContain("the base's harness measures");
    const pairsRuns = diff.npm.filter((c) =>
      c.args.startsWith('run pairs -- --base ../base --head ../head --base-just '),
    );
    expect(pairsRuns.map((c) => basename(c.cwd))).toEqual(['base']);
    expect(artifactFiles(diff, 'perf-diff')).toEqual(['comparison.json', 'comparison.md', 'pairs.json', 'pr-number']);
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
    const asked = api.requests.length;
    const r = await commentRun('pr-comment', 4242, diff, head, 'success');
    expect(r.status, why(r)).toBe(0);
    expect(step(r, 'comment', /^Check the run/).output).toContain(`sha=${head}`);
    expect(api.comments.map((c) => c.issue)).toEqual([PR]);
    const body = api.comments[0]!.body;
    expect(body).toContain(head);
    expect(body).toContain('**Merge check');
    expect(body).toContain('passes**');
    expect(body).toMatch(/\| wc c bs=65536 \|/);
    // The comment job planned again with the same narrowing and agreed with the uploaded plan.
    expect(body).not.toContain('Trusted plan:');
    // The merge check on the head: pending from the plan job, then the comment job's judgement.
    expect(api.statuses.map((x) => [x.sha, x.context, x.state])).toEqual([
      [head, STATUS_CONTEXT, 'pending'],
      [head, STATUS_CONTEXT, 'success'],
    ]);
    expect(api.statuses[1]!.description).toBeTruthy();
    expect(body).toContain(api.statuses[1]!.description!.replace(/…$/, ''));
    expect(
      api.requests
        .slice(asked)
        .filter((q) => q.method === 'POST')
        .map((q) => q.path),
    ).toEqual([`/repos/${REPOSITORY}/issues/${PR}/comments`, `/repos/${REPOSITORY}/statuses/${head}`]);
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
    expect(artifactNames(r)).toEqual(['trusted-plan']);
    // The comment job that follows the failed run has nothing to judge: it fails the merge check and posts no comment.
    const comments = api.comments.length;
    const c = await commentRun('pr-comment-fork', 4243, r, forkHead, 'failure');
    expect(c.status, why(c)).toBe(0);
    expect(step(c, 'comment', /^Check the run/).result).toBe('skipped');
    expect(api.comments.length).toBe(comments);
    expect(api.statuses.filter((x) => x.sha === forkHead)).toEqual([
      {
        sha: forkHead,
        state: 'pending',
        context: STATUS_CONTEXT,
        description: "planned by the default branch's code; waiting for the diff",
      },
      {
        sha: forkHead,
        state: 'failure',
        context: STATUS_CONTEXT,
        description: 'the PR diff left no artifact to judge',
      },
    ]);
  });

  it('left the machine alone: its HOME and git configuration are as they were', () => {
    expect(hostState()).toEqual(before);
  });
});
