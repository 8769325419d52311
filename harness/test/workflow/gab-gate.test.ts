// SLOW (about a minute): bench.yml's publish job replayed from the YAML (helpers/workflow-replay.ts)
// against the REAL github-action-benchmark v1.20.4 (the pinned commit, from ../shared/gab, run by
// its local runner run-gab.sh: pushes go to the local bare "GitHub", commit comments and commit
// look-ups to a recording stand-in API). Two pushes of two commits, a re-run of the second, and a
// records-only dispatch; then what the action stored (one entry per commit and machine, under the
// measured commit) and what it commented (nothing: its alerts are off), and what the trend store
// kept. The pushes are measured at smoke size: the test sets the workflow's DEFAULT_PROFILE (the
// repository variable BENCH_DEFAULT_PROFILE in real use) to smoke.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGabDataJs, storedCommits } from '../../src/workflow/gab-gate.js';
import { ROOT } from '../helpers/cli.js';
import { commitAndPush, git, makeWorld, REPO, type World } from '../helpers/replay-fixture.js';
import { removeScratch } from '../helpers/scratch.js';
import { type ActionHandler, type JobResult, localActions, readWorkflow, runJob } from '../helpers/workflow-replay.js';

const SHARED_GAB = join(ROOT, '..', 'shared', 'gab');
const haveGab = existsSync(join(SHARED_GAB, 'build-gab.sh'));
if (!haveGab)
  console.warn(
    `workflow-gab.test.ts: skipped: ${SHARED_GAB} (the real github-action-benchmark and its runner) is absent`,
  );

const bench = readWorkflow(join(ROOT, '.github', 'workflows', 'bench.yml'));
const NARROW = ['--profile', 'smoke', '--experiments', 'wc', '--variants', 'c,dd-null', '--param', 'bs=65536'];
const RECORDS = [
  '--profile',
  'smoke',
  '--experiments',
  'records',
  '--variants',
  'c',
  '--param',
  'record=65536',
  '--param',
  'op=read',
];

/** The action's runner: /tmp/gab when built, else built here from ../shared/gab. */
function gabHome(): string {
  if (existsSync('/tmp/gab/run-gab.sh') && existsSync('/tmp/gab/src/dist/src/index.js')) return '/tmp/gab';
  const dir = mkdtempSync(join(tmpdir(), 'jsio-gab-'));
  execFileSync('bash', [join(SHARED_GAB, 'build-gab.sh'), '--no-test'], {
    env: { ...process.env, GAB: dir },
    stdio: 'inherit',
  });
  return dir;
}

describe.skipIf(!haveGab)('bench.yml publish job with the real github-action-benchmark', () => {
  let w: World;
  let gab: string;
  let A = '';
  let B = '';
  const out: Record<string, string> = {};
  const logs: string[] = [];

  /** Runs the action as the runner would, with the step's `with:` as INPUT_* variables. */
  const realGab: ActionHandler = async ({ with: v, runner, github, log }) => {
    const logdir = mkdtempSync(join(w.root, 'gab-log-'));
    logs.push(logdir);
    const env: Record<string, string> = {};
    for (const [k, val] of Object.entries(process.env))
      if (val !== undefined && !k.startsWith('GIT_CONFIG_') && !k.startsWith('INPUT_') && !k.startsWith('GITHUB_'))
        env[k] = val;
    for (const [k, val] of Object.entries(v))
      if (!['tool', 'output-file-path', 'name'].includes(k)) env[`INPUT_${k.toUpperCase()}`] = val;
    Object.assign(env, {
      GAB_REPO: w.remote,
      GAB_WORK: runner.workspace,
      GAB_LOGDIR: logdir,
      GAB_EVENT: String(github.event_name),
      GITHUB_SHA: String(github.sha),
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REPOSITORY: REPO,
      GITHUB_RUN_ID: String(github.run_id),
      GITHUB_RUN_ATTEMPT: String(github.run_attempt),
    });
    const code = await new Promise<number>((ok) => {
      const p = spawn(
        'bash',
        [join(gab, 'run-gab.sh'), v.tool!, join(runner.workspace, v['output-file-path']!), v.name!],
        { cwd: runner.workspace, env },
      );
      p.stdout.on('data', (c: Buffer) => log(c.toString()));
      p.stderr.on('data', (c: Buffer) => log(c.toString()));
      p.on('close', (c) => ok(c ?? 1));
    });
    return { ok: code === 0 };
  };

  /**
   * A real smoke run. wc's bigger-is-better series (steady throughput) comes from a fit that a
   * loaded machine can leave unresolved, and then there is nothing bigger to feed: that is the
   * measurement's answer, not the publish job's, so a run that needs the series is made again
   * (at most three times) rather than testing the gate on the wrong input.
   */
  const measure = (sha: string, args: string[], name: string, needsBigger = false) => {
    git(w.snap, 'checkout', '-q', '--detach', sha);
    for (let attempt = 1; ; attempt++) {
      const dir = join(w.root, `${name}-${attempt}`);
      execFileSync(
        process.execPath,
        [join(w.snap, 'harness', 'bootstrap.mjs'), 'bench', ...args, '--no-store', '--out', dir],
        { cwd: w.snap, env: { ...process.env, RUNNER_NAME: 'replay-runner', CI: '1' }, stdio: 'ignore' },
      );
      const bigger = join(dir, 'gab', 'customBiggerIsBetter.json');
      const rows = existsSync(bigger) ? (JSON.parse(readFileSync(bigger, 'utf8')) as unknown[]).length : 0;
      if (!needsBigger || rows > 0 || attempt === 3) return dir;
    }
  };

  let n = 0;
  const publish = async (o: {
    event: 'push' | 'workflow_dispatch' | 'schedule';
    sha: string;
    results: string;
    inputs?: Record<string, string>;
    attempt?: number;
  }): Promise<JobResult> => {
    n++;
    const artifacts = join(w.root, `artifacts-${n}`);
    cpSync(o.results, join(artifacts, 'results-jsio-bench-1'), { recursive: true });
    // the machine's own gab/ files are forged in every artifact; the publish job
    // regenerates the inputs from results.json, so none of this may reach the action's data.
    for (const f of ['customSmallerIsBetter', 'customBiggerIsBetter'])
      writeFileSync(
        join(artifacts, 'results-jsio-bench-1', 'gab', `${f}.json`),
        JSON.stringify([{ name: 'forged/<script>alert(1)</script>', unit: '<img src=x onerror=alert(1)>', value: 0 }]),
      );
    return runJob({
      workflow: bench,
      job: 'publish',
      github: {
        event_name: o.event,
        sha: o.sha,
        ref: 'refs/heads/main',
        run_id: String(100 + n),
        run_attempt: String(o.attempt ?? 1),
        event: {},
      },
      inputs: o.inputs ?? {},
      matrix: { runner: 'jsio-bench-1' },
      needs: { bench: { result: 'success' } },
      workflowEnv: { DEFAULT_PROFILE: 'smoke' },
      actions: localActions({ 'benchmark-action/github-action-benchmark': realGab }),
      runner: {
        repository: REPO,
        remote: w.remote,
        workspace: join(w.root, `hosted-${n}`, '_work', 'jsio-bench', 'jsio-bench'),
        toolCache: w.toolCache,
        artifacts,
        home: join(w.root, `hosted-${n}`, 'home'),
        prelude: w.prelude,
      },
      verbose: process.env.JSIO_REPLAY_VERBOSE === '1',
    });
  };
  const why = (r: JobResult) => (r.failed ? `${r.failed.name}:\n${r.failed.log.slice(-4000)}` : '');
  const gate = (r: JobResult) => r.steps.find((s) => s.name === 'What github-action-benchmark gets')!.outputs;
  const gabSteps = (r: JobResult) => r.steps.filter((s) => s.name.startsWith('Headline series')).map((s) => s.outcome);
  /** The gate's own reasons (its stderr lines), for a step outcome that is not the one expected. */
  const gateLog = (r: JobResult) =>
    r.steps
      .find((s) => s.name === 'What github-action-benchmark gets')
      ?.log.split('\n')
      .filter((l) => l.startsWith('github-action-benchmark '))
      .join('\n') ?? 'the gate step did not run';

  beforeAll(() => {
    gab = gabHome();
    w = makeWorld(mkdtempSync(join(tmpdir(), 'jsio-gab-world-')));
    A = w.main;
    B = commitAndPush(w, A, 'refs/heads/main', () => {}, 'B: a second commit');
    out.A = measure(A, NARROW, 'results-A', true);
    out.B = measure(B, NARROW, 'results-B', true);
    out.records = measure(B, RECORDS, 'results-records');
  }, 600_000);
  afterAll(() => removeScratch(w?.root));

  it('stores each commit once per machine, under the commit measured, and comments nothing', {
    timeout: 600_000,
  }, async () => {
    const pushA = await publish({ event: 'push', sha: A, results: out.A! });
    expect(pushA.result, why(pushA)).toBe('success');
    expect(gate(pushA), gateLog(pushA)).toMatchObject({ sha: A, smaller: 'true', bigger: 'true' });
    expect(gabSteps(pushA), gateLog(pushA)).toEqual(['success', 'success']);
    const machine = gate(pushA).machine!;

    const pushB = await publish({ event: 'push', sha: B, results: out.B! });
    expect(pushB.result, why(pushB)).toBe('success');
    expect(gabSteps(pushB), gateLog(pushB)).toEqual(['success', 'success']);

    // A re-run of B's publish: nothing appended, the steps do not even run.
    const rerun = await publish({ event: 'push', sha: B, results: out.B!, attempt: 2 });
    expect(rerun.result, why(rerun)).toBe('success');
    expect(gate(rerun)).toMatchObject({ smaller: 'false', bigger: 'false' });
    expect(gabSteps(rerun), gateLog(rerun)).toEqual(['skipped', 'skipped']);

    // A records-only dispatch (its smaller-is-better file is empty or absent): not the series' workload.
    const dispatch = await publish({
      event: 'workflow_dispatch',
      sha: B,
      results: out.records!,
      inputs: {
        experiments: 'records',
        variants: 'c',
        params: 'record=65536 op=read',
        profile: 'smoke',
        runs: '',
        ref: '',
        runners: '',
      },
    });
    expect(dispatch.result, why(dispatch)).toBe('success');
    expect(gabSteps(dispatch), gateLog(dispatch)).toEqual(['skipped', 'skipped']);

    // A nightly back-fill of A (results of A, workflow at B): trend store only.
    const nightly = await publish({ event: 'schedule', sha: B, results: out.A! });
    expect(nightly.result, why(nightly)).toBe('success');
    expect(gate(nightly)).toMatchObject({ sha: A, smaller: 'false', bigger: 'false' });

    const data = parseGabDataJs(git(w.remote, 'show', `gh-pages:dev/bench/${machine}/data.js`));
    expect(Object.keys(data.entries).sort()).toEqual([
      `jsio-bench ${machine} (bigger is better)`,
      `jsio-bench ${machine} (smaller is better)`,
    ]);
    expect(storedCommits(data, 'customSmallerIsBetter')).toEqual([A, B]);
    expect(storedCommits(data, 'customBiggerIsBetter')).toEqual([A, B]);
    const names = (
      data.entries[`jsio-bench ${machine} (bigger is better)`]![1] as unknown as { benches: { name: string }[] }
    ).benches.map((b) => b.name);
    expect(names.every((x) => x.startsWith('wc/'))).toBe(true);
    const stored = git(w.remote, 'show', `gh-pages:dev/bench/${machine}/data.js`);
    expect(stored).not.toContain('forged');
    expect(stored).not.toContain('<img');

    // No comment, no failure from the action, in any step.
    const comments = logs.flatMap((l) =>
      existsSync(join(l, 'api')) ? readdirSync(join(l, 'api')).filter((f) => f.startsWith('comment-')) : [],
    );
    expect(comments).toEqual([]);
    const posts = logs.flatMap((l) =>
      existsSync(join(l, 'api', 'requests.jsonl'))
        ? readFileSync(join(l, 'api', 'requests.jsonl'), 'utf8')
            .split('\n')
            .filter((x) => x.includes('"POST"'))
        : [],
    );
    expect(posts).toEqual([]);

    // The trend store has both commits, and B's full results survived the filtered dispatch.
    const index = JSON.parse(git(w.remote, 'show', `gh-pages:data/${machine}/index.json`)) as {
      commits: { sha: string }[];
    };
    expect(index.commits.map((c) => c.sha).sort()).toEqual([A, B].sort());
    // One run file per commit and profile: the records-only dispatch (smoke, like the pushes)
    // merged into B's smoke run, keeping its wc benchmarks and adding the records one.
    const runB = JSON.parse(git(w.remote, 'show', `gh-pages:data/${machine}/runs/${B}/smoke.json`)) as {
      benchmarks: { experiment: string }[];
    };
    expect(runB.benchmarks.some((b) => b.experiment === 'wc')).toBe(true);
    expect(runB.benchmarks.some((b) => b.experiment === 'records')).toBe(true);
  });
});
