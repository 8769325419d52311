// SLOW (several minutes: seven on the busy 2-core VM): bench.yml under nektos/act, host mode, offline, with the pinned
// actions' own code (helpers/act/). Dispatches narrowed through the workflow's own inputs (wc,
// variants c and dd-null, bs=65536, smoke): the bench job measures and uploads, the publish job
// downloads with download-artifact and pushes the trend store to gh-pages in the world's bare
// repository; a second dispatch publishes beside the first; a wrong answer fails its job with the
// reason; a dispatch of the first commit again takes its count from gh-pages' counts.json, re-checked
// live, and publish merges the re-check; a push narrowed by the repository's variables runs the
// push-only steps and the real github-action-benchmark. The full smoke push is long: it runs when
// JSIO_ACT_FULL=1 (set by hand: with it npm test would pass CI's half hour).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PairsComparison } from '../../../src/formats/pairs-format.js';
import { measuresTheSame, readVerdictFile } from '../../../src/formats/transcript-format.js';
import { readStoredRecording } from '../../../src/store/recording-store.js';
import { readTrustedPlan } from '../../../src/workflow/artifact.js';
import { artifactFile, artifactFiles, artifactNames } from '../../helpers/act/artifacts.js';
import { standInApi } from '../../helpers/act/github-api.js';
import { type HostState, hostState } from '../../helpers/act/host.js';
import { type ActRun, runAct, step, TOKEN, why } from '../../helpers/act/runs.js';
import { actReadiness, unlessActReady } from '../../helpers/act/suite.js';
import { type ActWorld, commitAndPush, git, makeActWorld, REPOSITORY } from '../../helpers/act/world.js';
import { removeScratch } from '../../helpers/scratch.js';

const readiness = actReadiness();
const { ready } = readiness;
unlessActReady(readiness);
type StoredCounts = { counts: Record<string, { id: string; commit: string; checks: number }> };
type Counted = {
  run: {
    commit: { sha: string };
    counting: {
      store: string;
      reused: number;
      rechecked: { id: string; family: string; agreed: boolean }[];
      profiles?: { profile: string; reused: number; counted: number; deferred: number; failed: number }[];
    };
  };
};
const NARROW = { experiments: 'wc', variants: 'c,dd-null', params: 'bs=65536', profile: 'smoke' };
/** pr.yml's flags (PR_BENCH_FLAGS) in these tests: the same workload, at the pull requests' profile (quick). */
const PR_FLAGS = '--experiments wc --variants c,dd-null --param bs=65536';
const inputs = { ...NARROW, runs: '', runners: '["jsio-bench-1"]', ref: '' };

describe.runIf(ready)('bench.yml under act', () => {
  let w: ActWorld;
  let before: HostState;
  beforeAll(() => {
    before = hostState();
    w = makeActWorld(mkdtempSync(join(tmpdir(), 'jsio-act-bench-')));
  }, 300_000);
  afterAll(() => removeScratch(w?.root));

  const dispatch = (name: string, extra: Record<string, string> = {}) =>
    runAct({
      world: w,
      name,
      workflow: '.github/workflows/bench.yml',
      event: 'workflow_dispatch',
      payload: { inputs: { ...inputs, ...extra }, ref: 'refs/heads/main', repository: { full_name: REPOSITORY } },
      inputs: { ...inputs, ...extra },
      tools: { node: ['22'] },
    });
  const ghPages = (path: string) => git(w.remote, 'show', `gh-pages:${path}`);
  let machine = '';
  let first: ActRun;
  let firstSha = '';
  /**
   * A push to main of the next commit (wc's C program as it was before the miscounting commit
   * below, and what `change` does), run as `name`.
   */
  const pushMain = async (name: string, vars: Record<string, string>, change?: (dir: string) => void) => {
    const sha = commitAndPush(
      w,
      w.main,
      'refs/heads/main',
      (d) => {
        // Its count key is the first's again.
        git(d, 'checkout', firstSha, '--', 'programs/wc/wc-c.c');
        writeFileSync(join(d, 'NOTE'), `pushed as ${name}\n`);
        change?.(d);
      },
      'a push',
    );
    const who = { name: 'act-test', email: 'act-test@localhost', username: 'act-test' };
    const r = await runAct({
      world: w,
      name,
      workflow: '.github/workflows/bench.yml',
      event: 'push',
      payload: {
        ref: 'refs/heads/main',
        after: sha,
        repository: { full_name: REPOSITORY, default_branch: 'main', html_url: `https://github.com/${REPOSITORY}` },
        head_commit: {
          id: sha,
          message: 'a push',
          timestamp: new Date().toISOString(),
          url: `https://github.com/${REPOSITORY}/commit/${sha}`,
          author: who,
          committer: who,
        },
      },
      vars,
      tools: { node: ['22'] },
    });
    return { sha, r };
  };

  it('a narrowed dispatch: bench measures and uploads, publish pushes the trend store to gh-pages', {
    timeout: 900_000,
  }, async () => {
    firstSha = w.main;
    first = await dispatch('dispatch-1');
    expect(first.status, why(first)).toBe(0);
    expect(first.jobs.bench?.result).toBe('success');
    expect(first.jobs.publish?.result).toBe('success');
    // Skipped, and why: no ref to check, not the nightly.
    const skipped = first.jobs.bench!.steps.filter((s) => s.stage === 'Main' && s.result === 'skipped');
    expect(skipped.map((s) => [s.name, s.skippedBecause])).toEqual([
      ['Refuse a ref that is not a commit of main (unmerged code is measured by pr.yml)', "inputs.ref != ''"],
      [
        "Nightly, the newest commit of main this machine has no results for (else main's head)",
        "github.event_name == 'schedule'",
      ],
      // The recording kept for pull requests, and a harness mark, are made on pushes only.
      ['Check out this commit again for the recording', "github.event_name == 'push'"],
      ["The recorded copy's dependencies, from its lockfile", "github.event_name == 'push'"],
      ["Record this commit's harness for the pull requests based on it", "github.event_name == 'push'"],
      ["The previous commit this machine published (a harness mark's base)", "github.event_name == 'push'"],
      ['Check out that commit beside this one', "github.event_name == 'push' && steps.mark-base.outputs.base != ''"],
      ['Its dependencies, from its own lockfile', "github.event_name == 'push' && steps.mark-base.outputs.base != ''"],
      [
        'Whether the harness changed since that commit',
        "github.event_name == 'push' && steps.mark-base.outputs.base != ''",
      ],
      [
        "Record what both harnesses run and compute (the harness mark's reason)",
        "github.event_name == 'push' && steps.harness.outputs.harness == 'changed'",
      ],
    ]);
    // The job's own HOME and the trusted level's caches, under act's folders for this run.
    const home = step(first, 'bench', "A fresh HOME for this job, and the trusted level's caches").output;
    expect(home).toContain(`HOME=${first.dir}/action-cache/`);
    expect(home).toContain(`JSIO_CACHE=${first.dir}/action-cache/tool_cache/jsio-bench/trusted`);
    // A filtered dispatch builds no just-static binary and must not fail for it.
    expect(step(first, 'bench', 'Upload the static just(js) binary').output).toMatch(/No files were found/);
    expect(artifactNames(first)).toEqual(['results-jsio-bench-1']);
    expect(artifactFiles(first, 'results-jsio-bench-1')).toEqual(
      expect.arrayContaining(['results.json', 'summary.md', 'gab/customSmallerIsBetter.json']),
    );
    const results = JSON.parse(artifactFile(first, 'results-jsio-bench-1', 'results.json')) as {
      run: { commit: { sha: string }; profile: string; machine: { id: string }; counting: Counted['run']['counting'] };
      benchmarks: { experiment: string; variant: string; status: string }[];
    };
    expect(results.run.commit.sha).toBe(w.main);
    expect(results.run.profile).toBe('smoke');
    expect(results.benchmarks.map((b) => `${b.experiment}/${b.variant} ${b.status}`).sort()).toEqual([
      'wc/c ok',
      'wc/dd-null ok',
    ]);
    machine = results.run.machine.id;
    expect(first.jobs.bench!.summary).toContain(`Results are stored under machine id ${machine}`);
    expect(first.jobs.bench!.summary).toContain('wc');
    // Publish: the gate gives github-action-benchmark nothing from a filtered dispatch.
    expect(step(first, 'publish', 'What github-action-benchmark gets').output).toMatch(
      /dispatch with experiments, variants, params, runs or ref/,
    );
    for (const s of ['Headline series (smaller is better)', 'Headline series (bigger is better)'])
      expect(step(first, 'publish', s).result).toBe('skipped');
    const index = JSON.parse(ghPages(`data/${machine}/index.json`)) as { commits: { sha: string }[] };
    expect(index.commits.map((c) => c.sha)).toEqual([w.main]);
    // The run's traces, of its profile and of pr.yml's (quick), went with it: the trusted plan's base.
    expect(artifactFiles(first, 'results-jsio-bench-1')).toContain('traces.json');
    const traces = JSON.parse(ghPages(`data/${machine}/traces/${w.main}.json`)) as {
      commit: string;
      profiles: Record<string, Record<string, unknown>>;
    };
    expect(traces.commit).toBe(w.main);
    expect(Object.keys(traces.profiles).sort()).toEqual(['quick', 'smoke']);
    expect(Object.keys(traces.profiles.smoke!).some((id) => id.startsWith('wc/c/'))).toBe(true);
    expect(git(w.remote, 'log', '--format=%s', 'gh-pages')).toBe('Benchmarks of run 1 on jsio-bench-1');
    // Every point counted (gh-pages had no counts yet), and the counts went with the run into the store.
    expect(results.run.counting).toMatchObject({ store: 'reused', reused: 0 });
    expect(artifactFiles(first, 'results-jsio-bench-1')).toContain('counts.json');
    const counts = JSON.parse(ghPages(`data/${machine}/counts.json`)) as StoredCounts;
    // wc's C point under two keys: smoke's (timed) and quick's (counted untimed: --count-profiles "$PR_PROFILE").
    expect(
      Object.values(counts.counts)
        .filter((c) => c.id === 'wc/c/bs=65536')
        .map((c) => [c.commit, c.checks]),
    ).toEqual([
      [w.main, 0],
      [w.main, 0],
    ]);
    expect(results.run.counting.profiles).toEqual([
      expect.objectContaining({ profile: 'quick', reused: 0, deferred: 0 }),
    ]);
    // The token reached git only through the environment: nothing on gh-pages holds it.
    expect(spawnSync('git', ['-C', w.remote, 'grep', '-q', TOKEN, 'gh-pages']).status).toBe(1);
  });

  // What carries from one workflow to another through gh-pages (act starts every run afresh, the
  // bare repository is what persists): a pull request based on the published commit is planned
  // from the traces that run stored and measured against the thresholds and counts it published.
  it('a second dispatch, of the next commit of main, whose benchmark answers wrongly: the bench job fails at its end with the reason, and its results are published beside the first', {
    timeout: 900_000,
  }, async () => {
    commitAndPush(
      w,
      w.main,
      'refs/heads/main',
      (d) => {
        const f = join(d, 'programs', 'wc', 'wc-c.c');
        const marker = 'bytes += (unsigned long long)n;';
        const src = readFileSync(f, 'utf8');
        expect(src).toContain(marker);
        writeFileSync(f, src.replace(marker, 'bytes += (unsigned long long)n + 1;'));
      },
      'wc-c miscounts',
    );
    // Named by its ref (main's head): the ref check runs and passes, and that commit is checked out.
    const r = await dispatch('dispatch-wrong', { ref: w.main });
    expect(
      step(r, 'bench', 'Refuse a ref that is not a commit of main (unmerged code is measured by pr.yml)').result,
    ).toBe('success');
    expect(r.status).not.toBe(0);
    expect(r.jobs.bench?.result).toBe('failure');
    expect(step(r, 'bench', 'Run the suite').result).toBe('success');
    expect(step(r, 'bench', 'Run the suite').output).toContain('some benchmarks failed');
    expect(step(r, 'bench', 'Fail if benchmarks failed').result).toBe('failure');
    const results = JSON.parse(artifactFile(r, 'results-jsio-bench-1', 'results.json')) as {
      benchmarks: { variant: string; status: string; reason?: string }[];
    };
    const wcC = results.benchmarks.find((b) => b.variant === 'c')!;
    expect(wcC.status).toBe('failed');
    expect(results.benchmarks.find((b) => b.variant === 'dd-null')?.status).toBe('ok');
    expect(r.jobs.bench!.summary).toContain(wcC.reason!.slice(0, 40));
    expect(r.jobs.publish?.result).toBe('success');
    const index = JSON.parse(ghPages(`data/${machine}/index.json`)) as { commits: { sha: string }[] };
    expect(index.commits.map((c) => c.sha).sort()).toEqual([firstSha, w.main].sort());
    for (const sha of [firstSha, w.main]) expect(ghPages(`data/${machine}/runs/${sha}/smoke.json`)).toContain(sha);
    expect(git(w.remote, 'rev-list', '--count', 'gh-pages')).toBe('2');
  });

  // A push of the next commit, narrowed by the repository's variables to the dispatches' workload:
  // the push-only steps (the harness mark's base, checked out with its own dependencies) and the
  // real github-action-benchmark run, and the stored count is taken and re-checked live.
  it("a push to main that changes the reported centre, narrowed by the repository's variables: the previous commit's code records this harness at the pull requests' profile and the commit is marked, the stored count is re-checked live and merged into gh-pages' counts.json, and github-action-benchmark publishes the headline series", {
    timeout: 900_000,
  }, async () => {
    const wrongSha = w.main;
    const median = 'value: stats.median,';
    const { sha, r } = await pushMain(
      'push-narrowed',
      {
        PR_BENCH_FLAGS: PR_FLAGS,
        BENCH_DEFAULT_PROFILE: 'smoke',
        BENCH_EXPERIMENTS: NARROW.experiments,
        BENCH_VARIANTS: NARROW.variants,
        BENCH_PARAMS: NARROW.params,
      },
      (d) => {
        const f = join(d, 'harness', 'src', 'run', 'normalize.ts');
        const src = readFileSync(f, 'utf8');
        expect(src).toContain(median);
        writeFileSync(f, src.replace(median, 'value: stats.mean,'));
      },
    );
    expect(r.status, why(r)).toBe(0);
    expect([r.jobs.bench?.result, r.jobs.publish?.result]).toEqual(['success', 'success']);
    const results = JSON.parse(artifactFile(r, 'results-jsio-bench-1', 'results.json')) as Counted & {
      benchmarks: { experiment: string; variant: string; status: string }[];
    };
    expect(results.run.commit.sha).toBe(sha);
    expect(results.benchmarks.map((b) => `${b.experiment}/${b.variant} ${b.status}`).sort()).toEqual([
      'wc/c ok',
      'wc/dd-null ok',
    ]);
    // The harness mark's base: the previous commit this machine published, checked out with its
    // own dependencies. Its harness reports the median, this one's the mean: its code records both
    // (a dispatch keeps no recording) at the pull requests' profile and flags, as a diff would.
    // Its wc/c answers wrongly (the dispatch above), so its recorded bench exits 1 and the mark says
    // what it changes is not known, rather than naming the moves (harness-mark.integration.test.ts does).
    expect(step(r, 'bench', "The previous commit this machine published (a harness mark's base)").output).toContain(
      wrongSha,
    );
    expect(step(r, 'bench', 'Its dependencies, from its own lockfile').result).toBe('success');
    expect(step(r, 'bench', 'Whether the harness changed since that commit').output).toContain('harness=changed');
    const marking = step(r, 'bench', "Record what both harnesses run and compute (the harness mark's reason)");
    expect(marking.result).toBe('success');
    expect(marking.output).toContain(`no stored recording of the base (${wrongSha.slice(0, 12)})`);
    // Run from the previous commit's checkout, recording it and this commit's clean copy.
    expect(marking.output).toMatch(/\/previous and \S+\/recorded at once/);
    expect(marking.output).toContain(`bench --profile quick ${PR_FLAGS} under strace`);
    expect(marking.output).toContain('a recorded bench did not finish (base exited 1, head 0)');
    const marks = JSON.parse(ghPages(`data/${machine}/marks.json`)) as {
      commits: Record<string, { marks: { kind: string; reason: string; source: string }[] }>;
    };
    const harness = marks.commits[sha]?.marks.find((m) => m.kind === 'harness');
    expect(harness?.reason).toBe(
      `the harness changed since ${wrongSha.slice(0, 12)}: its recordings did not finish (previous exited 1, this one 0): what it changes is not known`,
    );
    expect(harness?.source).toContain(`bench --profile quick ${PR_FLAGS}`);
    // The narrowed suite builds no static just(js) binary: a warning, not a failure.
    expect(step(r, 'bench', 'Upload the static just(js) binary').output).toMatch(/No files were found/);
    // wc's C point: its key is in the store the bench job read from gh-pages, so it is only re-checked.
    expect(results.run.counting).toMatchObject({ store: 'reused', dropped: [] });
    expect(results.run.counting.rechecked).toContainEqual({ id: 'wc/c/bs=65536', family: 'native', agreed: true });
    expect(step(r, 'bench', 'Run the suite').output).toMatch(/counts: \d+ reused from the store/);
    // The quick profile's (--count-profiles "$PR_PROFILE") were stored too: taken, not counted again.
    expect(results.run.counting.profiles).toEqual([
      expect.objectContaining({ profile: 'quick', counted: 0, deferred: 0, failed: 0 }),
    ]);
    const counts = JSON.parse(ghPages(`data/${machine}/counts.json`)) as StoredCounts;
    // Two keys of wc's C point: smoke's, re-checked once, and quick's, counted untimed beside it.
    const c = Object.values(counts.counts).filter((x) => x.id === 'wc/c/bs=65536');
    expect(c.map((x) => [x.commit, x.checks]).sort()).toEqual([
      [firstSha, 0],
      [firstSha, 1],
    ]);
    // A push of the default profile: the real github-action-benchmark appends this commit's headline series.
    const gate = step(r, 'publish', 'What github-action-benchmark gets').output;
    expect(gate).toContain(`sha=${sha}`);
    expect(gate).toContain('smaller=true');
    expect(step(r, 'publish', 'Headline series (smaller is better)').result).toBe('success');
    expect(ghPages(`data/${machine}/runs/${sha}/smoke.json`)).toContain(sha);
    const dataJs = ghPages(`dev/bench/${machine}/data.js`);
    expect(dataJs).toContain(sha);
    expect(dataJs).not.toContain(firstSha);
    // This commit's harness, recorded at the pull requests' profile and flags, kept for them in gh-pages.
    expect(step(r, 'bench', "Record this commit's harness for the pull requests based on it").output).toContain(
      'recording: results/latest/recording.json',
    );
    const kept = join(w.root, 'kept-store');
    mkdirSync(join(kept, machine, 'recordings'), { recursive: true });
    const gz = `data/${machine}/recordings/${sha}.json.gz`;
    writeFileSync(
      join(kept, machine, 'recordings', `${sha}.json.gz`),
      execFileSync('git', ['-C', w.remote, 'show', `gh-pages:${gz}`]),
    );
    const rec = readStoredRecording(kept, machine, sha)!;
    expect(rec.exit).toBe(0);
    expect(rec.transcript.bench).toEqual(['--profile', 'quick', ...PR_FLAGS.split(' ')]);
    // With the timed run's raw samples (--measured): a pull request's moves are sized on them.
    expect(rec.measured?.profile).toBe('smoke');
    expect(JSON.parse(rec.measured!.raw).commit).toBe(sha);
  });

  /** A pull request's head: main with `from` replaced by `to` in the harness file `file` (which must hold it), pushed. */
  function harnessPullRequest(pr: number, file: string, from: string, to: string, message: string): string {
    return commitAndPush(
      w,
      w.main,
      `refs/pull/${pr}/head`,
      (d) => {
        const f = join(d, file);
        const src = readFileSync(f, 'utf8');
        expect(src).toContain(from);
        writeFileSync(f, src.replace(from, to));
      },
      message,
    );
  }

  /** pr.yml on a pull request from the world's own repository (no approval), at the PR flags, budget 1 minute. */
  async function pullRequestRun(
    api: Awaited<ReturnType<typeof standInApi>>,
    pr: { name: string; number: number; head: string; base: string; ref: string },
  ): Promise<ActRun> {
    api.pulls[pr.number] = {
      number: pr.number,
      state: 'open',
      head: { sha: pr.head },
      base: { repo: { full_name: REPOSITORY } },
    };
    return runAct({
      world: w,
      name: pr.name,
      workflow: '.github/workflows/pr.yml',
      event: 'pull_request_target',
      payload: {
        action: 'opened',
        number: pr.number,
        repository: { full_name: REPOSITORY, default_branch: 'main' },
        sender: { login: 'alice', type: 'User' },
        pull_request: {
          number: pr.number,
          user: { login: 'alice', type: 'User' },
          head: { sha: pr.head, ref: pr.ref, repo: { full_name: REPOSITORY } },
          base: { ref: 'main', sha: pr.base, repo: { full_name: REPOSITORY } },
        },
      },
      vars: { PR_BUDGET_MINUTES: '1', PR_BENCH_FLAGS: PR_FLAGS },
      api,
      tools: { node: ['22'] },
    });
  }

  // After the push above: its commit's traces and its harness's recording are in gh-pages.
  it("a pull request changing the harness, on the pushed commit: the plan takes the base's traces from gh-pages, only the head is recorded (the base's recording is the push's), it measures the same, and the base's harness measures the diff", {
    timeout: 900_000,
  }, async () => {
    const api = await standInApi(REPOSITORY);
    try {
      const PR = 3;
      const base = w.main;
      // A harness change that survives minification and changes nothing that runs.
      const start = 'export async function measureJob(job: Job, tools: Tools): Promise<RawSamples> {';
      const head = harnessPullRequest(
        PR,
        'harness/src/run/measure.ts',
        start,
        `${start}\n  if (process.env.JSIO_UNUSED_SETTING === 'never') process.stderr.write('');`,
        'a harness change that measures the same',
      );
      const r = await pullRequestRun(api, { name: 'pr-harness-change', number: PR, head, base, ref: 'harness' });
      expect(r.status, why(r)).toBe(0);
      expect([r.jobs.plan?.result, r.jobs.diff?.result]).toEqual(['success', 'success']);
      const planFile = join(w.root, 'plan-harness-change.json');
      writeFileSync(planFile, artifactFile(r, 'trusted-plan', 'plan.json'));
      const plan = readTrustedPlan(planFile);
      expect(plan.base.commit).toBe(base);
      // The push traced both narrowed points at the pull requests' profile: none is traced again.
      expect(plan.traced?.fromStore).toBe(2);
      // The push's recording of the base stood for it: only the head was recorded, in another job.
      const recorded = step(r, 'diff', 'Record what both harnesses run and compute (when the harness changed)');
      expect(recorded.output).toContain("the base's recording from the trend store");
      const verdictFile = join(w.root, 'transcripts-harness-change.json');
      writeFileSync(verdictFile, artifactFile(r, 'harness-transcripts', 'transcripts.json'));
      const verdict = readVerdictFile(verdictFile);
      expect(verdict.base).toEqual({ commit: base, stored: true });
      expect(verdict.verdict.runs.differences, JSON.stringify(verdict.verdict.runs.differences)).toEqual([]);
      expect(measuresTheSame(verdict.verdict)).toBe(true);
      expect(
        step(r, 'diff', "Which harness measures (the base's, unless the harness changed and its recordings differ)")
          .output,
      ).toContain('side=base');
      // The diff read the store publish wrote, the noise.json it made for this uncalibrated machine included.
      expect(JSON.parse(ghPages(`data/${machine}/noise.json`))).toMatchObject({ machine });
      const cmp = JSON.parse(artifactFile(r, 'perf-diff', 'comparison.json')) as { base: { commits: string[] } };
      expect(cmp.base.commits).toEqual([base]);
      expect(artifactFile(r, 'perf-diff', 'comparison.md')).toContain('measures the same, exact');
    } finally {
      await api.close();
    }
  });

  it("a pull request changing the commands hyperfine times: the recordings list them, the base's harness measures, and the points are timed in pairs with each side's recorded commands", {
    timeout: 900_000,
  }, async () => {
    const api = await standInApi(REPOSITORY);
    try {
      const PR = 4;
      const base = w.main;
      const timed = '`set -o pipefail; ${commandLine(sizes[i]!)}`';
      const stricter = timed.replace('pipefail;', 'pipefail -o nounset;');
      const head = harnessPullRequest(
        PR,
        'harness/src/run/hyperfine-runner.ts',
        timed,
        stricter,
        'stricter timed commands',
      );
      const r = await pullRequestRun(api, { name: 'pr-timed-commands', number: PR, head, base, ref: 'timed' });
      expect(r.status, why(r)).toBe(0);
      expect([r.jobs.plan?.result, r.jobs.diff?.result]).toEqual(['success', 'success']);
      const verdictFile = join(w.root, 'transcripts-timed-commands.json');
      writeFileSync(verdictFile, artifactFile(r, 'harness-transcripts', 'transcripts.json'));
      const verdict = readVerdictFile(verdictFile).verdict;
      const paired = (verdict.runs.replay ?? []).map((x) => x.point);
      expect(paired.length, JSON.stringify(verdict.runs.differences)).toBeGreaterThan(0);
      expect(paired).toContain('wc/c/bs=65536');
      const side = step(
        r,
        'diff',
        "Which harness measures (the base's, unless the harness changed and its recordings differ)",
      );
      expect(side.output).toContain('side=base');
      expect(side.output).toContain('own timed commands or their environment');
      const cmp = JSON.parse(artifactFile(r, 'perf-diff', 'comparison.json')) as PairsComparison;
      expect([...(cmp.harnessShift?.paired ?? [])].sort()).toEqual([...paired].sort());
      expect(cmp.harnessShift?.rounds).toBe(0);
      for (const id of paired) {
        const point = cmp.points.find((p) => p.benchmark === id);
        expect(point, id).toMatchObject({ impact: 'affected' });
        expect(point!.pairs, id).toBeGreaterThan(0);
      }
      expect(artifactFile(r, 'perf-diff', 'comparison.md')).toContain('Timed in pairs, as a program change is:');
    } finally {
      await api.close();
    }
  });

  it('a dispatch the harness refuses fails at the suite step, saying so; nothing is uploaded', {
    timeout: 600_000,
  }, async () => {
    const r = await dispatch('dispatch-refused', { experiments: 'no-such-experiment', variants: '', params: '' });
    expect(r.jobs.bench?.result).toBe('failure');
    const suite = step(r, 'bench', 'Run the suite');
    expect(suite.result).toBe('failure');
    expect(suite.output).toContain('::error::the harness refused to run (exit 2)');
    expect(step(r, 'bench', 'Upload results').result).toBe('skipped');
    expect(artifactNames(r)).toEqual([]);
  });

  it('a dispatched ref that is not on main is refused before any of its code runs', { timeout: 600_000 }, async () => {
    const side = commitAndPush(
      w,
      w.main,
      'refs/heads/unmerged',
      (d) => writeFileSync(join(d, 'UNMERGED'), 'x'),
      'not on main',
    );
    const r = await dispatch('dispatch-unmerged', { ref: side });
    expect(r.jobs.bench?.result).toBe('failure');
    expect(
      step(r, 'bench', 'Refuse a ref that is not a commit of main (unmerged code is measured by pr.yml)').result,
    ).toBe('failure');
    expect(step(r, 'bench', 'npm ci --ignore-scripts').result).toBe('skipped');
    expect(artifactNames(r)).toEqual([]);
  });

  // The full suite at smoke size (several minutes): only where JSIO_ACT_FULL=1.
  it.runIf(process.env.JSIO_ACT_FULL === '1')(
    'a push to main measures the whole suite and publishes it, github-action-benchmark included',
    { timeout: 1_800_000 },
    async () => {
      const { sha, r } = await pushMain('push', { BENCH_DEFAULT_PROFILE: 'smoke' });
      expect(r.status, why(r)).toBe(0);
      const results = JSON.parse(artifactFile(r, 'results-jsio-bench-1', 'results.json')) as {
        benchmarks: { status: string }[];
      };
      expect(results.benchmarks.filter((b) => b.status !== 'ok')).toEqual([]);
      expect(artifactNames(r)).toEqual(['just-static-jsio-bench-1', 'results-jsio-bench-1']);
      const gate = step(r, 'publish', 'What github-action-benchmark gets').output;
      expect(gate).toContain(`sha=${sha}`);
      for (const s of ['Headline series (smaller is better)', 'Headline series (bigger is better)'])
        if (gate.includes(`${s.includes('smaller') ? 'smaller' : 'bigger'}=true`))
          expect(step(r, 'publish', s).result).toBe('success');
      const dataJs = ghPages(`dev/bench/${machine}/data.js`);
      expect(dataJs).toContain(sha);
      const index = JSON.parse(ghPages(`data/${machine}/index.json`)) as { commits: { sha: string }[] };
      expect(index.commits.map((c) => c.sha)).toContain(sha);
    },
  );

  it('left the machine alone: its HOME and git configuration are as they were', () => {
    expect(hostState()).toEqual(before);
  });
});
