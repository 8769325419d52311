// The PR-comment workflow's GitHub calls, run through the CLI against a local stand-in for the
// REST API (GitHub itself is unreachable here): finding the run's pull request by its head
// commit (forks included), and creating then updating one sticky comment without touching
// anyone else's.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/workflow/artifact.js';
import { STATUS_CONTEXT } from '../../src/workflow/github.js';
import { ROOT } from '../helpers/cli.js';
import { pairsComparison } from '../helpers/pairs.js';

interface Comment {
  id: number;
  body: string;
  user: { login: string };
}
interface Status {
  sha: string;
  state: string;
  context: string;
  description: string;
}
const state = {
  statuses: [] as Status[],
  pulls: [] as { number: number; head: { sha: string } }[],
  comments: [] as Comment[],
  nextId: 100,
  log: [] as string[],
  auth: new Set<string>(),
  foreignNext: false,
};
let server: Server;
let api = '';

function body(req: IncomingMessage): Promise<{ body: string }> {
  return new Promise((ok) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => ok(s ? (JSON.parse(s) as { body: string }) : { body: '' }));
  });
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', api);
    state.log.push(`${req.method} ${url.pathname}${url.search}`);
    state.auth.add(String(req.headers.authorization));
    const json = (status: number, data: unknown, link?: string) =>
      res
        .writeHead(status, { 'content-type': 'application/json', ...(link ? { link } : {}) })
        .end(JSON.stringify(data));
    const page = Number(url.searchParams.get('page') ?? '1');
    if (req.method === 'GET' && url.pathname === '/repos/o/r/pulls') {
      // Two pages: the client must follow the Link header (and only to this API).
      const next = state.foreignNext
        ? 'http://127.0.0.1:9/repos/o/r/pulls?page=2'
        : `${api}/repos/o/r/pulls?state=open&per_page=100&page=2`;
      return page === 1 ? json(200, state.pulls.slice(0, 1), `<${next}>; rel="next"`) : json(200, state.pulls.slice(1));
    }
    const m = /^\/repos\/o\/r\/issues\/(\d+)\/comments$/.exec(url.pathname);
    if (m && req.method === 'GET') return json(200, state.comments);
    if (m && req.method === 'POST') {
      const c = { id: state.nextId++, body: (await body(req)).body, user: { login: 'github-actions[bot]' } };
      state.comments.push(c);
      return json(201, c);
    }
    const st = /^\/repos\/o\/r\/statuses\/([0-9a-f]{40})$/.exec(url.pathname);
    if (st && req.method === 'POST') {
      state.statuses.push({ ...((await body(req)) as unknown as Omit<Status, 'sha'>), sha: st[1]! });
      return json(201, {});
    }
    const e = /^\/repos\/o\/r\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (e && req.method === 'PATCH') {
      const c = state.comments.find((x) => x.id === Number(e[1]));
      if (!c) return json(404, { message: 'Not Found' });
      c.body = (await body(req)).body;
      return json(200, c);
    }
    return json(404, { message: 'Not Found' });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address();
  api = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});
afterAll(() => server.close());
beforeEach(() => {
  Object.assign(state, {
    statuses: [],
    pulls: [],
    comments: [],
    nextId: 100,
    log: [],
    auth: new Set(),
    foreignNext: false,
  });
});

/** The CLI as the workflow runs it, asynchronously so this process can answer its requests. */
function cli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  command: string[] = ['pr-comment'],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    const p = spawn(process.execPath, [join(ROOT, 'harness', 'bootstrap.mjs'), ...command, ...args], {
      cwd: ROOT,
      env: { ...process.env, GITHUB_TOKEN: 'test-token', GITHUB_REPOSITORY: 'o/r', GITHUB_API_URL: api, ...env },
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c) => (stdout += c));
    p.stderr.on('data', (c) => (stderr += c));
    p.on('close', (status) => ok({ status, stdout, stderr }));
  });
}

const dir = () => mkdtempSync(join(tmpdir(), 'jsio-gh-'));
const SHA = 'f'.repeat(40);

function event(pullRequests: number[] = []): string {
  const f = join(dir(), 'event.json');
  writeFileSync(
    f,
    JSON.stringify({ workflow_run: { head_sha: SHA, pull_requests: pullRequests.map((number) => ({ number })) } }),
  );
  return f;
}

function artifact(pr: number): string {
  const d = dir();
  writeFileSync(join(d, 'comparison.json'), JSON.stringify(pairsComparison()));
  writeFileSync(join(d, 'pr-number'), String(pr));
  return d;
}

describe('pr-comment --find-pr', () => {
  it('finds a fork pull request (no pull_requests in the event) by its head commit, across pages', async () => {
    state.pulls = [
      { number: 3, head: { sha: 'a'.repeat(40) } },
      { number: 7, head: { sha: SHA } },
    ];
    const r = await cli(['--find-pr', '--event', event()]);
    expect(r.stderr).not.toContain('error');
    expect([r.status, r.stdout]).toEqual([0, '7\n']);
    expect([...state.auth]).toEqual(['Bearer test-token']);
  });

  it.each([
    [
      'no open pull request has it',
      [{ number: 3, head: { sha: 'a'.repeat(40) } }],
      [],
      /no open pull request has head f{40}/,
    ],
    [
      'two have it',
      [
        { number: 3, head: { sha: SHA } },
        { number: 4, head: { sha: SHA } },
      ],
      [],
      /several open pull requests have head f{40} \(#3, #4\)/,
    ],
    [
      'the event names another one',
      [{ number: 7, head: { sha: SHA } }],
      [8],
      /the run names pull request #8 but its head commit belongs to #7/,
    ],
  ])('refuses when %s', async (_name, pulls, named, message) => {
    state.pulls = pulls;
    const r = await cli(['--find-pr', '--event', event(named)]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('does not follow a pagination link to another host', async () => {
    state.pulls = [
      { number: 3, head: { sha: 'a'.repeat(40) } },
      { number: 7, head: { sha: SHA } },
    ];
    state.foreignNext = true;
    const r = await cli(['--find-pr', '--event', event()]);
    expect(r.status).toBe(2);
    expect(state.log).toEqual(['GET /repos/o/r/pulls?state=open&per_page=100']);
  });
});

describe('pr-comment --post', () => {
  it('creates the sticky comment once, then updates it, leaving a human quoting the marker alone', async () => {
    state.comments = [{ id: 1, body: `${COMMENT_MARKER} quoted by a person`, user: { login: 'someone' } }];
    const first = await cli(['--artifact', artifact(42), '--pr', '42', '--out', join(dir(), 'c.md'), '--post']);
    expect(first.stderr).toContain('created comment 100 on pull request #42');
    const second = await cli(['--artifact', artifact(42), '--pr', '42', '--post']);
    expect(second.stderr).toContain('updated comment 100 on pull request #42');
    expect(
      state.comments.map((c) => [c.id, c.user.login, c.body.startsWith(`${COMMENT_MARKER}\n**Merge check`)]),
    ).toEqual([
      [1, 'someone', false],
      [100, 'github-actions[bot]', true],
    ]);
    expect(state.log.filter((l) => !l.startsWith('GET'))).toEqual([
      'POST /repos/o/r/issues/42/comments',
      'PATCH /repos/o/r/issues/comments/100',
    ]);
  });

  it('posts nothing when the artifact does not validate', async () => {
    const r = await cli(['--artifact', artifact(43), '--pr', '42', '--post']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("artifact pr-number 43 does not match the run's pull request 42");
    expect(state.log).toEqual([]);
  });

  it('names the failing API call', async () => {
    const r = await cli(['--artifact', artifact(42), '--pr', '42', '--post'], { GITHUB_REPOSITORY: 'o/missing' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/GitHub API GET \/repos\/o\/missing\/issues\/42\/comments\?per_page=100 failed: 404/);
  });
});

describe('the merge check as a commit status', () => {
  it("pr-comment --status sets the judgement on the head: here a failure (no pair record), in GitHub's 140 characters", async () => {
    const r = await cli(['--artifact', artifact(42), '--pr', '42', '--status', '--sha', SHA]);
    expect(r.status, r.stderr).toBe(0);
    expect(state.statuses).toEqual([expect.objectContaining({ sha: SHA, state: 'failure', context: STATUS_CONTEXT })]);
    expect(state.statuses[0]!.description.length).toBeLessThanOrEqual(140);
    expect(state.statuses[0]!.description).toMatch(/^the artifact has no pair record/);
  });

  it('workflow merge-status sets pending or failure, never success', async () => {
    const ok = await cli(['--sha', SHA, '--state', 'pending', '--description', 'measuring'], {}, [
      'workflow',
      'merge-status',
    ]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(state.statuses).toEqual([{ sha: SHA, state: 'pending', context: STATUS_CONTEXT, description: 'measuring' }]);
    const no = await cli(['--sha', SHA, '--state', 'success', '--description', 'x'], {}, ['workflow', 'merge-status']);
    expect(no.status).toBe(2);
    expect(no.stderr).toContain('--state "success": expected pending or failure');
    const bad = await cli(['--sha', 'HEAD', '--state', 'failure', '--description', 'x'], {}, [
      'workflow',
      'merge-status',
    ]);
    expect(bad.status).toBe(2);
    expect(state.statuses).toHaveLength(1);
  });

  it('pr-comment --status without --sha is refused before any call: no comment, no status', async () => {
    const r = await cli(['--artifact', artifact(42), '--pr', '42', '--post', '--status']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--status needs --sha SHA');
    expect(state.statuses).toEqual([]);
    expect(state.log).toEqual([]);
  });
});
