// The workflow files against the security design of docs/runners.md and the job
// contracts of docs/workflows.md, read from the YAML itself: which events reach the
// self-hosted machines, with which permissions and gates, what each trust level may read or
// write, where tokens go, and how github-action-benchmark is fed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { classifyPullRequest } from '../../src/workflow/pr-gate.js';
import { RUN_TITLE_RE } from '../../src/workflow/workflow-run.js';
import { ROOT } from '../helpers/cli.js';
import { evaluateIf, interpolate } from '../helpers/gh-expr.js';

type Step = {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  if?: string;
  id?: string;
  'working-directory'?: string;
};
type Job = {
  steps: Step[];
  if?: string;
  needs?: string | string[];
  concurrency?: { group: string; 'cancel-in-progress'?: boolean };
  permissions?: Record<string, string>;
  'runs-on': unknown;
  environment?: unknown;
  env?: Record<string, string>;
};
type Workflow = {
  name: string;
  'run-name'?: string;
  on: Record<string, any>;
  permissions?: Record<string, string>;
  concurrency?: unknown;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
};

const dir = join(ROOT, '.github', 'workflows');
const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
const text = Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
const wf = Object.fromEntries(files.map((f) => [f, parse(text[f]!) as Workflow]));
const jobs = (f: string) => Object.entries(wf[f]!.jobs);
const allJobs = files.flatMap((f) => jobs(f).map(([name, job]) => ({ f, name, job })));
const selfHosted = (job: Job) => JSON.stringify(job['runs-on']).includes('self-hosted');
const shJobs = allJobs.filter(({ job }) => selfHosted(job));
const level = (f: string) => (f === 'pr.yml' ? 'pr' : 'trusted');
const uses = (s: Step, action: string) => s.uses?.startsWith(`${action}@`) ?? false;

describe('which events reach the self-hosted machines', () => {
  it('only bench.yml, calibrate.yml, pr.yml and releases.yml have self-hosted jobs', () => {
    expect([...new Set(shJobs.map((j) => j.f))].sort()).toEqual([
      'bench.yml',
      'calibrate.yml',
      'pr.yml',
      'releases.yml',
    ]);
  });

  it('no workflow with a self-hosted job runs on an event whose workflow file a pull request supplies', () => {
    for (const f of ['bench.yml', 'calibrate.yml', 'pr.yml', 'releases.yml']) {
      for (const ev of [
        'pull_request',
        'pull_request_review',
        'pull_request_review_comment',
        'issue_comment',
        'workflow_run',
        'workflow_call',
      ])
        expect(Object.keys(wf[f]!.on), `${f} ${ev}`).not.toContain(ev);
    }
  });

  it('pr.yml runs from the default branch (pull_request_target), never on a label, for pull requests into main', () => {
    expect(wf['pr.yml']!.on).toEqual({
      pull_request_target: { branches: ['main'], types: ['opened', 'synchronize', 'reopened'] },
    });
  });

  it('bench.yml, calibrate.yml and releases.yml run their self-hosted jobs only from main', () => {
    for (const f of ['bench.yml', 'calibrate.yml', 'releases.yml'])
      for (const [name, job] of jobs(f))
        if (selfHosted(job)) expect(job.if, `${f} ${name}`).toBe("github.ref == 'refs/heads/main'");
  });

  it('a dispatched ref of bench.yml must be a commit of main, checked before any of its code runs', () => {
    const steps = wf['bench.yml']!.jobs.bench!.steps;
    const i = steps.findIndex((s) => s.run?.includes('merge-base --is-ancestor HEAD origin/main'));
    expect(steps[i]!.if).toBe("inputs.ref != ''");
    expect(steps.slice(0, i).some((s) => /\bnpm (ci|run)\b/.test(s.run ?? ''))).toBe(false);
    expect(steps.findIndex((s) => uses(s, 'actions/checkout'))).toBeLessThan(i);
  });
});

describe('pr.yml: who reaches the machine, and for which commit', () => {
  const pr = wf['pr.yml']!;
  const approve = pr.jobs.approve!;
  const diff = pr.jobs.diff!;
  const event = (o: { fork?: boolean; userBot?: boolean; senderBot?: boolean }) => ({
    repository: { full_name: 'owner/jsio-bench' },
    sender: { login: o.senderBot ? 'dependabot[bot]' : 'alice', type: o.senderBot ? 'Bot' : 'User' },
    pull_request: {
      number: 7,
      user: { login: o.userBot ? 'dependabot[bot]' : 'alice', type: o.userBot ? 'Bot' : 'User' },
      head: { sha: 'a'.repeat(40), repo: { full_name: o.fork ? 'stranger/jsio-bench' : 'owner/jsio-bench' } },
      base: { ref: 'main' },
    },
  });
  const ctx = (e: ReturnType<typeof event>, approveResult?: string, planResult = 'success') => ({
    github: { repository: 'owner/jsio-bench', event: e },
    needs: approveResult ? { plan: { result: planResult }, approve: { result: approveResult } } : {},
  });

  it.each([
    ['a branch of this repository, pushed by a person', {}],
    ['a fork', { fork: true }],
    ['Dependabot', { userBot: true, senderBot: true }],
    ['a person pushing onto a bot branch', { userBot: true }],
    ['a bot pushing onto a person branch', { senderBot: true }],
    ['a fork by a bot', { fork: true, userBot: true }],
  ])(
    '%s: approval needed exactly when the harness rule says so, and the benchmark runs only approved or trusted',
    (_n, o) => {
      const e = event(o);
      const needsApproval = classifyPullRequest(e).trust === 'needs-approval';
      expect(evaluateIf(approve.if, ctx(e))).toBe(needsApproval);
      const approveResult = needsApproval ? 'success' : 'skipped';
      expect(evaluateIf(diff.if, ctx(e, approveResult))).toBe(true);
      // No plan by the default branch's code, no diff.
      for (const r of ['failure', 'cancelled']) expect(evaluateIf(diff.if, ctx(e, approveResult, r)), r).toBe(false);
      if (needsApproval) {
        for (const r of ['skipped', 'failure', 'cancelled']) expect(evaluateIf(diff.if, ctx(e, r)), r).toBe(false);
      }
    },
  );

  it('the approval is a required-reviewer environment on a GitHub-hosted job that runs no pull-request code and checks the head did not move', () => {
    expect(approve.environment).toBe('pr-benchmark');
    expect(selfHosted(approve)).toBe(false);
    expect(approve.permissions).toEqual({ contents: 'read', 'pull-requests': 'read' });
    const checkouts = approve.steps.filter((s) => uses(s, 'actions/checkout'));
    expect(checkouts.map((s) => s.with?.ref)).toEqual([undefined]);
    const check = approve.steps.find((s) => s.run?.includes('workflow -- pr-head'))!;
    expect(check.run).toBe('npm run workflow -- pr-head --pr "$PR_NUMBER" --sha "$HEAD_SHA"');
    expect(check.env).toMatchObject({
      PR_NUMBER: '${{ github.event.pull_request.number }}',
      HEAD_SHA: '${{ github.event.pull_request.head.sha }}',
    });
    expect(diff.needs).toEqual(['plan', 'approve']);
  });

  it('the plan job runs before any pull-request code: the head only as data, every command in the base', () => {
    const plan = pr.jobs.plan!;
    expect(plan.needs).toBeUndefined();
    expect(selfHosted(plan)).toBe(false);
    expect(plan.permissions).toEqual({ contents: 'read', statuses: 'write' });
    const checkouts = plan.steps.filter((s) => uses(s, 'actions/checkout'));
    expect(checkouts.map((s) => s.with?.['persist-credentials'])).toEqual([false, false]);
    // The second is the trend store's traces of the merge base, read-only.
    expect(checkouts[1]!.with).toMatchObject({
      ref: 'gh-pages',
      'sparse-checkout': 'data/*/traces/${{ steps.base.outputs.sha }}.json',
    });
    expect(plan.steps.some((s) => s.run?.includes('--trace --store ../pages/data'))).toBe(true);
    for (const s of plan.steps.filter((x) => /\bnpm\b/.test(x.run ?? ''))) expect(s['working-directory']).toBe('base');
    expect(plan.steps.some((s) => s.run?.includes('--base . --head ../head --plan --json'))).toBe(true);
    // In the diff job, the base's side (dependencies, the just(js) installer, which harness) comes before the head's.
    const at = (re: RegExp) => diff.steps.findIndex((s) => re.test(s.run ?? ''));
    const headCode = diff.steps.findIndex((s) => s['working-directory'] === 'head' && /npm/.test(s.run ?? ''));
    expect(at(/install-just/)).toBeLessThan(headCode);
    expect(at(/measuring-side/)).toBeLessThan(headCode);
    expect(diff.steps.find((s) => /npm run pairs/.test(s.run ?? ''))!['working-directory']).toBe(
      '${{ steps.side.outputs.side }}',
    );
  });

  it('the run is titled with the pull request and the commit, as pr-comment reads it back', () => {
    const title = interpolate(pr['run-name']!, { github: { event: event({}) } });
    expect(RUN_TITLE_RE.exec(title)?.slice(1)).toEqual(['7', 'a'.repeat(40)]);
  });

  it('benchmarks exactly the commit of the event, with a read-only token', () => {
    const head = diff.steps.find((s) => uses(s, 'actions/checkout') && s.with?.path === 'head')!;
    expect(head.with).toMatchObject({ ref: '${{ github.event.pull_request.head.sha }}', 'persist-credentials': false });
    expect(diff.steps.some((s) => s.run?.includes('test "$(git -C head rev-parse HEAD)" = "$HEAD_SHA"'))).toBe(true);
    expect(diff.permissions).toEqual({ contents: 'read' });
    expect(text['pr.yml']).not.toMatch(/secrets\./);
  });

  it('claims its concurrency group only when it benchmarks; approvals wait in another group', () => {
    expect(pr.concurrency).toBeUndefined();
    expect(diff.concurrency).toEqual({
      group: 'pr-perf-${{ github.event.pull_request.number }}',
      'cancel-in-progress': true,
    });
    expect(approve.concurrency?.group).toBe('pr-approval-${{ github.event.pull_request.number }}');
  });

  it('fetches the calibrations (a token-holding action) before any pull-request code runs', () => {
    const names = diff.steps.map((s) => s.name ?? s.uses ?? s.run ?? '');
    const calib = diff.steps.findIndex((s) => uses(s, 'actions/checkout') && s.with?.ref === 'gh-pages');
    const firstCode = diff.steps.findIndex((s) => /npm (ci|run)/.test(s.run ?? ''));
    expect(calib, names.join(' | ')).toBeGreaterThan(-1);
    expect(calib).toBeLessThan(firstCode);
  });

  it('works on a runner whose workspace kept the previous run (empty workspace, pruned worktrees)', () => {
    const runs = diff.steps.map((s) => s.run ?? '').join('\n');
    expect(runs).toContain('find . -mindepth 1 -maxdepth 1 -exec rm -rf -- {} +');
    expect(runs.indexOf('git -C head worktree prune')).toBeLessThan(runs.indexOf('git -C head worktree add'));
  });
});

describe('pr-comment.yml posts only what our own pr.yml measured', () => {
  const job = wf['pr-comment.yml']!.jobs.comment!;
  it('runs for pull_request_target runs only, checks the run and the artifact, then posts', () => {
    expect(job.if).toContain("github.event.workflow_run.event == 'pull_request_target'");
    const i = job.steps.findIndex((s) => s.run?.includes('workflow -- comment-target'));
    const j = job.steps.findIndex((s) => s.run?.includes('npm run pr-comment'));
    expect(job.steps[i]!.run).toContain('--workflow-path .github/workflows/pr.yml --artifact artifact');
    expect(i).toBeGreaterThan(-1);
    expect(i).toBeLessThan(j);
    expect(job.steps[j]!.env?.PR_NUMBER).toBe('${{ steps.target.outputs.pr }}');
  });
  it('never checks out pull-request code', () => {
    expect(job.steps.filter((s) => uses(s, 'actions/checkout')).map((s) => s.with?.ref)).toEqual([
      '${{ github.event.repository.default_branch }}',
    ]);
  });
});

describe('trust levels on the machines', () => {
  it.each(shJobs.map((j) => [`${j.f} ${j.name}`, j] as const))(
    '%s: fresh HOME, its own level of caches, no GitHub cache, no setup-node, no sudo',
    (_n, { f, job }) => {
      const first = job.steps[0]!;
      expect(first.run).toContain('echo "HOME=$RUNNER_TEMP/home"');
      expect(first.run).toContain(`echo "JSIO_CACHE=$RUNNER_TOOL_CACHE/jsio-bench/${level(f)}"`);
      expect(first.run).toContain(`echo "npm_config_cache=$RUNNER_TOOL_CACHE/jsio-bench/${level(f)}/npm"`);
      const runs = job.steps.map((s) => s.run ?? '').join('\n');
      expect(runs).toContain('install-just -- "$JSIO_CACHE/just"');
      expect(runs).toMatch(/ln -sfn "\$JSIO_CACHE\/runtimes" ("\$side\/)?\.cache\/runtimes/);
      expect(runs).not.toMatch(/\bsudo\b/);
      for (const s of job.steps) {
        expect(uses(s, 'actions/cache') || uses(s, 'actions/setup-node'), `${f}: ${s.uses}`).toBe(false);
      }
    },
  );

  // each level has its own agent and Unix account (docs/runners.md); the labels route
  // each job to its level's agent, whose job-started hook refuses the other level's workflows.
  it("pull-request jobs go to the pull-request level's agent, trusted jobs never do", () => {
    for (const { f, name, job } of shJobs) {
      const labels = job['runs-on'] as string[];
      if (level(f) === 'pr') expect(labels, `${f} ${name}`).toEqual(['self-hosted', 'linux', 'jsio-bench-pr']);
      else {
        expect(labels.slice(0, 3), `${f} ${name}`).toEqual(['self-hosted', 'linux', 'jsio-bench']);
        expect(labels, `${f} ${name}`).not.toContain('jsio-bench-pr');
      }
    }
  });

  it('no workflow uses the GitHub Actions cache (a pull_request_target job may write the default branch scope)', () => {
    for (const f of files) {
      expect(text[f], f).not.toMatch(/actions\/cache@/);
      for (const [, job] of jobs(f))
        for (const s of job.steps)
          if (uses(s, 'actions/setup-node') || uses(s, 'actions/setup-go'))
            expect(s.with?.cache ?? false, f).not.toBeTruthy();
    }
  });

  it('no self-hosted job has write permissions or secrets', () => {
    for (const { f, name, job } of shJobs) {
      expect(JSON.stringify(job.permissions ?? wf[f]!.permissions), `${f} ${name}`).not.toMatch(/write/);
      expect(JSON.stringify(job), `${f} ${name}`).not.toMatch(/secrets\./);
    }
  });
});

describe('tokens and install scripts', () => {
  it('no ${{ }} expression in any run: line (values go through env:)', () => {
    for (const { f, name, job } of allJobs)
      for (const s of job.steps) if (s.run) expect(s.run, `${f} ${name}: ${s.name ?? s.run}`).not.toMatch(/\$\{\{/);
  });

  it('every action is pinned to a full commit SHA, every checkout keeps no credentials', () => {
    for (const { f, job } of allJobs) {
      for (const s of job.steps) {
        if (s.uses) expect(s.uses, f).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
        if (uses(s, 'actions/checkout'))
          expect(s.with?.['persist-credentials'], `${f}: ${s.name ?? 'checkout'}`).toBe(false);
      }
    }
  });

  it('no token in a URL or a file: publishes pass PUBLISH_TOKEN to publish-to-branch', () => {
    for (const f of files) {
      expect(text[f], f).not.toMatch(/x-access-token/);
      expect(text[f], f).not.toMatch(/https:\/\/[^\s"']*@github\.com/);
      expect(text[f], f).not.toMatch(/git clone/);
    }
    for (const { f, name, job } of allJobs) {
      for (const s of job.steps) {
        if (s.run?.includes('publish-to-branch')) {
          expect(s.env?.PUBLISH_TOKEN, `${f} ${name}`).toBe('${{ github.token }}');
          expect(
            Object.keys(s.env ?? {}).filter((k) => /TOKEN/.test(k)),
            `${f} ${name}`,
          ).toEqual(['PUBLISH_TOKEN']);
        }
      }
    }
  });

  it('npm ci never runs install scripts (in write-token jobs above all)', () => {
    for (const { f, name, job } of allJobs) {
      for (const s of job.steps)
        for (const m of (s.run ?? '').matchAll(/npm ci\b[^\n)]*/g))
          expect(m[0], `${f} ${name}`).toContain('--ignore-scripts');
    }
    const writers = allJobs.filter(({ job }) => JSON.stringify(job.permissions ?? {}).includes('write'));
    expect(writers.map((w) => `${w.f} ${w.name}`).sort()).toEqual([
      'bench.yml publish',
      'calibrate.yml publish',
      'pr-comment.yml comment',
      'pr.yml plan',
      'releases.yml publish',
    ]);
  });
});

describe('contracts between jobs', () => {
  it('no concurrency group that could replace a pending benchmark, calibration or publish', () => {
    for (const f of ['bench.yml', 'calibrate.yml', 'pr-comment.yml']) {
      expect(wf[f]!.concurrency, f).toBeUndefined();
      for (const [name, job] of jobs(f)) expect(job.concurrency, `${f} ${name}`).toBeUndefined();
    }
  });

  it('the bench step acts on each exit status: 0 ok, 1 publish then fail, 2/3/130 fail at once', () => {
    const step = wf['bench.yml']!.jobs.bench!.steps.find((s) => s.run?.includes('npm run bench'))!;
    expect(step.run).toContain('npm run bench -- "${args[@]}" || status=$?');
    expect(step.run).toMatch(/0\) ;;/);
    expect(step.run).toMatch(
      /1\)\n[^)]*test -f results\/latest\/results\.json \|\| \{[^}]*exit 1; \}\n\s*echo "::warning::/,
    );
    expect(step.run).toMatch(/2\) echo "::error::[^\n]*; exit 2 ;;/);
    expect(step.run).toMatch(/130\) [^\n]*exit 130 ;;/);
    expect(step.run).toMatch(/\*\) [^\n]*exit "\$status" ;;/);
    const fail = wf['bench.yml']!.jobs.bench!.steps.at(-1)!;
    expect(fail.run).toBe('test "$BENCH_STATUS" = 0');
  });

  it('a dispatch that leaves out just-static does not fail on its missing binary; a full run still must have it', () => {
    const up = wf['bench.yml']!.jobs.bench!.steps.find((s) => s.with?.name === 'just-static-${{ matrix.runner }}')!;
    const v = (inputs: Record<string, string>) => interpolate(String(up.with!['if-no-files-found']), { inputs });
    expect(v({ experiments: '', variants: '', params: '' })).toBe('error');
    expect(v({ experiments: 'wc', variants: '', params: '' })).toBe('warn');
    expect(v({ experiments: '', variants: 'c', params: '' })).toBe('warn');
  });

  it('github-action-benchmark: gated, filed under the commit measured, no alert comments, no history deleted', () => {
    const steps = wf['bench.yml']!.jobs.publish!.steps;
    const gate = steps.find((s) => s.id === 'gab')!;
    expect(gate.run).toContain('workflow -- gab-gate');
    expect(gate.run).toContain('--default-profile "$DEFAULT_PROFILE"');
    expect(gate.env?.FILTERS).toBe(
      '${{ inputs.experiments }}${{ inputs.variants }}${{ inputs.params }}${{ inputs.runs }}${{ inputs.ref }}',
    );
    const gab = steps.filter((s) => uses(s, 'benchmark-action/github-action-benchmark'));
    expect(gab.map((s) => [s.with?.tool, s.if])).toEqual([
      ['customSmallerIsBetter', "steps.gab.outputs.smaller == 'true'"],
      ['customBiggerIsBetter', "steps.gab.outputs.bigger == 'true'"],
    ]);
    // the action's inputs are regenerated from the validated results.json by the
    // gate, never taken from the artifact's gab/ (written on the machine, only row-counted before).
    expect(gate.run).toContain('--out gab-inputs');
    expect(gate.run).not.toContain('downloaded/gab');
    expect(gab.map((s) => s.with?.['output-file-path'])).toEqual([
      'gab-inputs/customSmallerIsBetter.json',
      'gab-inputs/customBiggerIsBetter.json',
    ]);
    expect(JSON.stringify(wf['bench.yml']!.jobs.publish)).not.toContain('downloaded/gab');
    for (const s of gab) {
      expect(s.with).toMatchObject({
        ref: '${{ github.sha }}',
        'comment-on-alert': false,
        'fail-on-alert': false,
        'benchmark-data-dir-path': 'dev/bench/${{ steps.gab.outputs.machine }}',
      });
      expect(Object.keys(s.with ?? {})).not.toContain('max-items-in-chart');
      expect(Object.keys(s.with ?? {})).not.toContain('alert-threshold');
    }
    expect(steps.findIndex((s) => s.id === 'gab')).toBeGreaterThan(
      steps.findIndex((s) => s.run?.includes('publish-to-branch')),
    );
    expect(wf['bench.yml']!.env?.DEFAULT_PROFILE).toBe("${{ vars.BENCH_DEFAULT_PROFILE || 'standard' }}");
  });

  it('the nightly run picks the commit to measure (back-fill) before measuring it', () => {
    const steps = wf['bench.yml']!.jobs.bench!.steps;
    const pick = steps.findIndex((s) => s.run?.includes('workflow -- pick-commit'));
    expect(steps[pick]!.if).toBe("github.event_name == 'schedule'");
    expect(steps[pick]!.run).toContain('git checkout --quiet --detach "$sha"');
    expect(pick).toBeLessThan(steps.findIndex((s) => s.run?.includes('npm run bench')));
  });
});

describe('releases.yml: each machine carries and publishes its own releases only', () => {
  const rel = wf['releases.yml']!;
  const runs = (job: string) => rel.jobs[job]!.steps.map((s) => (s.run ?? '').replace(/\\\n\s*/g, ' ')).join('\n');
  const imports = (job: string) =>
    runs(job)
      .split('\n')
      .filter((l) => /releases (-- )?import/.test(l));

  it("the measure job imports only this machine's releases from gh-pages, skipping bad records", () => {
    expect(imports('measure')).toEqual([
      'npm run releases -- import --from pages/data --from-store --machine "$MACHINE" --store store',
    ]);
  });

  it('the publish imports the one machine its artifact holds (refused when it holds more)', () => {
    expect(imports('publish')).toHaveLength(1);
    expect(imports('publish')[0]).toContain('--sole-machine');
    expect(imports('publish')[0]).not.toContain('--from-store');
  });

  it("uploads the job's store of releases, which holds this machine's only", () => {
    const upload = rel.jobs.measure!.steps.find((s) => uses(s, 'actions/upload-artifact'))!;
    expect(upload.with?.path).toBe('store/releases');
    expect(runs('measure')).toMatch(/nightly --store store /);
  });
});
