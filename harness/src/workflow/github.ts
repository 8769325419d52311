/**
 * The two GitHub REST calls the PR-comment workflow needs, kept here (not inline in YAML) so
 * they are tested: which pull request a finished PR-diff run belongs to, and creating or
 * updating the one sticky comment. Uses the workflow's token from the environment.
 */
import { readFileSync } from 'node:fs';
import { UserError } from '../lib/errors.js';

export interface GitHub {
  api: string;
  repo: string;
  token: string;
}

export function githubFromEnv(env: NodeJS.ProcessEnv = process.env): GitHub {
  const token = env.GITHUB_TOKEN;
  const repo = env.GITHUB_REPOSITORY;
  if (!token) throw new UserError('GITHUB_TOKEN is not set (the workflow passes github.token)');
  if (!repo || !/^[\w.-]+\/[\w.-]+$/.test(repo))
    throw new UserError(`GITHUB_REPOSITORY ${JSON.stringify(repo ?? '')}: expected owner/name`);
  return { api: (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, ''), repo, token };
}

async function call(
  gh: GitHub,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ data: unknown; next?: string }> {
  const res = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${gh.token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'jsio-bench',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok)
    throw new UserError(`GitHub API ${method} ${url.replace(gh.api, '')} failed: ${res.status} ${text.slice(0, 300)}`);
  // Follow pagination only within the API we were given (a Link header is data from the server).
  const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  return { data: text ? JSON.parse(text) : null, ...(next?.startsWith(`${gh.api}/`) ? { next } : {}) };
}

async function all<T>(gh: GitHub, path: string, maxPages = 50): Promise<T[]> {
  const out: T[] = [];
  let url: string | undefined = `${gh.api}${path}${path.includes('?') ? '&' : '?'}per_page=100`;
  for (let page = 0; url && page < maxPages; page++) {
    const { data, next }: { data: unknown; next?: string } = await call(gh, 'GET', url);
    if (!Array.isArray(data)) throw new UserError(`GitHub API GET ${path}: expected a list`);
    out.push(...(data as T[]));
    url = next;
  }
  return out;
}

/** One pull request as GitHub reports it now (its head may have moved since an approval). */
export async function getPullRequest(gh: GitHub, pr: number): Promise<unknown> {
  return (await call(gh, 'GET', `${gh.api}/repos/${gh.repo}/pulls/${pr}`)).data;
}

interface WorkflowRunEvent {
  workflow_run?: { head_sha?: unknown; pull_requests?: { number?: unknown }[] };
}

/**
 * The pull request of a finished workflow_run, asked from GitHub (never from the artifact): the
 * open pull request whose head is the run's head commit. For runs from forks GitHub leaves
 * `pull_requests` empty, so the search by head commit is what works for everyone; when the
 * event does name a pull request, it must be the same one.
 */
export async function findPullRequest(gh: GitHub, eventFile: string): Promise<number> {
  let event: WorkflowRunEvent;
  try {
    event = JSON.parse(readFileSync(eventFile, 'utf8')) as WorkflowRunEvent;
  } catch (e) {
    throw new UserError(`cannot read the workflow event ${eventFile}: ${(e as Error).message}`);
  }
  const sha = event.workflow_run?.head_sha;
  if (typeof sha !== 'string' || !/^[0-9a-f]{40}$/.test(sha))
    throw new UserError(`${eventFile}: workflow_run.head_sha is missing or not a commit id`);
  const pulls = await all<{ number: number; head: { sha: string } }>(gh, `/repos/${gh.repo}/pulls?state=open`);
  const matches = pulls.filter((p) => p.head?.sha === sha).map((p) => p.number);
  if (matches.length === 0)
    throw new UserError(`no open pull request has head ${sha} (closed, or pushed again since the run)`);
  if (matches.length > 1)
    throw new UserError(
      `several open pull requests have head ${sha} (#${matches.join(', #')}): not guessing which one to comment on`,
    );
  const found = matches[0]!;
  const named =
    event.workflow_run?.pull_requests?.map((p) => p.number).filter((n): n is number => typeof n === 'number') ?? [];
  if (named.length && !named.includes(found))
    throw new UserError(`the run names pull request #${named.join(', #')} but its head commit belongs to #${found}`);
  return found;
}

/** The account GitHub Actions posts as with the workflow's token. */
const ACTIONS_BOT = 'github-actions[bot]';

/**
 * Creates the sticky comment, or updates it: the comment by the Actions bot that starts with
 * the marker. Comments by anyone else are never touched, even if they quote the marker.
 */
export async function upsertComment(
  gh: GitHub,
  pr: number,
  body: string,
  marker: string,
  author = ACTIONS_BOT,
): Promise<{ action: 'created' | 'updated'; id: number }> {
  if (!body.startsWith(marker)) throw new UserError('the comment body does not start with the sticky-comment marker');
  const comments = await all<{ id: number; body?: string; user?: { login?: string } }>(
    gh,
    `/repos/${gh.repo}/issues/${pr}/comments`,
  );
  const mine = comments.find((c) => c.user?.login === author && c.body?.startsWith(marker));
  if (mine) {
    await call(gh, 'PATCH', `${gh.api}/repos/${gh.repo}/issues/comments/${mine.id}`, { body });
    return { action: 'updated', id: mine.id };
  }
  const { data } = await call(gh, 'POST', `${gh.api}/repos/${gh.repo}/issues/${pr}/comments`, { body });
  return { action: 'created', id: (data as { id: number }).id };
}

/** The context of the merge check's commit status: the name a branch protection rule requires. */
export const STATUS_CONTEXT = 'jsio-bench / perf diff';

/**
 * Sets the merge check as a commit status on the measured head (POST /repos/{repo}/statuses/{sha}):
 * set by the comment job, which runs the default branch's code, so a pull request cannot set its
 * own check. GitHub keeps a description of 140 characters at most.
 */
export async function setCommitStatus(
  gh: GitHub,
  sha: string,
  status: { state: 'success' | 'failure' | 'pending' | 'error'; description: string; targetUrl?: string },
): Promise<void> {
  if (!/^[0-9a-f]{40}$/.test(sha))
    throw new UserError(`--sha ${JSON.stringify(sha.slice(0, 50))}: expected a 40-hex commit id`);
  const description = status.description.length > 140 ? `${status.description.slice(0, 139)}…` : status.description;
  await call(gh, 'POST', `${gh.api}/repos/${gh.repo}/statuses/${sha}`, {
    state: status.state,
    context: STATUS_CONTEXT,
    description,
    ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
  });
}
