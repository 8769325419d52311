/**
 * npm run pr-comment, the PR-comment workflow's steps: `--find-pr` prints the pull request of
 * the finished run (asked from GitHub); `--artifact DIR --pr N` validates the untrusted artifact
 * and renders the comment; `--post` then creates or updates the sticky comment.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { COMMENT_MARKER, commentFromArtifact } from '../../compare/artifact.js';
import { findPullRequest, githubFromEnv, upsertComment } from '../../compare/github.js';
import { writeFileAtomic } from '../../lib/atomic.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureParentDirectory, existingDirectory } from '../../lib/paths.js';

export async function prCommentCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      artifact: { type: 'string' },
      pr: { type: 'string' },
      out: { type: 'string' },
      'find-pr': { type: 'boolean', default: false },
      event: { type: 'string' },
      post: { type: 'boolean', default: false },
    },
  });
  if (values['find-pr']) {
    const event = values.event ?? process.env.GITHUB_EVENT_PATH;
    if (!event)
      throw new UserError('--find-pr needs the workflow_run event: --event FILE (GITHUB_EVENT_PATH inside Actions)');
    process.stdout.write(`${await findPullRequest(githubFromEnv(), resolve(event))}\n`);
    return EXIT.ok;
  }
  if (!values.artifact || !values.pr) throw new UserError('pr-comment needs --artifact DIR and --pr N (or --find-pr)');
  const { pr, body } = commentFromArtifact(existingDirectory(values.artifact, '--artifact'), values.pr);
  if (values.out) writeFileAtomic(ensureParentDirectory(values.out, '--out'), body);
  else if (!values.post) process.stdout.write(body);
  if (values.post) {
    const { action, id } = await upsertComment(githubFromEnv(), pr, body, COMMENT_MARKER);
    process.stderr.write(`${action} comment ${id} on pull request #${pr}\n`);
  }
  return EXIT.ok;
}
