/**
 * `npm run workflow -- measuring-side --plan FILE`: which checkout's harness runs the PR diff
 * (pr.yml), from the trusted plan: the base's, so that the only pull-request code that runs is the
 * programs being measured, unless the plan found the harness's measuring code changed and the
 * recordings of both harnesses (--transcripts) do not show them measuring the same (then the head's
 * harness must run to show what the change does). Prints side=base|head and harness=changed|unchanged.
 */
import { resolve } from 'node:path';
import { EXIT, UserError } from '../../lib/errors.js';
import type { DiffPlan } from '../../model/diff-plan.js';
import { measuresTheSame, readVerdictFile } from '../../model/transcript-document.js';
import { readTrustedPlan } from '../../workflow/artifact.js';
import { type CommandSpec, parseCommand } from '../options.js';

export const measuringSideSpec = {
  name: 'workflow measuring-side',
  brief: "pr.yml: which checkout's harness runs the diff (the base's unless the harness changed)",
  summary:
    "Which checkout's harness runs the PR diff: the base's, unless the trusted plan found the harness's measuring " +
    'code changed and --transcripts does not show both measuring the same. Prints side=base or side=head and ' +
    'harness=changed or harness=unchanged, and why on stderr.',
  options: {
    plan: {
      type: 'string',
      value: 'FILE',
      description: "the trusted plan (pairs --plan --json by the base's harness; required)",
    },
    transcripts: {
      type: 'string',
      value: 'FILE',
      description:
        "what both harnesses ran and computed (transcript --base-side, by the base's harness): when they measure the same, the base's harness measures",
    },
  },
  example: 'npm run workflow -- measuring-side --plan trusted/plan.json',
} as const satisfies CommandSpec;

/** Whether the recorded verdict, of the plan's two commits, says both harnesses measure the same. */
function sameMeasuring(file: string, plan: DiffPlan): boolean {
  const v = readVerdictFile(resolve(file));
  if (v.base.commit !== plan.base.commit || v.head.commit !== plan.head.commit)
    throw new UserError(
      `--transcripts ${file} recorded ${v.base.commit.slice(0, 12)}…${v.head.commit.slice(0, 12)}, but the plan is of ${plan.base.commit.slice(0, 12)}…${plan.head.commit.slice(0, 12)}`,
    );
  return measuresTheSame(v.verdict);
}

export async function measuringSideCmd(
  argv: string[],
  io: { stdout: (s: string) => void; stderr: (s: string) => void },
): Promise<number> {
  const { values } = parseCommand(measuringSideSpec, argv);
  if (!values.plan) throw new UserError('measuring-side needs --plan FILE (the trusted plan)');
  const plan = readTrustedPlan(resolve(values.plan));
  const change = plan.harnessChange;
  const same = change.changed && values.transcripts ? sameMeasuring(values.transcripts, plan) : false;
  const side = change.changed && !same ? 'head' : 'base';
  io.stderr(
    !change.changed
      ? `the base's harness measures: ${change.why}\n`
      : same
        ? `the base's harness measures: the harness changed (${change.why}), but both run the same commands and compute the same numbers (${values.transcripts})\n`
        : `the head's harness measures: the trusted plan found the harness changed (${change.why})\n`,
  );
  // harness=changed lets pr.yml record both harnesses (transcript --base-side) before deciding again.
  io.stdout(`side=${side}\nharness=${change.changed ? 'changed' : 'unchanged'}\n`);
  return EXIT.ok;
}
