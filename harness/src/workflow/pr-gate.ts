/**
 * The pull-request gate of pr.yml (a `pull_request_target` workflow: its file always comes from
 * the default branch, so a pull request cannot change these rules).
 * - Trust: code pushed to a branch of this repository by a person (someone with write access)
 *   runs without a further look; code from a fork, or written or pushed by a bot (Dependabot,
 *   Renovate, ...), waits for a maintainer's approval of the `pr-benchmark` environment.
 *   `classifyPullRequest` is the rule; pr.yml's job conditions say the same in GitHub's
 *   expression language (the design test evaluates both on the same events).
 * - Approval names a commit: the run's title and event carry the head SHA, the approval is of that
 *   run, and `checkApprovedHead` refuses it when the pull request's head has moved since (or the
 *   pull request was closed, or retargeted to another repository). The benchmark then checks out
 *   exactly that SHA, whatever is pushed later.
 * Pure functions; the command in cli.ts asks GitHub for the pull request.
 */
import { assertPr, assertRepo, assertSha } from '../lib/ids.js';

export type Trust = 'trusted' | 'needs-approval';

interface Account {
  login?: unknown;
  type?: unknown;
}
export interface PullRequestEvent {
  sender?: Account;
  repository?: { full_name?: unknown };
  pull_request?: {
    number?: unknown;
    user?: Account;
    head?: { sha?: unknown; repo?: { full_name?: unknown } | null };
    base?: { ref?: unknown; repo?: { full_name?: unknown } };
  };
}

const isBot = (a: Account | undefined) =>
  a?.type === 'Bot' || (typeof a?.login === 'string' && a.login.endsWith('[bot]'));

export function classifyPullRequest(event: PullRequestEvent): { trust: Trust; reason: string } {
  const pr = event.pull_request;
  const repo = event.repository?.full_name;
  const headRepo = pr?.head?.repo?.full_name;
  if (typeof repo !== 'string' || headRepo !== repo)
    return {
      trust: 'needs-approval',
      reason: `the head is in ${typeof headRepo === 'string' ? headRepo : 'a deleted fork'}, not in ${String(repo)}`,
    };
  if (isBot(pr?.user)) return { trust: 'needs-approval', reason: `opened by ${String(pr?.user?.login)}, a bot` };
  if (isBot(event.sender))
    return { trust: 'needs-approval', reason: `this push or event came from ${String(event.sender?.login)}, a bot` };
  return { trust: 'trusted', reason: 'a branch of this repository, pushed by a person with write access' };
}

/** What GitHub says about the pull request now (GET /repos/{repo}/pulls/{number}). */
export interface PullRequestNow {
  number?: unknown;
  state?: unknown;
  head?: { sha?: unknown };
  base?: { repo?: { full_name?: unknown } };
}

export type HeadCheck = { ok: true; message: string } | { ok: false; message: string };

export function checkApprovedHead(
  now: PullRequestNow,
  expected: { pr: unknown; sha: unknown; repo: unknown },
): HeadCheck {
  const pr = assertPr('pull request', expected.pr);
  const sha = assertSha('approved head', expected.sha);
  const repo = assertRepo('repository', expected.repo);
  if (now.number !== pr)
    return { ok: false, message: `GitHub answered for pull request ${String(now.number)}, not #${pr}` };
  if (now.base?.repo?.full_name !== repo)
    return { ok: false, message: `pull request #${pr} is not a pull request into ${repo}` };
  if (now.state !== 'open')
    return { ok: false, message: `pull request #${pr} is ${String(now.state)}: nothing to benchmark` };
  const head = now.head?.sha;
  if (head !== sha) {
    return {
      ok: false,
      message: `pull request #${pr} moved: this run was approved for ${sha}, its head is now ${typeof head === 'string' ? head : 'unknown'}. Nothing was run; the run for the new head waits for its own approval.`,
    };
  }
  return { ok: true, message: `pull request #${pr} is still at the approved commit ${sha}` };
}
