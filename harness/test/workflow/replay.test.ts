// SLOW (a few minutes; it installs npm dependencies in fresh checkouts and runs real benchmarks):
// pr.yml and pr-comment.yml replayed job by job from the YAML files themselves
// (helpers/workflow-replay.ts): a fresh "GitHub" repository holding a snapshot of this working
// tree, GitHub's variables and environment files, the `uses:` steps reproduced by hand. Smoke
// size, narrowed to wc (variants c and dd-null, bs=65536). The runs under nektos/act
// (act/*.act.test.ts) check every workflow with the actions' own code, and what passes from one
// workflow to the next through gh-pages; what stays here is what act cannot hold: one self-hosted
// runner's workspace kept from one run of a pull request to the next (act starts every job in a
// fresh one), so that the second push finds the first run's base worktree and updates the sticky
// comment rather than posting a second, and a fork's approved run (act runs `approve` at once).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIRS_COMPARISON_SCHEMA } from '../../src/formats/comparison-format.js';
import { commentTarget } from '../../src/workflow/workflow-run.js';
import { ROOT } from '../helpers/cli.js';
import { evaluateIf, interpolate } from '../helpers/gh-expr.js';
import { commitAndPush, type FakeGitHub, fakeGitHub, makeWorld, REPO, type World } from '../helpers/replay-fixture.js';
import { removeScratch } from '../helpers/scratch.js';
import { type JobResult, localActions, type Runner, readWorkflow, runJob } from '../helpers/workflow-replay.js';

const WF = (f: string) => readWorkflow(join(ROOT, '.github', 'workflows', f));
const pr = WF('pr.yml');
const prComment = WF('pr-comment.yml');
const NARROW = { experiments: 'wc', variants: 'c,dd-null', params: 'bs=65536' };
const VERBOSE = process.env.JSIO_REPLAY_VERBOSE === '1';

let api: FakeGitHub;

function runner(name: string, artifacts: string, w: World): Runner {
  return {
    repository: REPO,
    remote: w.remote,
    workspace: join(w.root, name, '_work', 'jsio-bench', 'jsio-bench'),
    toolCache: w.toolCache,
    artifacts,
    home: join(w.root, name, 'home'),
    env: { GITHUB_API_URL: api.url },
    runnerName: 'replay-runner',
    prelude: w.prelude,
  };
}

const actions = localActions();

/** The step that failed, with the end of its log, for assertion messages. */
const why = (r: JobResult) => (r.failed ? `${r.failed.name}:\n${r.failed.log.slice(-3000)}` : 'no step failed');

beforeAll(async () => {
  api = await fakeGitHub();
}, 300_000);
afterAll(() => api?.close());

describe('pr.yml and pr-comment.yml, replayed (a fork with a planted regression)', () => {
  // Before any publish (no gh-pages yet: compare says it used no calibration); a PR diff after a
  // publish is bench.act.test.ts's.
  let wp: World;
  beforeAll(() => {
    wp = makeWorld(mkdtempSync(join(tmpdir(), 'jsio-replay-pr-')));
  }, 300_000);
  afterAll(() => removeScratch(wp?.root));
  const artifacts = () => join(wp.root, 'artifacts-pr');
  const PR = 7;
  let head1 = '';
  const plant = (d: string) => {
    const f = join(d, 'programs', 'wc', 'wc-c.c');
    const src = readFileSync(f, 'utf8');
    const marker = '      bytes += (unsigned long long)n;\n';
    expect(src).toContain(marker);
    // Extra work per read: the kind of regression the diff must call. Several times a read's own
    // cost, yet few enough instructions that pr.yml's counting of it under Valgrind stays short.
    writeFileSync(
      f,
      src.replace(marker, `${marker}      for (volatile unsigned long spin = 0; spin < 50000UL; spin++) {}\n`),
    );
  };
  const event = (sha: string, action = 'synchronize') => ({
    action,
    number: PR,
    repository: { full_name: REPO, default_branch: 'main' },
    sender: { login: 'stranger', type: 'User' },
    pull_request: {
      number: PR,
      user: { login: 'stranger', type: 'User' },
      head: { sha, ref: 'faster-wc', repo: { full_name: 'stranger/jsio-bench' } },
      base: { ref: 'main', sha: wp.main, repo: { full_name: REPO } },
    },
  });
  const github = (sha: string) => ({
    event_name: 'pull_request_target',
    sha: wp.main,
    ref: 'refs/heads/main',
    event: event(sha),
  });
  const vars = {
    PR_BUDGET_MINUTES: '1',
    PR_PROFILE: 'smoke',
    PR_BENCH_FLAGS: `--experiments ${NARROW.experiments} --variants ${NARROW.variants} --param ${NARROW.params}`,
  };
  const openPull = (sha: string) => {
    api.pulls[PR] = { number: PR, state: 'open', head: { sha }, base: { repo: { full_name: REPO } } };
  };
  const approve = (sha: string) =>
    runJob({
      workflow: pr,
      job: 'approve',
      github: github(sha),
      vars,
      actions,
      runner: runner('hosted-pr', artifacts(), wp),
      verbose: VERBOSE,
    });
  const planJob = (sha: string) =>
    runJob({
      workflow: pr,
      job: 'plan',
      github: github(sha),
      vars,
      actions,
      runner: runner('hosted-plan', artifacts(), wp),
      verbose: VERBOSE,
    });
  const diff = (sha: string, approveResult: string) =>
    runJob({
      workflow: pr,
      job: 'diff',
      github: github(sha),
      vars,
      needs: { plan: { result: 'success' }, approve: { result: approveResult } },
      actions,
      runner: runner('m1', artifacts(), wp),
      verbose: VERBOSE,
    });
  const comment = (sha: string) => {
    const title = interpolate(pr['run-name']!, { github: github(sha) });
    return runJob({
      workflow: prComment,
      job: 'comment',
      // The same repository variables as pr.yml's: the comment job plans the diff again with them.
      vars,
      github: {
        event_name: 'workflow_run',
        sha: wp.main,
        ref: 'refs/heads/main',
        event: {
          repository: { full_name: REPO, default_branch: 'main' },
          workflow_run: {
            id: 99,
            event: 'pull_request_target',
            path: '.github/workflows/pr.yml',
            conclusion: 'success',
            display_title: title,
            repository: { full_name: REPO },
          },
        },
      },
      actions,
      runner: runner('hosted-comment', artifacts(), wp),
      verbose: VERBOSE,
    });
  };

  it("the plan job runs first and runs no pull-request code: the base's harness plans, uploads, marks the check pending", {
    timeout: 600_000,
  }, async () => {
    head1 = commitAndPush(wp, wp.main, `refs/pull/${PR}/head`, plant, 'wc-c: read faster (actually slower)');
    const p = await planJob(head1);
    expect(p.result, why(p)).toBe('success');
    // Only the head's checkout touches its files; every command runs in the base's worktree.
    const ran = pr.jobs.plan!.steps.filter((s) => s.run).map((s) => s['working-directory'] ?? '.');
    expect(new Set(ran)).toEqual(new Set(['.', 'base']));
    expect(p.steps.find((s) => s.name === "The trusted plan, by the base's harness")!.log).not.toContain('::error::');
    expect(p.summary).toContain('What the base harness found affected');
    expect(api.statuses.at(-1)).toMatchObject({ sha: head1, state: 'pending', context: 'jsio-bench / perf diff' });
  });

  it("approved at the same commit: the base's harness measures base and head, and the comment job judges, comments and sets the check", {
    timeout: 1_200_000,
  }, async () => {
    openPull(head1);
    const a = await approve(head1);
    expect(a.result, why(a)).toBe('success');
    const d = await diff(head1, 'success');
    expect(d.result, why(d)).toBe('success');
    // No harness change in the plan: the base's harness ran the diff.
    expect(d.steps.find((s) => s.name?.startsWith('Which harness measures'))!.outputs).toEqual({
      side: 'base',
      harness: 'unchanged',
    });
    // Nothing to record when the harness did not change.
    expect(d.steps.find((s) => s.name?.startsWith('Record what both harnesses'))?.outcome ?? 'skipped').toBe('skipped');
    // The merge check is no step of this job: the comment job's commit status is.
    expect(d.steps.some((s) => s.name?.startsWith('Merge check'))).toBe(false);
    expect(existsSync(join(artifacts(), 'perf-diff', 'pairs.json'))).toBe(true);
    expect(d.env.JSIO_CACHE).toBe(join(wp.toolCache, 'jsio-bench', 'pr'));
    const cmp = JSON.parse(readFileSync(join(artifacts(), 'perf-diff', 'comparison.json'), 'utf8')) as {
      schema: number;
      head: { commits: string[] };
      base: { commits: string[] };
      points: {
        experiment: string;
        variant: string;
        pairs: number;
        lead: { metric: string; verdict: string; ratio: number };
        changed?: boolean;
        work?: { status: string; verdict?: string; change?: number; role?: string };
      }[];
    };
    // The base (this working tree's snapshot) reads the newest schema: written at it.
    expect(cmp.schema).toBe(PAIRS_COMPARISON_SCHEMA);
    expect(cmp.head.commits).toEqual([head1]);
    expect(cmp.base.commits).toEqual([wp.main]);
    // The planted regression is measured in pairs: wc/c is slower at the head. By how much is the
    // CPU's (the spin's cost against a read's: over 2 times on earlier sessions' VMs, 1.6 on this
    // one), so only the direction is asserted; whether the timing verdict is "slower" or
    // "inconclusive" depends on how busy the machine is (a loaded run said the latter), so what is
    // asserted exactly is the counts: the spin is extra work per read, which they call at once.
    const wcC = cmp.points.find((p) => p.variant === 'c')!;
    expect(wcC.lead.ratio, JSON.stringify(wcC)).toBeGreaterThan(1);
    expect(wcC.pairs).toBeGreaterThanOrEqual(10);
    expect(['slower', 'inconclusive']).toContain(wcC.lead.verdict);
    expect(wcC.work, JSON.stringify(wcC)).toMatchObject({ status: 'counted', verdict: 'changed', role: 'decides' });
    expect(wcC.work!.change!).toBeGreaterThan(0);
    // The PR changed the program: a PR diff exists to show exactly that, so it is compared (and
    // marked), never filed as "redefined" under unchanged.
    expect(wcC.changed).toBe(true);
    expect(readFileSync(join(artifacts(), 'perf-diff', 'pr-number'), 'utf8')).toBe(String(PR));
    // The base's harness planned the diff before any pull-request code ran: the changed program's
    // points are in its plan, which went up as its own artifact.
    const plan = JSON.parse(readFileSync(join(artifacts(), 'trusted-plan', 'plan.json'), 'utf8')) as {
      affected: { benchmark: string }[];
    };
    expect(plan.affected.map((a) => a.benchmark)).toContain('wc/c/bs=65536');

    const c = await comment(head1);
    expect(c.result, why(c)).toBe('success');
    expect(c.steps.find((s) => s.name?.startsWith('Check the run'))!.outputs).toEqual({ pr: String(PR), sha: head1 });
    expect(c.steps.find((s) => s.name?.startsWith('Plan the diff again'))!.log).not.toContain('::error::');
    expect(api.comments.map((x) => x.issue)).toEqual([PR]);
    const body = api.comments[0]!.body;
    expect(body).toMatch(/\| wc c bs=65536 \| (read_cost|wall_time) \| [^|]+ \| [^|]+ \| \+\d/);
    // The comment job judged the pairs again (they agree), planned again, and set the check on the
    // head under the default rule (nothing broken: it passes).
    expect(body).toContain("**Merge check (decided by the default branch's code): passes**");
    expect(body).not.toContain('said otherwise');
    expect(c.steps.find((s) => s.name?.startsWith('Plan the diff again'))!.outcome).toBe('success');
    expect(api.statuses.at(-1)).toMatchObject({ sha: head1, state: 'success', context: 'jsio-bench / perf diff' });
    expect(body).toContain(head1.slice(0, 12));
    // The comment names the full commit measured.
    expect(body).toContain(head1);
  });

  it('runs again on the same runner after the fork pushed (the previous base worktree is still there)', {
    timeout: 1_200_000,
  }, async () => {
    expect(existsSync(join(runner('m1', artifacts(), wp).workspace, 'base', '.git'))).toBe(true);
    // The second push takes the slowdown back out: nothing the benchmarks run differs from the base
    // any more, so the diff measures only its control, and the sticky comment must say so.
    const head2 = commitAndPush(
      wp,
      wp.main,
      `refs/pull/${PR}/head`,
      (d) => writeFileSync(join(d, 'NOTE'), 'second push\n'),
      'second push: the read loop as it was',
    );
    openPull(head2);
    const p = await planJob(head2);
    expect(p.result, why(p)).toBe('success');
    const a = await approve(head2);
    expect(a.result, why(a)).toBe('success');
    const d = await diff(head2, 'success');
    expect(d.result, why(d)).toBe('success');
    const cmp = JSON.parse(readFileSync(join(artifacts(), 'perf-diff', 'comparison.json'), 'utf8')) as {
      head: { commits: string[] };
    };
    expect(cmp.head.commits).toEqual([head2]);
    const c = await comment(head2);
    expect(c.result, why(c)).toBe('success');
    expect(api.comments).toHaveLength(1);
    expect(api.comments[0]!.body).toContain(head2.slice(0, 12));
    expect(api.comments[0]!.body).toMatch(/^## Performance: 0 affected · /m);
    expect(api.statuses.at(-1)).toMatchObject({ sha: head2, state: 'success' });
    expect(api.comments[0]!.body).not.toContain(head1);
  });

  it("a fork's workflow that is only named like ours: pr-comment skips the run, and its check would refuse it", () => {
    const forkRun = {
      repository: { full_name: REPO, default_branch: 'main' },
      workflow_run: {
        id: 5,
        event: 'pull_request',
        path: '.github/workflows/pr.yml',
        conclusion: 'success',
        display_title: `PR perf diff #${PR} at ${head1}`,
        repository: { full_name: REPO },
      },
    };
    expect(evaluateIf(prComment.jobs.comment!.if, { github: { event: forkRun } })).toBe(false);
    expect(() =>
      commentTarget(
        forkRun,
        { repository: REPO, workflowPath: '.github/workflows/pr.yml' },
        { prNumber: String(PR), headCommits: [head1] },
      ),
    ).toThrow(/not by pull_request_target/);
  });
});
