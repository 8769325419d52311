// The workflows' properties that matter for safety and fairness, read from the YAML itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers/cli.js';

type Step = { id?: string; uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type Job = {
  permissions?: Record<string, string>;
  steps: Step[];
  concurrency?: unknown;
  'timeout-minutes'?: number;
  if?: string;
  'runs-on': unknown;
  strategy?: Record<string, unknown>;
  environment?: unknown;
  needs?: string | string[];
  env?: Record<string, string>;
};
type Workflow = {
  on: Record<string, any>;
  permissions?: Record<string, string>;
  concurrency?: unknown;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
};

const names = ['ci', 'bench', 'pr', 'pr-comment', 'calibrate', 'releases'] as const;
const text = Object.fromEntries(
  names.map((n) => [n, readFileSync(join(ROOT, '.github', 'workflows', `${n}.yml`), 'utf8')]),
) as Record<(typeof names)[number], string>;
const wf = Object.fromEntries(names.map((n) => [n, parse(text[n]) as Workflow])) as Record<
  (typeof names)[number],
  Workflow
>;
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

describe.each(names)('%s.yml', (name) => {
  const w = wf[name];
  it('is read-only at workflow level', () => {
    expect(w.permissions).toEqual({ contents: 'read' });
  });

  it('pins every action to a full commit SHA', () => {
    for (const job of Object.values(w.jobs)) {
      for (const step of job.steps)
        if (step.uses) expect(step.uses, step.uses).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
    }
  });

  it('puts a timeout on every job', () => {
    for (const job of Object.values(w.jobs)) expect(job['timeout-minutes']).toBeGreaterThan(0);
  });

  it('runs only npm scripts that exist', () => {
    for (const m of text[name].matchAll(/npm run (?:--silent )?([\w:-]+)/g))
      expect(Object.keys(scripts), m[1]).toContain(m[1]);
  });
});

describe('bench.yml', () => {
  const w = wf.bench;
  it('runs on push to main, nightly and by hand with the documented inputs', () => {
    expect(w.on.push).toEqual({ branches: ['main'] });
    expect(w.on.schedule).toHaveLength(1);
    expect(Object.keys(w.on.workflow_dispatch.inputs).sort()).toEqual([
      'experiments',
      'params',
      'profile',
      'ref',
      'runners',
      'runs',
      'variants',
    ]);
  });

  it('passes every dispatch input to the CLI', () => {
    const run = w.jobs.bench!.steps.find((s) => s.run?.includes('npm run bench'))!;
    expect(run.env).toMatchObject({
      PROFILE: '${{ inputs.profile || env.DEFAULT_PROFILE }}',
      EXPERIMENTS: '${{ inputs.experiments || vars.BENCH_EXPERIMENTS }}',
      VARIANTS: '${{ inputs.variants || vars.BENCH_VARIANTS }}',
      PARAMS: '${{ inputs.params || vars.BENCH_PARAMS }}',
      RUNS: '${{ inputs.runs }}',
    });
    for (const flag of [
      '--profile "$PROFILE"',
      '--experiments "$EXPERIMENTS"',
      '--variants "$VARIANTS"',
      '--runs "$RUNS"',
      '--param "$p"',
      '--require just',
    ])
      expect(run.run).toContain(flag);
    expect(text.bench).toContain('ref: ${{ inputs.ref || github.sha }}');
    expect(text.bench).toContain('fromJSON(inputs.runners');
  });

  // One runner agent per machine runs its jobs one at a time (docs/runners.md); a concurrency
  // group would only let GitHub cancel the pending job it replaces (commits left unmeasured).
  it('queues every push on every machine and publishes through the retrying publish-to-branch', () => {
    expect(w.jobs.bench!.concurrency).toBeUndefined();
    expect(w.jobs.publish!.concurrency).toBeUndefined();
    expect(w.jobs.publish!.strategy).toMatchObject({ 'max-parallel': 1 });
    expect(text.bench).toContain('npm run publish-to-branch');
  });

  // The trusted plan of a pull request based on a commit takes these traces (pr.yml's plan job).
  it("traces its own profile's points and pr.yml's, and publishes the traces with the run", () => {
    expect(w.env).toMatchObject({ PR_PROFILE: "${{ vars.PR_PROFILE || 'quick' }}" });
    expect(wf.pr.jobs.plan!.env).toMatchObject({ PROFILE: "${{ vars.PR_PROFILE || 'quick' }}" });
    expect(text.bench).toContain('--trace-profiles "$PROFILE,$PR_PROFILE"');
    // The artifact is the whole results folder: traces.json goes with results.json to `pages`.
    expect(text.bench).toContain('path: results/latest\n');
    expect(text.bench).toContain('pages "$GITHUB_WORKSPACE/downloaded/results.json"');
  });

  // docs/counts.md: main's runs count every point once per key, reading the store, never writing it.
  it('counts every point, taking the stored counts from a read-only gh-pages checkout; only publish writes them', () => {
    const run = w.jobs.bench!.steps.find((s) => s.run?.includes('npm run bench'))!;
    expect(run.run).toContain('--no-store --counts all --count-store pages/data');
    // The pull requests' profile is counted too: pr.yml's diff (at PR_PROFILE) takes its bases from the store.
    expect(run.run).toContain('--count-profiles "$PR_PROFILE"');
    const checkouts = w.jobs.bench!.steps.filter((s) => s.with?.ref === 'gh-pages');
    expect(checkouts).toHaveLength(1);
    const pages = checkouts[0] as Step & { if?: string; 'continue-on-error'?: boolean };
    // Every run reads them (not only the nightly), and a missing gh-pages is no failure.
    expect(pages.if).toBeUndefined();
    expect(pages['continue-on-error']).toBe(true);
    expect(pages.with?.path).toBe('pages');
    expect(pages.with?.['persist-credentials']).toBe(false);
    expect(String(pages.with?.['sparse-checkout']).trim().split('\n')).toEqual([
      'data/*/index.json',
      'data/*/counts.json',
    ]);
    // The run's counts.json travels in the results artifact to the publish job's `npm run pages`.
    expect(text.bench).toContain('path: results/latest\n');
    expect(w.jobs.bench!.permissions).toBeUndefined();
  });

  it('writes only in the publish job', () => {
    expect(w.jobs.bench!.permissions).toBeUndefined();
    expect(w.jobs.publish!.permissions).toEqual({ contents: 'write' });
  });

  // Alerts come from the project's change points against calibrated noise (docs/pages.md).
  it('feeds github-action-benchmark both directions with summaries and without its own alerts', () => {
    const gab = w.jobs.publish!.steps.filter((s) => s.uses?.startsWith('benchmark-action/github-action-benchmark@'));
    expect(gab.map((s) => s.with?.tool)).toEqual(['customSmallerIsBetter', 'customBiggerIsBetter']);
    for (const s of gab)
      expect(s.with).toMatchObject({ 'comment-on-alert': false, 'fail-on-alert': false, 'summary-always': true });
  });
});

describe('pr.yml', () => {
  const w = wf.pr;
  it('uses no secrets and cannot write, but for the plan job setting the pending status', () => {
    expect(text.pr).not.toMatch(/\$\{\{\s*secrets\./);
    expect(w.permissions).toEqual({ contents: 'read' });
    for (const [name, job] of Object.entries(w.jobs))
      if (name !== 'plan') expect(JSON.stringify(job.permissions ?? {})).not.toMatch(/write/);
    expect(w.jobs.plan!.permissions).toEqual({ contents: 'read', statuses: 'write' });
  });

  it("runs pull requests from the default branch's workflow file, forks and bots only after approval", () => {
    expect(Object.keys(w.on)).toEqual(['pull_request_target']);
    expect(w.jobs.approve!.environment).toBe('pr-benchmark');
    expect(w.jobs.diff!.needs).toEqual(['plan', 'approve']);
    expect(w.jobs.plan!.needs).toBeUndefined();
  });

  it('measures base and head in pairs in one job and uploads the artifact with the PR number', () => {
    expect(text.pr).toContain(
      'npm run pairs -- --base ../base --head ../head --base-just "$JUST_HOME" --head-just "$HEAD_JUST_HOME" --budget "$BUDGET_MINUTES"',
    );
    expect(text.pr).toContain('--trusted-plan ../trusted/plan.json');
    expect(text.pr).toContain('pr-results/pairs.json');
    expect(text.pr).toContain('comment/pr-number');
    expect(text.pr).toContain('GITHUB_STEP_SUMMARY');
  });
});

describe('calibrate.yml', () => {
  const w = wf.calibrate;
  it('is started by hand, queues behind benchmark runs on the machine, and publishes what it measured', () => {
    expect(Object.keys(w.on)).toEqual(['workflow_dispatch']);
    expect(w.jobs.calibrate!.concurrency).toBeUndefined();
    expect(w.jobs.calibrate!['runs-on']).toEqual(wf.bench.jobs.bench!['runs-on']);
    expect(text.calibrate).toContain('npm run calibrate -- --repeats "$REPEATS" --budget "$BUDGET_MINUTES"');
    // the one checked calibration of the runner's artifact, never a glob of them.
    expect(text.calibrate).toContain(
      'file="$(npm run --silent workflow -- noise-file --artifact "$GITHUB_WORKSPACE/downloaded" --machine "$EXPECTED_MACHINE")"',
    );
    expect(text.calibrate).toMatch(/bootstrap\.mjs" publish-run --noise "\$file" --store data/);
    expect(text.calibrate).not.toContain('downloaded/*/noise.json');
    expect(w.jobs.calibrate!.permissions).toBeUndefined();
    expect(w.jobs.publish!.permissions).toEqual({ contents: 'write' });
  });

  it("feeds pr.yml, which reads only the calibrations, the stored counts and the merge base's recording from gh-pages", () => {
    const pages = wf.pr.jobs.diff!.steps.find((s) => s.with?.ref === 'gh-pages');
    expect(String(pages?.with?.['sparse-checkout']).trim().split('\n')).toEqual([
      'data/*/noise.json',
      'data/*/counts.json',
      'data/*/recordings/${{ steps.base.outputs.sha }}.json.gz',
    ]);
    expect(pages?.with?.['persist-credentials']).toBe(false);
    expect(text.pr).toContain('--noise-store ../pages/data --count-store ../pages/data');
    // The merge base is known before the store is read: its recording is fetched by its commit.
    const steps = wf.pr.jobs.diff!.steps;
    expect(steps.findIndex((s) => s.id === 'base')).toBeLessThan(steps.indexOf(pages!));
    expect(text.pr).toContain('--dir ../transcripts --store ../pages/data');
  });
});

describe('pr-comment.yml', () => {
  const w = wf['pr-comment'];
  it('never checks out or runs pull-request code', () => {
    const checkouts = w.jobs.comment!.steps.filter((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkouts.map((s) => s.with?.ref)).toEqual(['${{ github.event.repository.default_branch }}']);
    expect(text['pr-comment']).not.toMatch(/head_sha }}|head\.sha }}|pull_request\.head\.ref/);
  });

  it('validates the artifact before posting, with the PR number from GitHub (the run title)', () => {
    expect(text['pr-comment']).toContain('npm run pr-comment -- --artifact artifact --pr "$PR_NUMBER"');
    expect(text['pr-comment']).toContain('workflow -- comment-target');
    expect(w.jobs.comment!.permissions).toEqual({
      contents: 'read',
      actions: 'read',
      'pull-requests': 'write',
      statuses: 'write',
    });
  });
});
