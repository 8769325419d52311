// The workflows' decisions (harness/src/workflow/): which pull requests need a maintainer's
// approval, whether the approved commit is still the pull request's head, which finished run
// pr-comment may post for, what github-action-benchmark is fed, which commit a nightly run
// measures, and the identifier patterns behind them. Pure functions, plus the `workflow`
// command run in-process against a local stand-in for the GitHub API and real git.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowCommand } from '../../src/cli/commands/workflow.js';
import { assertRealInside } from '../../src/lib/fs-safety.js';
import { assertParamValue, assertSegment, assertSha, joinInside } from '../../src/lib/ids.js';
import { GabEntry } from '../../src/report/gab.js';
import { pickCommit } from '../../src/workflow/backfill.js';
import { type GabGateInput, gabGate, parseGabDataJs } from '../../src/workflow/gab-gate.js';
import { checkApprovedHead, classifyPullRequest } from '../../src/workflow/pr-gate.js';
import { commentTarget, runTitle } from '../../src/workflow/workflow-run.js';
import { runCli } from '../helpers/cli.js';
import { pairsComparison } from '../helpers/pairs.js';
import { wcResults } from '../helpers/results.js';

/** An artifact's comparison.json (validated as pr-comment validates it) whose head is `sha`. */
const comparisonOf = (sha: string) => {
  const c = pairsComparison();
  c.head.commits = [sha];
  return JSON.stringify(c);
};

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const REPO = 'owner/jsio-bench';
const tmp = () => mkdtempSync(join(tmpdir(), 'jsio-wf-'));

describe('identifiers that become paths', () => {
  it.each(['..', '../x', 'a/b', '/abs', 'a..b', '.hidden', '', 'x'.repeat(101), 'a\0b', 'a b', '-flag'])(
    'refuses %j as a path segment',
    (v) => {
      expect(() => assertSegment('machine', v)).toThrow(/machine: .* is not a plain name/);
    },
  );
  it.each(['runner-1-0a1b2c3d', 'wc', 'node-stream', 'v1.2_x'])('accepts %j', (v) =>
    expect(assertSegment('x', v)).toBe(v),
  );
  it('accepts only full lower-case commit ids', () => {
    expect(assertSha('sha', A)).toBe(A);
    for (const v of ['A'.repeat(40), 'a'.repeat(39), `${A}/..`, `../${A}`, 'HEAD', 42])
      expect(() => assertSha('sha', v)).toThrow(/commit id/);
  });
  it('accepts numbers and plain tokens as parameter values, nothing that walks', () => {
    expect(assertParamValue('bs', 65536)).toBe(65536);
    expect(assertParamValue('mode', 'sync')).toBe('sync');
    for (const v of ['../x', 'a/b', '..', Number.NaN, '']) expect(() => assertParamValue('p', v)).toThrow();
  });
  it('joins only plain segments and stays inside the root', () => {
    expect(joinInside('/store', 'm-1', 'runs')).toBe('/store/m-1/runs');
    expect(() => joinInside('/store', '..', 'etc')).toThrow();
  });
  it('sees through symlinks: a link inside the root that points out is refused, a dangling one too', () => {
    const d = tmp();
    mkdirSync(join(d, 'store', 'm'), { recursive: true });
    mkdirSync(join(d, 'outside'));
    symlinkSync(join(d, 'outside'), join(d, 'store', 'm', 'runs'));
    symlinkSync(join(d, 'nowhere'), join(d, 'store', 'dangling'));
    expect(assertRealInside(join(d, 'store'), join(d, 'store', 'm', 'index.json'))).toBe(
      join(d, 'store', 'm', 'index.json'),
    );
    expect(() => assertRealInside(join(d, 'store'), join(d, 'store', 'm', 'runs', 'x.json'))).toThrow(/resolves to/);
    expect(() => assertRealInside(join(d, 'store'), join(d, 'store', 'dangling', 'x'))).toThrow(/dangling/);
  });
});

describe('pull-request trust', () => {
  const ev = (o: {
    headRepo?: string | null;
    userType?: string;
    userLogin?: string;
    senderType?: string;
    senderLogin?: string;
  }) => ({
    repository: { full_name: REPO },
    sender: { login: o.senderLogin ?? 'alice', type: o.senderType ?? 'User' },
    pull_request: {
      number: 7,
      user: { login: o.userLogin ?? 'alice', type: o.userType ?? 'User' },
      head: { sha: A, repo: o.headRepo === null ? null : { full_name: o.headRepo ?? REPO } },
    },
  });
  it.each([
    ['a branch of this repository pushed by a person', ev({}), 'trusted'],
    ['a fork', ev({ headRepo: 'stranger/jsio-bench' }), 'needs-approval'],
    ['a deleted fork', ev({ headRepo: null }), 'needs-approval'],
    [
      'Dependabot (a branch of this repository, opened by a bot)',
      ev({ userType: 'Bot', userLogin: 'dependabot[bot]', senderType: 'Bot', senderLogin: 'dependabot[bot]' }),
      'needs-approval',
    ],
    ['a person pushing onto a bot branch', ev({ userType: 'Bot', userLogin: 'renovate[bot]' }), 'needs-approval'],
    [
      'a bot pushing onto a person branch',
      ev({ senderType: 'Bot', senderLogin: 'github-actions[bot]' }),
      'needs-approval',
    ],
  ])('%s: %s', (_n, e, trust) => expect(classifyPullRequest(e).trust).toBe(trust));
});

describe('the approved commit must still be the head', () => {
  const now = (o: Partial<{ number: number; state: string; sha: string; base: string }> = {}) => ({
    number: o.number ?? 7,
    state: o.state ?? 'open',
    head: { sha: o.sha ?? A },
    base: { repo: { full_name: o.base ?? REPO } },
  });
  it('passes when nothing moved', () => expect(checkApprovedHead(now(), { pr: 7, sha: A, repo: REPO }).ok).toBe(true));
  it.each([
    ['the head moved', now({ sha: B }), /moved: this run was approved for a{40}, its head is now b{40}/],
    ['it was closed', now({ state: 'closed' }), /is closed/],
    ['it targets another repository', now({ base: 'other/repo' }), /not a pull request into/],
    ['GitHub answered for another number', now({ number: 8 }), /not #7/],
  ])('refuses when %s', (_n, n, msg) => {
    const r = checkApprovedHead(n, { pr: 7, sha: A, repo: REPO });
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(msg);
  });
});

describe('pr-comment posts only for our pr.yml on pull_request_target, for the commit in its title', () => {
  const run = (o: Record<string, unknown> = {}) => ({
    repository: { full_name: REPO, default_branch: 'main' },
    workflow_run: {
      event: 'pull_request_target',
      path: '.github/workflows/pr.yml',
      conclusion: 'success',
      display_title: runTitle(7, A),
      repository: { full_name: REPO },
      ...o,
    },
  });
  const expectOk = { repository: REPO, workflowPath: '.github/workflows/pr.yml' };
  const art = (pr = '7', commits: unknown = [A, A]) => ({ prNumber: `${pr}\n`, headCommits: commits });
  it('accepts the real thing', () => expect(commentTarget(run(), expectOk, art())).toEqual({ pr: 7, sha: A }));
  // The merge check (PR_FAIL_ON) fails the run after its artifact: the comment says why.
  it('accepts a run whose merge check failed', () =>
    expect(commentTarget(run({ conclusion: 'failure' }), expectOk, art())).toEqual({ pr: 7, sha: A }));
  it.each([
    [
      'a fork workflow named "PR perf diff" on pull_request',
      run({ event: 'pull_request' }),
      art(),
      /not by pull_request_target/,
    ],
    [
      'another workflow file of the same name',
      run({ path: '.github/workflows/evil.yml' }),
      art(),
      /not of \.github\/workflows\/pr\.yml/,
    ],
    [
      'a run in another repository',
      run({ repository: { full_name: 'stranger/jsio-bench' } }),
      art(),
      /belongs to stranger/,
    ],
    ['a title that names no commit', run({ display_title: 'Fix typo' }), art(), /does not name a pull request/],
    ['an artifact for another pull request', run(), art('8'), /for pull request "8"/],
    ['an artifact that measured another commit', run(), art('7', [A, B]), /measured "b{40}"/],
    ['an artifact with no head commit', run(), art('7', []), /names no head commit/],
    ['a cancelled run', run({ conclusion: 'cancelled' }), art(), /conclusion is "cancelled", not success or failure/],
  ])('refuses %s', (_n, e, a, msg) => expect(() => commentTarget(e, expectOk, a)).toThrow(msg));
});

describe('github-action-benchmark gate', () => {
  const data = (entries: [string, string][]) =>
    parseGabDataJs(
      `window.BENCHMARK_DATA = ${JSON.stringify({
        lastUpdate: 1,
        repoUrl: 'x',
        entries: {
          'jsio-bench m (smaller is better)': entries
            .filter(([t]) => t === 'customSmallerIsBetter')
            .map(([tool, id]) => ({ commit: { id }, tool, date: 1, benches: [] })),
          'jsio-bench m (bigger is better)': entries
            .filter(([t]) => t === 'customBiggerIsBetter')
            .map(([tool, id]) => ({ commit: { id }, tool, date: 1, benches: [] })),
        },
      })}`,
    );
  const base: GabGateInput = {
    event: 'push',
    workflowSha: B,
    measuredSha: B,
    machine: 'm',
    profile: 'standard',
    defaultProfile: 'standard',
    dispatchFilters: '',
    rows: { customSmallerIsBetter: 3, customBiggerIsBetter: 2 },
    data: undefined,
    isAncestor: () => true,
  };
  const feeds = (o: Partial<GabGateInput>) => {
    const d = gabGate({ ...base, ...o });
    return [d.feed.customSmallerIsBetter, d.feed.customBiggerIsBetter];
  };
  it('feeds a push of the default profile, both directions', () => expect(feeds({})).toEqual([true, true]));
  it('feeds a nightly run and an unfiltered dispatch', () => {
    expect(feeds({ event: 'schedule' })).toEqual([true, true]);
    expect(feeds({ event: 'workflow_dispatch' })).toEqual([true, true]);
  });
  it('skips a filtered dispatch, another profile, a back-fill, another event', () => {
    expect(feeds({ event: 'workflow_dispatch', dispatchFilters: 'records' })).toEqual([false, false]);
    expect(feeds({ profile: 'smoke' })).toEqual([false, false]);
    expect(feeds({ event: 'schedule', measuredSha: A })).toEqual([false, false]);
    expect(feeds({ event: 'pull_request_target' })).toEqual([false, false]);
  });
  it('skips a direction whose file is absent or empty (the action fails on [])', () => {
    expect(feeds({ rows: { customSmallerIsBetter: undefined, customBiggerIsBetter: 4 } })).toEqual([false, true]);
    expect(feeds({ rows: { customSmallerIsBetter: 0, customBiggerIsBetter: 4 } })).toEqual([false, true]);
  });
  it('feeds each commit once per machine and direction (a re-run or a nightly run of a stored commit appends nothing)', () => {
    expect(
      feeds({
        data: data([
          ['customSmallerIsBetter', A],
          ['customBiggerIsBetter', A],
        ]),
      }),
    ).toEqual([true, true]);
    expect(
      feeds({
        data: data([
          ['customSmallerIsBetter', A],
          ['customSmallerIsBetter', B],
          ['customBiggerIsBetter', A],
        ]),
      }),
    ).toEqual([false, true]);
  });
  it('never appends out of order', () => {
    expect(feeds({ data: data([['customSmallerIsBetter', C]]), isAncestor: () => false })).toEqual([false, true]);
    // History rewritten (git does not know the stored commit): order cannot be checked, feed.
    expect(feeds({ data: data([['customSmallerIsBetter', C]]), isAncestor: () => undefined })).toEqual([true, true]);
  });
  it('refuses ids that are unsafe as a directory name or a ref', () => {
    expect(() => gabGate({ ...base, machine: '../../x' })).toThrow(/machine/);
    expect(() => gabGate({ ...base, measuredSha: 'main' })).toThrow(/commit id/);
  });
  it('reads data.js as the action writes it, and refuses anything else', () => {
    expect(Object.keys(data([]).entries)).toHaveLength(2);
    expect(() => parseGabDataJs('alert(1); window.BENCHMARK_DATA = {"entries":{}}')).toThrow(
      /not github-action-benchmark data/,
    );
    expect(() => parseGabDataJs('window.BENCHMARK_DATA = {"entries":{"x":[{"tool":"t"}]}}')).toThrow(
      'entries.x.0.commit: Invalid input: expected object, received undefined',
    );
  });
});

describe('nightly back-fill', () => {
  const H = [C, B, A, '1'.repeat(40), '2'.repeat(40)];
  it('measures the head when it is not stored', () =>
    expect(pickCommit({ head: C, history: H, stored: new Set([A]) })).toMatchObject({ sha: C, backfill: false }));
  it('back-fills the newest gap after the first stored commit', () =>
    expect(pickCommit({ head: C, history: H, stored: new Set([C, A]) })).toMatchObject({ sha: B, backfill: true }));
  it('does not measure history from before the machine existed', () =>
    expect(pickCommit({ head: C, history: H, stored: new Set([C, B, A]) })).toMatchObject({ sha: C, backfill: false }));
});

describe('npm run workflow (in-process)', () => {
  let server: Server;
  let api = '';
  const pulls: Record<string, unknown> = {};
  beforeAll(async () => {
    server = createServer((req, res) => {
      const m = /^\/repos\/owner\/jsio-bench\/pulls\/(\d+)$/.exec(req.url ?? '');
      const body = m ? pulls[m[1]!] : undefined;
      res
        .writeHead(body ? 200 : 404, { 'content-type': 'application/json' })
        .end(JSON.stringify(body ?? { message: 'Not Found' }));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const a = server.address();
    api = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  });
  afterAll(() => server.close());
  const run = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    let stdout = '';
    let stderr = '';
    const status = await workflowCommand(argv, {
      stdout: (s) => (stdout += s),
      stderr: (s) => (stderr += s),
      env: { GITHUB_REPOSITORY: REPO, GITHUB_TOKEN: 't', GITHUB_API_URL: api, ...env },
    });
    return { status, stdout, stderr };
  };

  it('pr-head: 0 with the outputs when the head is the approved one, 2 when it moved', async () => {
    pulls['7'] = { number: 7, state: 'open', head: { sha: A }, base: { repo: { full_name: REPO } } };
    expect(await run(['pr-head', '--pr', '7', '--sha', A])).toMatchObject({ status: 0, stdout: `pr=7\nsha=${A}\n` });
    const moved = await run(['pr-head', '--pr', '7', '--sha', B]);
    expect(moved.status).toBe(2);
    expect(moved.stderr).toMatch(/moved/);
    expect((await run(['pr-head', '--pr', '8', '--sha', A])).status).toBe(2);
    expect((await run(['pr-head', '--pr', '7;rm', '--sha', A])).status).toBe(2);
  });

  it('comment-target: reads the event and the artifact; 2 on a mismatch', async () => {
    const d = tmp();
    writeFileSync(
      join(d, 'event.json'),
      JSON.stringify({
        repository: { full_name: REPO, default_branch: 'main' },
        workflow_run: {
          event: 'pull_request_target',
          path: '.github/workflows/pr.yml',
          conclusion: 'success',
          display_title: runTitle(7, A),
          repository: { full_name: REPO },
        },
      }),
    );
    mkdirSync(join(d, 'artifact'));
    writeFileSync(join(d, 'artifact', 'pr-number'), '7');
    writeFileSync(join(d, 'artifact', 'comparison.json'), comparisonOf(A));
    const args = [
      'comment-target',
      '--event',
      join(d, 'event.json'),
      '--workflow-path',
      '.github/workflows/pr.yml',
      '--artifact',
      join(d, 'artifact'),
    ];
    expect(await run(args)).toMatchObject({ status: 0, stdout: `pr=7\nsha=${A}\n` });
    writeFileSync(join(d, 'artifact', 'comparison.json'), comparisonOf(B));
    expect((await run(args)).status).toBe(2);
    // The artifact is read as pr-comment reads it: a pr-number that is a symlink is refused, not followed.
    writeFileSync(join(d, 'artifact', 'comparison.json'), comparisonOf(A));
    writeFileSync(join(d, 'seven'), '7');
    rmSync(join(d, 'artifact', 'pr-number'));
    symlinkSync(join(d, 'seven'), join(d, 'artifact', 'pr-number'));
    const linked = await run(args);
    expect(linked.status).toBe(2);
    expect(linked.stderr).toMatch(/pr-number is a symlink: refusing it/);
  });

  it('gab-gate and pick-commit against real git history and files', async () => {
    const d = tmp();
    const git = (...a: string[]) =>
      execFileSync('git', ['-C', join(d, 'repo'), '-c', 'user.name=t', '-c', 'user.email=t@t', ...a], {
        encoding: 'utf8',
      }).trim();
    mkdirSync(join(d, 'repo'));
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'one');
    const one = git('rev-parse', 'HEAD');
    git('commit', '-q', '--allow-empty', '-m', 'two');
    const two = git('rev-parse', 'HEAD');
    git('commit', '-q', '--allow-empty', '-m', 'three');
    const three = git('rev-parse', 'HEAD');
    mkdirSync(join(d, 'out'), { recursive: true });
    // A valid run of wc with headline points (bs=65536 wall_time and throughput...).
    const r = wcResults(three);
    r.run.profile = 'standard';
    r.run.machine.id = 'm-1';
    writeFileSync(join(d, 'out', 'results.json'), JSON.stringify(r));
    mkdirSync(join(d, 'pages', 'dev', 'bench', 'm-1'), { recursive: true });
    writeFileSync(
      join(d, 'pages', 'dev', 'bench', 'm-1', 'data.js'),
      `window.BENCHMARK_DATA = ${JSON.stringify({ entries: { s: [{ commit: { id: one }, tool: 'customSmallerIsBetter' }] } })}`,
    );
    let outs = 0;
    const gate = (sha: string) =>
      run([
        'gab-gate',
        '--results',
        join(d, 'out', 'results.json'),
        '--out',
        join(d, `gab-inputs-${++outs}`),
        '--data-dir',
        join(d, 'pages', 'dev', 'bench'),
        '--event',
        'push',
        '--workflow-sha',
        sha,
        '--default-profile',
        'standard',
        '--repo',
        join(d, 'repo'),
      ]);
    expect((await gate(three)).stdout).toBe(`machine=m-1\nsha=${three}\nsmaller=true\nbigger=true\n`);
    expect((await gate(two)).stdout).toContain('smaller=false');

    mkdirSync(join(d, 'pages', 'data', 'm-1'), { recursive: true });
    writeFileSync(
      join(d, 'pages', 'data', 'm-1', 'index.json'),
      JSON.stringify({ commits: [{ sha: one }, { sha: three }] }),
    );
    const pick = await run([
      'pick-commit',
      '--repo',
      join(d, 'repo'),
      '--head',
      three,
      '--store',
      join(d, 'pages', 'data'),
      '--machine',
      'm-1',
    ]);
    expect([pick.status, pick.stdout.trim()]).toEqual([0, two]);
    expect(
      (
        await run([
          'pick-commit',
          '--repo',
          join(d, 'repo'),
          '--head',
          three,
          '--store',
          join(d, 'pages', 'data'),
          '--machine',
          '../m',
        ])
      ).status,
    ).toBe(2);
  });

  it("gab-gate regenerates the action's inputs from results.json; a forged gab/ in the artifact is never read", async () => {
    const d = tmp();
    const sha = 'c'.repeat(40);
    const r = wcResults(sha);
    r.run.profile = 'standard';
    mkdirSync(join(d, 'artifact', 'gab'), { recursive: true });
    writeFileSync(join(d, 'artifact', 'results.json'), JSON.stringify(r));
    // The attack: the machine wrote its own inputs: invented series, markup, a huge row count.
    const forged = [{ name: '<script>alert(1)</script>', unit: '<img src=x onerror=alert(1)>', value: 0 }];
    // Reproduced: the action's own entry shape accepts it (the old gate only counted its rows).
    expect(GabEntry.safeParse(forged[0]).success).toBe(true);
    for (const f of ['customSmallerIsBetter', 'customBiggerIsBetter'])
      writeFileSync(join(d, 'artifact', 'gab', `${f}.json`), JSON.stringify(Array(5000).fill(forged[0])));
    const out = join(d, 'gab-inputs');
    const args = ['gab-gate', '--results', join(d, 'artifact', 'results.json'), '--out', out].concat([
      '--data-dir',
      join(d, 'none'),
      '--event',
      'push',
      '--workflow-sha',
      sha,
      '--default-profile',
      'standard',
    ]);
    const gate = await run(args);
    expect(gate.status, gate.stderr).toBe(0);
    const fed = ['customSmallerIsBetter', 'customBiggerIsBetter'].map(
      (f) => JSON.parse(readFileSync(join(out, `${f}.json`), 'utf8')) as { name: string; unit: string }[],
    );
    const text = JSON.stringify(fed);
    expect(text).not.toContain('script');
    expect(text).not.toContain('<img');
    expect(fed.flat().every((e) => e.name.startsWith('wc/'))).toBe(true);
    expect(gate.stdout).toContain('smaller=true');
    // A second gate may not write into a directory it did not create.
    expect((await run(args)).status).toBe(2);
    // A results.json the schema refuses feeds nothing: exit 2 before anything is written.
    r.benchmarks[0]!.metrics.wall_time!.unit = forged[0]!.unit;
    writeFileSync(join(d, 'artifact', 'results.json'), JSON.stringify(r));
    const refused = await run([...args.slice(0, 4), join(d, 'gab-inputs-2'), ...args.slice(5)]);
    expect([refused.status, existsSync(join(d, 'gab-inputs-2'))]).toEqual([2, false]);
    expect(refused.stderr).toContain('benchmarks.0.metrics.wall_time.unit');
  });

  it('pick-commit --profile: a commit stored only with another profile (a smoke dispatch) is still a gap', async () => {
    const d = tmp();
    const repo = join(d, 'repo');
    mkdirSync(repo);
    const g = (...a: string[]) => execFileSync('git', ['-C', repo, ...a], { encoding: 'utf8' }).trim();
    g('init', '-q', '-b', 'main');
    const shas = ['a', 'b', 'c'].map((n) => {
      g('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', n);
      return g('rev-parse', 'HEAD');
    });
    const [one, two, three] = shas as [string, string, string];
    mkdirSync(join(d, 'data', 'm-1'), { recursive: true });
    writeFileSync(
      join(d, 'data', 'm-1', 'index.json'),
      JSON.stringify({
        commits: [
          { sha: one, runs: { legacy: {} } },
          { sha: two, runs: { smoke: {} } },
          { sha: three, runs: { standard: {}, smoke: {} } },
        ],
      }),
    );
    const pick = (...extra: string[]) =>
      run(['pick-commit', '--repo', repo, '--head', three, '--store', join(d, 'data'), '--machine', 'm-1', ...extra]);
    expect((await pick('--profile', 'standard')).stdout.trim()).toBe(two);
    expect((await pick()).stdout.trim()).toBe(three); // without --profile any run counts
  });

  it('unknown checks and bad flags are refusals (2), not crashes', async () => {
    expect((await run(['nope'])).status).toBe(2);
    expect((await run(['pr-head', '--bogus'])).status).toBe(2);
  });
});

describe('npm run workflow (through the CLI, as the workflows call it)', () => {
  it('is an npm command with the exit statuses of the others', () => {
    const r = runCli(['workflow', 'pick-commit', '--head', 'main', '--store', tmp(), '--machine', 'm']);
    expect([r.status, r.stderr]).toEqual([2, expect.stringMatching(/--head: "main" is not a full 40-character/)]);
  });
});
