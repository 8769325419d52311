/**
 * `npm run workflow -- merge-status --sha SHA --state pending|failure --description TEXT`: sets the
 * merge check's commit status where no judgement can (pr.yml's trusted job marks a head pending
 * while it is measured; the comment job fails a run that left no artifact). Only the comment job's
 * judgement of an artifact sets success (pr-comment --status).
 */
import { EXIT, UserError } from '../../lib/errors.js';
import { githubFromEnv, setCommitStatus } from '../../workflow/github.js';
import { type CommandSpec, parseCommand } from '../options.js';

export const mergeStatusSpec = {
  name: 'workflow merge-status',
  brief: 'set the merge check pending or failed on a commit (no judgement: success comes only from pr-comment)',
  summary:
    "Sets the merge check's commit status to pending (pr.yml's trusted job, before measuring) or failure (the comment " +
    'job, when the diff left no artifact). Needs GITHUB_TOKEN with statuses: write.',
  options: {
    sha: { type: 'string', value: 'SHA', description: 'the head commit (required)' },
    state: { type: 'string', value: 'STATE', description: 'pending or failure (required)' },
    description: { type: 'string', value: 'TEXT', description: 'why, in a line (required)' },
  },
  example: 'npm run workflow -- merge-status --sha HEAD_SHA --state pending --description "measuring"',
} as const satisfies CommandSpec;

export async function mergeStatusCmd(argv: string[], io: { stderr: (s: string) => void }): Promise<number> {
  const { values } = parseCommand(mergeStatusSpec, argv);
  if (!values.sha || !values.state || !values.description)
    throw new UserError('merge-status needs --sha SHA, --state pending|failure and --description TEXT');
  const state = values.state;
  if (state !== 'pending' && state !== 'failure')
    throw new UserError(`--state ${JSON.stringify(state.slice(0, 20))}: expected pending or failure`);
  await setCommitStatus(githubFromEnv(), values.sha, { state, description: values.description });
  io.stderr(`commit status ${state} set on ${values.sha}: ${values.description}\n`);
  return EXIT.ok;
}
