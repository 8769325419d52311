// More workflow properties read from the YAML: who may trigger the PR benchmark (the `if`
// expression evaluated for each kind of event), pins with versions, toolchain versions in step
// with the harness, and every command a workflow runs is an npm script a test also runs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './helpers/cli.js';

type Step = {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  if?: string;
  name?: string;
};
type Job = { steps: Step[]; if?: string; concurrency?: unknown; permissions?: Record<string, string> };
type Workflow = { concurrency?: unknown; jobs: Record<string, Job>; env?: Record<string, string> };

const dir = join(ROOT, '.github', 'workflows');
const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
const text = Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
const wf = Object.fromEntries(files.map((f) => [f, parse(text[f]!) as Workflow]));
const steps = (f: string) => Object.values(wf[f]!.jobs).flatMap((j) => j.steps);

/**
 * Evaluates the small subset of GitHub's expression language these `if:`s use: property paths,
 * 'strings', ==, !=, &&, ||, !, parentheses and contains(list.*.field, 'value').
 */
function evaluate(expr: string, ctx: Record<string, unknown>): boolean {
  const get = (path: string): unknown => {
    let cur: unknown = ctx;
    for (const part of path.split('.')) {
      if (part === '*') return cur;
      cur = (cur as Record<string, unknown> | undefined)?.[part];
    }
    return cur;
  };
  const js = expr
    .replace(/contains\(([\w.]+)\.\*\.(\w+),\s*'([^']*)'\)/g, (_m, list: string, field: string, v: string) =>
      JSON.stringify(((get(list) as Record<string, unknown>[]) ?? []).some((x) => x[field] === v)),
    )
    .replace(/'([^']*)'/g, (_m, s: string) => JSON.stringify(s))
    .replace(/\b(github(?:\.[\w-]+)+)/g, (_m, path: string) => JSON.stringify(get(path) ?? null))
    .replace(/==/g, '===')
    .replace(/!===/g, '!==');
  expect(js, `unexpected syntax in: ${expr}`).toMatch(/^[\s"\w\-/[\]{}:,.()!=&|]*$/);
  return Boolean(new Function(`return (${js});`)());
}

describe('pr.yml: who can start a benchmark on the self-hosted runner', () => {
  const cond = wf['pr.yml']!.jobs.diff!.if!;
  const event = (action: string, fork: boolean, labels: string[], label?: string) => ({
    github: {
      repository: 'owner/jsio-bench',
      event: {
        action,
        ...(label ? { label: { name: label } } : {}),
        pull_request: {
          head: { repo: { full_name: fork ? 'stranger/jsio-bench' : 'owner/jsio-bench' } },
          labels: labels.map((name) => ({ name })),
        },
      },
    },
  });
  it.each([
    { name: 'a branch of this repository, opened', ctx: event('opened', false, []), runs: true },
    { name: 'a branch of this repository, pushed to', ctx: event('synchronize', false, []), runs: true },
    {
      name: 'a branch of this repository, labelled (no second run)',
      ctx: event('labeled', false, ['docs'], 'docs'),
      runs: false,
    },
    { name: 'a fork, opened', ctx: event('opened', true, []), runs: false },
    {
      name: 'a fork pushed to after it was labelled',
      ctx: event('synchronize', true, ['run-benchmarks']),
      runs: false,
    },
    {
      name: 'a fork given the run-benchmarks label',
      ctx: event('labeled', true, ['run-benchmarks'], 'run-benchmarks'),
      runs: true,
    },
    {
      name: 'a fork given another label while labelled',
      ctx: event('labeled', true, ['run-benchmarks', 'docs'], 'docs'),
      runs: false,
    },
  ])('$name: runs = $runs', ({ ctx, runs }) => {
    expect(evaluate(cond, ctx)).toBe(runs);
  });

  it('benchmarks the pull request head itself, with just(js) fully configured', () => {
    const checkout = steps('pr.yml').find((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.ref).toBe('${{ github.event.pull_request.head.sha }}');
  });
});

describe('all workflows', () => {
  it('pin actions to a commit with the release named in a comment', () => {
    for (const f of files) {
      for (const m of text[f]!.matchAll(/uses:\s*(\S+)(.*)$/gm)) {
        expect(m[1], f).toMatch(/@[0-9a-f]{40}$/);
        expect(m[2], `${f}: ${m[1]}`).toMatch(/#\s*v\d+(\.\d+){1,2}\s*$/);
      }
    }
  });

  it('set JUST_TARGET wherever they set JUST_HOME (just build needs both)', () => {
    for (const f of files)
      expect(text[f]!.includes('JUST_HOME=') ? text[f]!.includes('JUST_TARGET=') : true, f).toBe(true);
  });

  it('build the just(js) version pinned in harness/toolchains.json', () => {
    const pin = (JSON.parse(readFileSync(join(ROOT, 'harness', 'toolchains.json'), 'utf8')) as { just: string }).just;
    const versions = files.flatMap((f) => [...text[f]!.matchAll(/JUST_VERSION:\s*'([^']+)'/g)].map((m) => m[1]));
    expect(versions.length).toBeGreaterThan(0);
    for (const v of versions) expect(v).toBe(pin);
  });

  it('give every job of the benchmark and comment workflows a concurrency group', () => {
    for (const f of ['bench.yml', 'pr.yml', 'pr-comment.yml']) {
      for (const [name, job] of Object.entries(wf[f]!.jobs))
        expect(job.concurrency ?? wf[f]!.concurrency, `${f} ${name}`).toBeTruthy();
    }
  });

  it('keep no logic in YAML: no inline github-script', () => {
    for (const f of files) expect(text[f], f).not.toMatch(/actions\/github-script@/);
  });
});

describe('every command a workflow runs is an npm script that a test runs', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const testDir = join(ROOT, 'harness', 'test');
  const tests = readdirSync(testDir)
    .filter((f) => f.endsWith('.test.ts') && !f.startsWith('workflows'))
    .map((f) => readFileSync(join(testDir, f), 'utf8'))
    .join('\n');
  /** What a script runs: a bootstrap command (`bench`) or a tool script (`install-just.sh`). */
  const target = (script: string) => {
    const cmd = scripts[script] ?? '';
    return /bootstrap\.mjs (\S+)/.exec(cmd)?.[1] ?? /harness\/tools\/(\S+)/.exec(cmd)?.[1] ?? cmd;
  };
  /** A test passes the command (or the npm script's name) as a quoted argument. */
  const exercised = (script: string) => [script, target(script)].some((t) => tests.includes(`'${t}'`));

  // Plumbing that moves values between steps or installs the platform, not project logic.
  const PLUMBING = [
    /^(echo|printf) .*>> ?"\$GITHUB_(ENV|PATH|OUTPUT|STEP_SUMMARY)"$/,
    /^cat \S+ >> "\$GITHUB_STEP_SUMMARY"$/,
    /^(id|number|dir)="\$\(npm run --silent [\w-]+ .*\)"$/,
    /^sudo apt-get /,
    /^git (clone|fetch|config|-C \S+ (fetch|worktree add)) /,
    /^\(cd \w+ && npm ci\)$/,
    /^mkdir -p \w+$/,
    /^cp [\w/. -]+$/,
    /^printf '%s' "\$PR_NUMBER" > [\w/-]+$/,
    /^node "\$GITHUB_WORKSPACE\/harness\/bootstrap\.mjs" pages /,
    /^test "\$BENCH_STATUS" = 0$/,
  ];

  it.each(files)('%s', (f) => {
    for (const step of steps(f)) {
      if (!step.run) continue;
      const lines = step.run
        .replace(/\\\n\s*/g, ' ')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'));
      for (const line of lines) {
        for (const m of line.matchAll(/npm run (?:--silent )?([\w:-]+)/g)) {
          expect(Object.keys(scripts), `${f}: ${line}`).toContain(m[1]);
          expect(exercised(m[1]!), `${f}: npm run ${m[1]} (${target(m[1]!)}) is not run by any test`).toBe(true);
        }
        const isNpm = /^npm (ci|test)\b/.test(line) || /^npm run /.test(line);
        // Lines of a bench (or calibrate) step's argument assembly are shell around one npm run.
        const inBenchStep = /npm run (bench|calibrate) /.test(step.run);
        if (!isNpm && !inBenchStep && !PLUMBING.some((re) => re.test(line)))
          expect.fail(`${f}: "${line}" is neither an npm script nor plumbing`);
      }
    }
  });
});
