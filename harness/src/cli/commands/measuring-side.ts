/**
 * `npm run workflow -- measuring-side --plan FILE`: which checkout's harness runs the PR diff
 * (pr.yml), from the trusted plan: the base's, so that the only pull-request code that runs is the
 * programs being measured, unless the plan found the harness's measuring code changed and the
 * recordings of both harnesses (--transcripts) show neither them measuring the same nor every
 * difference in points' own timed commands or environment (which the base's harness times in pairs
 * from the recordings): then the head's harness must run to show what the change does. Prints side=base|head and harness=changed|unchanged.
 * With --head, first refuses a head whose tracked .npmrc would configure the npm runs that follow in it.
 */
import { resolve } from 'node:path';
import type { DiffPlan } from '../../formats/diff-plan-format.js';
import {
  measuresTheSame,
  needsNoTiming,
  pointsToPair,
  pointsToTime,
  readVerdictFile,
} from '../../formats/transcript-format.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { existingDirectory } from '../../lib/paths.js';
import { refuseNpmConfig } from '../../machine/sandbox/npm-config.js';
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
    head: {
      type: 'string',
      value: 'DIR',
      description:
        "the head's checkout: refused (exit 2) when its tracked .npmrc sets a key off the allow-list, before any npm runs there",
    },
    transcripts: {
      type: 'string',
      value: 'FILE',
      description:
        "what both harnesses ran and computed (transcript --base-side, by the base's harness): when they measure the same, or differ only in points' own timed commands or environment, the base's harness measures",
    },
  },
  example: 'npm run workflow -- measuring-side --plan trusted/plan.json --head ../head',
} as const satisfies CommandSpec;

/**
 * Whether the recorded verdict, of the plan's two commits, lets the base's harness measure: both
 * harnesses run the same programs the same way (numbers made differently are listed, not
 * measured), or every difference is in points' own timed commands or environment, which the base's
 * harness times in pairs with each side's recorded commands (`paired`, with how many points).
 */
function sameMeasuring(file: string, plan: DiffPlan): 'same' | 'listed' | { paired: number } | false {
  const v = readVerdictFile(resolve(file));
  if (v.base.commit !== plan.base.commit || v.head.commit !== plan.head.commit)
    throw new UserError(
      `--transcripts ${file} recorded ${v.base.commit.slice(0, 12)}…${v.head.commit.slice(0, 12)}, but the plan is of ${plan.base.commit.slice(0, 12)}…${plan.head.commit.slice(0, 12)}`,
    );
  if (needsNoTiming(v.verdict)) return measuresTheSame(v.verdict) ? 'same' : 'listed';
  const paired = pointsToPair(v.verdict).length;
  return paired && pointsToTime(v.verdict)?.length === 0 ? { paired } : false;
}

/** Why the base's harness measures a changed harness, in words. */
const baseMeasures = (same: 'same' | 'listed' | { paired: number }) =>
  same === 'same'
    ? 'both run the same commands and compute the same numbers'
    : same === 'listed'
      ? 'both run the same commands and the numbers they make differently from the same raw output are listed exactly'
      : `every difference is in ${same.paired} point${same.paired === 1 ? "'s" : "s'"} own timed commands or their environment, which it times in pairs with each side's recorded ones`;

export async function measuringSideCmd(
  argv: string[],
  io: { stdout: (s: string) => void; stderr: (s: string) => void },
): Promise<number> {
  const { values } = parseCommand(measuringSideSpec, argv);
  if (!values.plan) throw new UserError('measuring-side needs --plan FILE (the trusted plan)');
  // npm reads a checkout's root .npmrc for every npm run there (the head's npm ci, and its harness
  // when it measures): refused now, by the base's code, before the first of them.
  if (values.head) refuseNpmConfig(existingDirectory(values.head, '--head'));
  const plan = readTrustedPlan(resolve(values.plan));
  const change = plan.harnessChange;
  const same = change.changed && values.transcripts ? sameMeasuring(values.transcripts, plan) : false;
  const side = change.changed && !same ? 'head' : 'base';
  io.stderr(
    !change.changed
      ? `the base's harness measures: ${change.why}\n`
      : same
        ? `the base's harness measures: the harness changed (${change.why}), but ${baseMeasures(same)} (${values.transcripts})${typeof same === 'string' ? ': nothing to time' : ''}\n`
        : `the head's harness measures: the trusted plan found the harness changed (${change.why})\n`,
  );
  // harness=changed lets pr.yml record both harnesses (transcript --base-side) before deciding again.
  io.stdout(`side=${side}\nharness=${change.changed ? 'changed' : 'unchanged'}\n`);
  return EXIT.ok;
}
