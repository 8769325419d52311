/**
 * npm run pr-comment, the PR-comment workflow's steps: `--find-pr` prints the pull request of
 * the finished run (asked from GitHub); `--artifact DIR --pr N` validates the untrusted artifact
 * and renders the comment; `--post` then creates or updates the sticky comment.
 */
import { resolve } from 'node:path';
import { readVerdictFile } from '../../formats/transcript-format.js';
import { writeFileAtomic } from '../../lib/atomic.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { assertSegment } from '../../lib/ids.js';
import { ensureParentDirectory, existingDirectory } from '../../lib/paths.js';
import { readUntrusted } from '../../lib/untrusted.js';
import { DEFAULT_GATE_RULE, parseGateRule } from '../../pairs/decide/merge-gate.js';
import { loadNoise } from '../../store/noise-thresholds.js';
import {
  COMMENT_MARKER,
  commentFromArtifact,
  readArtifactComparison,
  readTrustedPlan,
} from '../../workflow/artifact.js';
import { findPullRequest, githubFromEnv, setCommitStatus, upsertComment } from '../../workflow/github.js';
import { type TrustedPlan, trustedPlanOf } from '../../workflow/judgement.js';
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
    transcripts: {
      type: 'string',
      value: 'FILE',
      description:
        "what pr.yml's base code recorded of both harnesses before either measured (the harness-transcripts artifact's transcripts.json)",
    },
    'trusted-plan': {
      type: 'string',
      value: 'FILE',
      description: "the plan pr.yml's trusted job uploaded (pairs --plan --json by the base's harness)",
    },
    'own-plan': {
      type: 'string',
      value: 'FILE',
      description: "the plan this job made itself from both commits' trees: the two are checked against each other",
    },
    'plan-error': {
      type: 'string',
      value: 'FILE',
      description: "what pr.yml's trusted job wrote when it could not plan the diff: the check fails with it",
    },
    'noise-store': {
      type: 'string',
      value: 'DIR',
      description: "a store's calibrations: the minimum effects the verdicts are judged again with",
    },
    status: {
      type: 'boolean',
      default: false,
      description: 'set the merge check as a commit status on --sha (needs GITHUB_TOKEN with statuses: write)',
    },
    sha: { type: 'string', value: 'SHA', description: 'the measured head commit, for --status' },
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
  if (values.status && !values.sha) throw new UserError('--status needs --sha SHA (the measured head commit)');
  const artifact = existingDirectory(values.artifact, '--artifact');
  const trusted = trustedPlanFrom(values);
  const { pr, body, judgement } = commentFromArtifact(artifact, values.pr, rule, trusted, {
    threshold: thresholdsOf(values['noise-store'], artifact),
  });
  if (values.out) writeFileAtomic(ensureParentDirectory(values.out, '--out'), body);
  else if (!values.post) process.stdout.write(body);
  if (values.post) {
    const { action, id } = await upsertComment(githubFromEnv(), pr, body, COMMENT_MARKER);
    process.stderr.write(`${action} comment ${id} on pull request #${pr}\n`);
  }
  process.stderr.write(
    `merge check ${judgement.fail ? 'fails' : 'passes'} (rule ${judgement.gate.rule}): ${judgement.because}\n`,
  );
  if (values.status) {
    await setCommitStatus(githubFromEnv(), values.sha!, {
      state: judgement.fail ? 'failure' : 'success',
      description: judgement.because,
    });
    process.stderr.write(`commit status ${judgement.fail ? 'failure' : 'success'} set on ${values.sha}\n`);
  }
  return EXIT.ok;
}

/** The trusted plan from the files given: the uploaded one and this job's own, or why there is none. */
function trustedPlanFrom(values: {
  'trusted-plan'?: string;
  'own-plan'?: string;
  'plan-error'?: string;
  transcripts?: string;
}): TrustedPlan {
  const read = (f?: string) => (f ? readTrustedPlan(resolve(f)) : undefined);
  const error = values['plan-error']
    ? `the trusted job could not plan this diff: ${readUntrusted(resolve(values['plan-error']), 64 * 1024, 'plan error')
        .trim()
        .slice(-400)}`
    : 'the trusted job uploaded no plan';
  const plan = trustedPlanOf(read(values['trusted-plan']), read(values['own-plan']), error);
  if (!values.transcripts || 'missing' in plan) return plan;
  return { ...plan, recorded: readVerdictFile(resolve(values.transcripts)) };
}

/** The calibrated minimum effects of the machine the artifact names, from a store (none without one). */
function thresholdsOf(store: string | undefined, artifact: string) {
  if (!store) return undefined;
  const machine = assertSegment("the artifact's machine", readArtifactComparison(artifact).base.machine);
  const { thresholds } = loadNoise({ noiseStore: store }, machine);
  return (benchmark: string, metric: string) => thresholds[`${benchmark} ${metric}`];
}
