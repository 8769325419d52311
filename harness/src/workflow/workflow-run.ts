/**
 * pr-comment.yml runs on `workflow_run` of every workflow *named* "PR perf diff" in this
 * repository, which includes a fork's own workflow that merely takes that name and runs on
 * `pull_request` (on a GitHub-hosted runner, with numbers it invented). So before anything is
 * posted, the finished run must be this repository's pr.yml started by `pull_request_target` (a
 * fork cannot supply the workflow file of such a run: it always comes from the base branch), and
 * the pull request and commit come from that run's title, which pr.yml's `run-name` builds from
 * the event GitHub delivered ("PR perf diff #<number> at <sha>"). The artifact must agree with
 * both: its pr-number is the run's, and every head result in comparison.json is of that commit.
 * Pure function; cli.ts reads the event and the artifact (with size limits).
 */
import { assertPr, assertRepo, assertSha } from '../lib/ids.js';

export const RUN_TITLE_RE = /^PR perf diff #([1-9][0-9]{0,9}) at ([0-9a-f]{40})$/;

/** pr.yml's run-name for a pull request (what RUN_TITLE_RE reads back). */
export function runTitle(pr: number, sha: string): string {
  return `PR perf diff #${pr} at ${sha}`;
}

export interface WorkflowRunEvent {
  repository?: { full_name?: unknown; default_branch?: unknown };
  workflow_run?: {
    event?: unknown;
    path?: unknown;
    conclusion?: unknown;
    display_title?: unknown;
    repository?: { full_name?: unknown };
  };
}

export interface CommentTarget {
  pr: number;
  sha: string;
}

export function commentTarget(
  event: WorkflowRunEvent,
  expect: { repository: string; workflowPath: string },
  artifact: { prNumber: string; headCommits: unknown },
): CommentTarget {
  const repo = assertRepo('GITHUB_REPOSITORY', expect.repository);
  const run = event.workflow_run;
  if (!run) throw new Error('the event has no workflow_run: this command is for pr-comment.yml');
  if (event.repository?.full_name !== repo || run.repository?.full_name !== repo) {
    throw new Error(`the run belongs to ${String(run.repository?.full_name)}, not to ${repo}: refusing it`);
  }
  const branch = typeof event.repository?.default_branch === 'string' ? event.repository.default_branch : 'main';
  const path = run.path;
  if (path !== expect.workflowPath && path !== `${expect.workflowPath}@refs/heads/${branch}`) {
    throw new Error(
      `the run is of ${JSON.stringify(path)}, not of ${expect.workflowPath}: a workflow that only shares its name is never trusted`,
    );
  }
  if (run.event !== 'pull_request_target') {
    throw new Error(
      `the run was started by ${JSON.stringify(run.event)}, not by pull_request_target: its workflow file may come from the pull request itself`,
    );
  }
  // A run whose merge check failed (pr.yml's last step, after the artifact) is commented all the
  // same: the comment says why the check failed. A run that failed earlier uploaded no artifact.
  if (run.conclusion !== 'success' && run.conclusion !== 'failure')
    throw new Error(`the run's conclusion is ${JSON.stringify(run.conclusion)}, not success or failure`);
  const m = typeof run.display_title === 'string' ? RUN_TITLE_RE.exec(run.display_title) : null;
  if (!m)
    throw new Error(
      `the run's title ${JSON.stringify(run.display_title)} does not name a pull request and commit ("PR perf diff #N at SHA")`,
    );
  const pr = assertPr('pull request in the run title', m[1]);
  const sha = assertSha('commit in the run title', m[2]);
  if (artifact.prNumber.trim() !== String(pr))
    throw new Error(
      `the artifact is for pull request ${JSON.stringify(artifact.prNumber.trim().slice(0, 20))}, the run for #${pr}: refusing it`,
    );
  const commits = artifact.headCommits;
  if (!Array.isArray(commits) || commits.length === 0) throw new Error('the artifact names no head commit');
  const other = commits.find((c) => c !== sha);
  if (other !== undefined)
    throw new Error(
      `the artifact measured ${JSON.stringify(String(other).slice(0, 64))} as head, not the approved commit ${sha}: refusing it`,
    );
  return { pr, sha };
}
