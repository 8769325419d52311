/**
 * `npm run workflow -- pr-outcome --comparison FILE [--fail-on RULE]`: pr.yml's last step, the
 * merge check under the repository's rule (PR_FAIL_ON, pairs/decide/merge-gate.ts). Prints
 * fail=true|false; exits 1 when the rule fails the check, 2 on a missing or malformed comparison.
 */
import { resolve } from 'node:path';
import { readVerdictFile } from '../../formats/transcript-format.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { DEFAULT_GATE_RULE, parseGateRule } from '../../pairs/decide/merge-gate.js';
import { summarize } from '../../pairs/decide/summarize.js';
import { readPairsComparison, readTrustedPlan } from '../../workflow/artifact.js';
import { coverageProblem } from '../../workflow/trusted-coverage.js';
import { type CommandSpec, parseCommand } from '../options.js';

export const prOutcomeSpec = {
  name: 'workflow pr-outcome',
  brief: "pr.yml's merge check under the repository's rule: exit 1 when the rule fails it",
  summary:
    "pr.yml's last step: the merge check under the repository's rule (PR_FAIL_ON). Prints fail=true|false; exits 1 " +
    'when the rule fails the check, 2 on a missing or malformed comparison.',
  options: {
    comparison: { type: 'string', value: 'FILE', description: "the PR diff's comparison.json (required)" },
    'fail-on': {
      type: 'string',
      value: 'RULE',
      default: DEFAULT_GATE_RULE,
      description: 'none, or broken, slower, slower>N% (comma-separated)',
    },
    'trusted-plan': {
      type: 'string',
      value: 'FILE',
      description: "the plan the base's harness computed: a point it names that the diff left out fails the check",
    },
    transcripts: {
      type: 'string',
      value: 'FILE',
      description:
        'the recordings of both harnesses the diff rests on (transcript --base-side), when the plan found the harness changed',
    },
  },
  example: 'npm run workflow -- pr-outcome --comparison results/pr/comparison.json --fail-on broken',
} as const satisfies CommandSpec;

export async function prOutcomeCmd(
  argv: string[],
  io: { stdout: (s: string) => void; stderr: (s: string) => void },
): Promise<number> {
  const { values } = parseCommand(prOutcomeSpec, argv);
  if (!values.comparison) throw new UserError('missing --comparison');
  const rule = parseGateRule(values['fail-on']);
  const c = readPairsComparison(resolve(values.comparison));
  const { outcome: gate } = summarize(c, rule);
  const problem = values['trusted-plan']
    ? coverageProblem(
        readTrustedPlan(resolve(values['trusted-plan'])),
        c,
        values.transcripts ? readVerdictFile(resolve(values.transcripts)) : undefined,
      )
    : undefined;
  // Whatever the rule: a diff that left out what the trusted side found affected has not answered.
  const fail = gate.fail || problem !== undefined;
  const because = problem ? `${problem.line}${gate.fail ? `; and ${gate.because}` : ''}` : gate.because;
  io.stderr(`merge check ${fail ? 'fails' : 'passes'} (rule ${gate.rule}): ${because}\n`);
  io.stdout(`fail=${fail}\n`);
  return fail ? EXIT.benchmarksFailed : EXIT.ok;
}
