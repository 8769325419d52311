/**
 * `npm run workflow -- measuring-side --plan FILE`: which checkout's harness runs the PR diff
 * (pr.yml), from the trusted plan: the base's, so that the only pull-request code that runs is the
 * programs being measured, unless the plan found the harness's measuring code changed (then the
 * head's harness must run to show what the change does). Prints side=base|head. With --head, first
 * refuses a head whose tracked .npmrc would configure the npm runs that follow in it.
 */
import { resolve } from 'node:path';
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
    'code changed. Prints side=base or side=head, and why on stderr.',
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
  },
  example: 'npm run workflow -- measuring-side --plan trusted/plan.json --head ../head',
} as const satisfies CommandSpec;

export async function measuringSideCmd(
  argv: string[],
  io: { stdout: (s: string) => void; stderr: (s: string) => void },
): Promise<number> {
  const { values } = parseCommand(measuringSideSpec, argv);
  if (!values.plan) throw new UserError('measuring-side needs --plan FILE (the trusted plan)');
  // npm reads a checkout's root .npmrc for every npm run there (the head's npm ci, and its harness
  // when it measures): refused now, by the base's code, before the first of them.
  if (values.head) refuseNpmConfig(existingDirectory(values.head, '--head'));
  const change = readTrustedPlan(resolve(values.plan)).harnessChange;
  const side = change.changed ? 'head' : 'base';
  io.stderr(
    change.changed
      ? `the head's harness measures: the trusted plan found the harness changed (${change.why})\n`
      : `the base's harness measures: ${change.why}\n`,
  );
  io.stdout(`side=${side}\n`);
  return EXIT.ok;
}
