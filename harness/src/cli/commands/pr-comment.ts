/**
 * npm run pr-comment, the PR-comment workflow's steps: `--find-pr` prints the pull request of
 * the finished run (asked from GitHub); `--artifact DIR --pr N` validates the untrusted artifact
 * and renders the comment; `--post` then creates or updates the sticky comment.
 */
import { resolve } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureParentDirectory, existingDirectory } from '../../lib/paths.js';
import { DEFAULT_GATE_RULE, parseGateRule } from '../../pairs/analysis/merge-gate.js';
import { COMMENT_MARKER, commentFromArtifact, readTrustedPlan } from '../../workflow/artifact.js';
import { findPullRequest, githubFromEnv, upsertComment } from '../../workflow/github.js';
import { type CommandSpec, parseCommand } from '../options.js';

export const prCommentSpec = {
  name: 'pr-comment',
  brief: 'validate a PR diff artifact and render or post the comment',
  summary:
    "The PR-comment workflow's steps: validate an untrusted artifact and render the comment (--artifact --pr), " +
    'post it (--post), or find the pull request of a finished run (--find-pr).',
  options: {
    artifact: { type: 'string', value: 'DIR', description: "the PR diff's artifact" },
    pr: { type: 'string', value: 'N', description: 'the pull request number' },
    out: { type: 'string', value: 'FILE', description: 'write the comment there (default: stdout)' },
    'find-pr': { type: 'boolean', default: false, description: 'print the pull request of the workflow_run event' },
    event: { type: 'string', value: 'FILE', description: 'the event file (default: GITHUB_EVENT_PATH)' },
    post: { type: 'boolean', default: false, description: 'create or update the sticky comment (needs GITHUB_TOKEN)' },
    'trusted-plan': {
      type: 'string',
      value: 'FILE',
      description:
        "the plan pr.yml computed with the base's harness: points it names that the diff left out lead the comment",
    },
    'no-trusted-plan': {
      type: 'boolean',
      default: false,
      description: "say that the base's harness left no plan: what was measured was the pull request's own choice",
    },
    // The repository's merge rule (pr-comment.yml passes vars.PR_FAIL_ON): the comment says which applied.
    'fail-on': {
      type: 'string',
      default: DEFAULT_GATE_RULE,
      value: 'RULE',
      description: 'the merge rule the comment states: none, or broken, slower, slower>N% (comma-separated)',
    },
  },
  example: 'npm run pr-comment -- --artifact results/pr --pr 1 --out comment.md',
} as const satisfies CommandSpec;

export async function prCommentCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(prCommentSpec, argv);
  const rule = parseGateRule(values['fail-on']);
  if (values['find-pr']) {
    const event = values.event ?? process.env.GITHUB_EVENT_PATH;
    if (!event)
      throw new UserError('--find-pr needs the workflow_run event: --event FILE (GITHUB_EVENT_PATH inside Actions)');
    process.stdout.write(`${await findPullRequest(githubFromEnv(), resolve(event))}\n`);
    return EXIT.ok;
  }
  if (!values.artifact || !values.pr) throw new UserError('pr-comment needs --artifact DIR and --pr N (or --find-pr)');
  if (values['trusted-plan'] && values['no-trusted-plan'])
    throw new UserError('give --trusted-plan FILE or --no-trusted-plan, not both');
  const trusted = values['trusted-plan'] ? readTrustedPlan(resolve(values['trusted-plan'])) : undefined;
  const { pr, body } = commentFromArtifact(
    existingDirectory(values.artifact, '--artifact'),
    values.pr,
    rule,
    values['no-trusted-plan'] ? 'none' : trusted,
  );
  if (values.out) writeFileAtomic(ensureParentDirectory(values.out, '--out'), body);
  else if (!values.post) process.stdout.write(body);
  if (values.post) {
    const { action, id } = await upsertComment(githubFromEnv(), pr, body, COMMENT_MARKER);
    process.stderr.write(`${action} comment ${id} on pull request #${pr}\n`);
  }
  return EXIT.ok;
}
