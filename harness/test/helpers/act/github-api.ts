/**
 * A stand-in for the GitHub REST API on 127.0.0.1, for workflows run under act: it records every
 * request (method, path, parsed JSON body), keeps pull requests, issue comments and commit
 * statuses, and serves the artifacts act's artifact server stored for a run, the way
 * download-artifact asks for another run's artifacts (a list, then a zip behind a redirect).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';

interface ApiRequest {
  method: string;
  path: string;
  body?: unknown;
}
interface Comment {
  id: number;
  issue: number;
  body: string;
  user: { login: string };
}
interface CommitStatus {
  sha: string;
  state: string;
  context?: string;
  description?: string;
  target_url?: string;
}

export interface StandInApi {
  url: string;
  requests: ApiRequest[];
  pulls: Record<number, unknown>;
  comments: Comment[];
  statuses: CommitStatus[];
  /** Run id -> the folder holding that run's artifacts (ActRun.artifacts), for download-artifact's run-id. */
  runs: Record<string, string>;
  /** Requests no route answered (each got a 404). */
  unanswered: () => ApiRequest[];
  close: () => Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<unknown>((ok) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => {
      try {
        ok(s ? JSON.parse(s) : undefined);
      } catch {
        ok(s);
      }
    });
  });

/** Artifacts of a run, from the folder act's artifact server stored them in: <name>/<name>.zip. */
function runArtifacts(runs: Record<string, string>, runId: string): { id: number; name: string; zip: string }[] {
  const runDir = runs[runId];
  if (!/^\d+$/.test(runId) || !runDir || !existsSync(runDir)) return [];
  return readdirSync(runDir)
    .sort()
    .map((name, i) => ({ id: Number(runId) * 1000 + i + 1, name, zip: join(runDir, name, `${name}.zip`) }))
    .filter((a) => existsSync(a.zip));
}

/** Starts the stand-in for `repo` (owner/name). */
export async function standInApi(repo: string): Promise<StandInApi> {
  const state = {
    url: '',
    requests: [] as ApiRequest[],
    pulls: {} as Record<number, unknown>,
    comments: [] as Comment[],
    statuses: [] as CommitStatus[],
    runs: {} as Record<string, string>,
  };
  const missed: ApiRequest[] = [];
  let nextId = 1000;
  const base = `/repos/${repo}`;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const body = req.method === 'GET' ? undefined : await readBody(req);
    const seen: ApiRequest = { method: req.method ?? '', path: `${path}${url.search}`, ...(body ? { body } : {}) };
    state.requests.push(seen);
    const json = (status: number, data: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
    const route = (re: string) => new RegExp(`^${base}${re}$`).exec(path);
    let m: RegExpExecArray | null;
    if ((m = route('/pulls/(\\d+)')) && req.method === 'GET') {
      const pull = state.pulls[Number(m[1])];
      return pull ? json(200, pull) : json(404, { message: 'Not Found' });
    }
    if (route('/pulls') && req.method === 'GET') return json(200, Object.values(state.pulls));
    if ((m = route('/issues/(\\d+)/comments'))) {
      const issue = Number(m[1]);
      if (req.method === 'GET')
        return json(
          200,
          state.comments.filter((c) => c.issue === issue),
        );
      if (req.method === 'POST') {
        const made = {
          id: nextId++,
          issue,
          body: String((body as { body?: unknown })?.body ?? ''),
          user: { login: 'github-actions[bot]' },
        };
        state.comments.push(made);
        return json(201, made);
      }
    }
    if ((m = route('/issues/comments/(\\d+)')) && req.method === 'PATCH') {
      const found = state.comments.find((c) => c.id === Number(m![1]));
      if (!found) return json(404, { message: 'Not Found' });
      found.body = String((body as { body?: unknown })?.body ?? '');
      return json(200, found);
    }
    if ((m = route('/statuses/([0-9a-f]{40})')) && req.method === 'POST') {
      const status = { sha: m[1]!, ...(body as Omit<CommitStatus, 'sha'>) };
      state.statuses.push(status);
      return json(201, status);
    }
    if ((m = route('/actions/runs/(\\d+)/artifacts')) && req.method === 'GET') {
      const list = runArtifacts(state.runs, m[1]!).filter(
        (a) => !url.searchParams.get('name') || a.name === url.searchParams.get('name'),
      );
      const listed = list.map((a) => ({
        id: a.id,
        name: a.name,
        size_in_bytes: statSync(a.zip).size,
        created_at: new Date().toISOString(),
        expired: false,
        workflow_run: { id: Number(m![1]) },
      }));
      return json(200, { total_count: listed.length, artifacts: listed });
    }
    if ((m = route('/actions/artifacts/(\\d+)/zip')) && req.method === 'GET') {
      const runId = String(Math.floor(Number(m[1]) / 1000));
      const found = runArtifacts(state.runs, runId).find((a) => a.id === Number(m![1]));
      if (!found) return json(404, { message: 'Not Found' });
      return res.writeHead(302, { location: `${state.url}/_blob/${found.id}` }).end();
    }
    if ((m = /^\/_blob\/(\d+)$/.exec(path))) {
      const runId = String(Math.floor(Number(m[1]) / 1000));
      const found = runArtifacts(state.runs, runId).find((a) => a.id === Number(m![1]));
      if (!found) return json(404, { message: 'Not Found' });
      return res.writeHead(200, { 'content-type': 'application/zip' }).end(readFileSync(found.zip));
    }
    missed.push(seen);
    return json(404, { message: 'Not Found' });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const a = server.address();
  state.url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  return {
    ...state,
    get url() {
      return state.url;
    },
    unanswered: () => [...missed],
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
