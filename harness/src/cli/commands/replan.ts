/**
 * `npm run workflow -- replan --plan FILE --pr N --sha SHA --default-branch B --into DIR --out FILE`:
 * pr-comment.yml plans the diff again, from both commits' trees fetched from the repository itself
 * (never from the artifact), so that a plan uploaded by pr.yml's trusted job is checked by a second
 * one. The base is the uploaded plan's base, and only if it is on the default branch; the head is
 * the pull request's head, and only if it is still the commit the diff was run for.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { runSync } from '../../lib/exec.js';
import { planDiff } from '../../pairs/diff/what-to-measure.js';
import { readTrustedPlan } from '../../workflow/artifact.js';
import { intFlag, ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';
import { SELECTION_OPTIONS, selectionOf } from '../selection.js';

const GIT_TIMEOUT_MS = 300_000;

export const replanSpec = {
  name: 'workflow replan',
  brief: "pr-comment.yml: plan the diff again from both commits' trees, to check the uploaded plan",
  summary:
    "Plans the PR diff again with this checkout's harness: the uploaded plan's base (refused unless it is on the " +
    "default branch) and the pull request's head (refused unless it is still --sha), each fetched from the origin " +
    'and checked out in --into. Writes the plan as JSON to --out (pairs --plan --json).',
  options: {
    plan: { type: 'string', value: 'FILE', description: 'the uploaded plan (it names the base; required)' },
    pr: { type: 'string', value: 'N', description: 'the pull request number (required)' },
    sha: { type: 'string', value: 'SHA', description: 'the head commit the diff was run for (required)' },
    'default-branch': { type: 'string', value: 'BRANCH', description: 'the repository default branch (required)' },
    into: { type: 'string', value: 'DIR', description: 'an empty or absent folder for the two checkouts (required)' },
    out: { type: 'string', value: 'FILE', description: 'where the plan goes (required)' },
    repo: {
      type: 'string',
      default: ROOT,
      value: 'DIR',
      description: 'the clone to fetch into, whose origin is the repository (default: this checkout)',
    },
    ...SELECTION_OPTIONS,
  },
  example:
    'npm run workflow -- replan --plan trusted-plan/plan.json --pr 7 --sha HEAD_SHA --default-branch main --into "$RUNNER_TEMP/replan" --out own-plan.json -- --profile quick',
  notes: ['Bench flags (--profile, --experiments, --variants, --param) may follow a `--`, as the diff was run with.'],
} as const satisfies CommandSpec;

const FULL_SHA = /^[0-9a-f]{40}$/;

/** git in the clone; a failure is the user's error with git's last line. */
function git(repo: string, args: string[], what: string): string {
  const r = runSync(['git', '-C', repo, ...args], { timeoutMs: GIT_TIMEOUT_MS });
  if (r.code !== 0) {
    const said = r.stderr.trim().split('\n').slice(-1)[0] ?? '';
    throw new UserError(`${what}: git ${args[0]} failed${said ? `: ${said.slice(0, 300)}` : ''}`);
  }
  return r.stdout.trim();
}

/** A branch name git accepts, checked by git itself (no option can hide in it). */
function branchName(value: string): string {
  if (value.startsWith('-') || runSync(['git', 'check-ref-format', '--branch', value]).code !== 0)
    throw new UserError(`--default-branch ${JSON.stringify(value.slice(0, 80))}: not a branch name`);
  return value;
}

export async function replanCmd(argv: string[], io: { stderr: (s: string) => void }): Promise<number> {
  const { values } = parseCommand(
    replanSpec,
    argv.filter((a) => a !== '--'),
  );
  const need = (['plan', 'pr', 'sha', 'default-branch', 'into', 'out'] as const).filter((k) => !values[k]);
  if (need.length) throw new UserError(`replan needs ${need.map((k) => `--${k}`).join(', ')}`);
  const pr = intFlag('--pr', values.pr ?? '', 1, 2 ** 31 - 1);
  const sha = values.sha ?? '';
  if (!FULL_SHA.test(sha)) throw new UserError(`--sha ${JSON.stringify(sha.slice(0, 60))}: expected a full commit id`);
  const branch = branchName(values['default-branch'] ?? '');
  const into = resolve(values.into ?? '');
  if (existsSync(into) && readdirSync(into).length)
    throw new UserError(`--into ${into}: not empty (replan checks out two commits there and deletes nothing)`);
  const selection = selectionOf(values);
  // Read first: a plan that names no base stops everything before any fetch.
  const base = readTrustedPlan(resolve(values.plan ?? '')).base.commit;
  if (!FULL_SHA.test(base)) throw new UserError(`${values.plan}: the plan names no base commit (field base.commit)`);

  const repo = resolve(values.repo);
  git(
    repo,
    ['fetch', '--quiet', 'origin', `refs/pull/${pr}/head`, branch],
    'fetching the pull request and the default branch',
  );
  const fetched = git(repo, ['rev-parse', 'FETCH_HEAD'], 'reading the fetched head');
  if (fetched !== sha)
    throw new UserError(
      `the pull request moved since the diff: its head is ${fetched.slice(0, 12)}, the diff ran for ${sha.slice(0, 12)}`,
    );
  if (runSync(['git', '-C', repo, 'merge-base', '--is-ancestor', base, `origin/${branch}`]).code !== 0)
    throw new UserError(
      `the plan's base ${base.slice(0, 12)} is not on ${branch}: an uploaded plan cannot choose the base`,
    );
  const sides = { base: join(into, 'base'), head: join(into, 'head') };
  git(repo, ['worktree', 'add', '--quiet', '--detach', sides.base, base], 'checking out the base');
  git(repo, ['worktree', 'add', '--quiet', '--detach', sides.head, sha], 'checking out the head');

  const plan = await planDiff({ ...sides, profile: selection.profile, filters: selection.filters });
  writeFileAtomic(resolve(values.out ?? ''), `${JSON.stringify(plan, null, 1)}\n`);
  io.stderr(`planned again: base ${base.slice(0, 12)}, head ${sha.slice(0, 12)} -> ${values.out}\n`);
  return EXIT.ok;
}
