/**
 * `npm run workflow -- <check> [flags]`: the decisions the GitHub workflows take, as tested code
 * instead of YAML logic. Each prints what the workflow needs on stdout (key=value lines for
 * $GITHUB_OUTPUT, or one value) and explains itself on stderr.
 *
 * The checks (each with its own flag table below; what each decides, in docs/workflows.md):
 * pr-head (pr.yml: the approved pull request is still at SHA), comment-target (pr-comment.yml: the
 * finished run and its artifact are ours and agree), gab-gate (bench.yml's publish job: which
 * github-action-benchmark steps run, their inputs regenerated from the validated results.json),
 * noise-file (calibrate.yml's publish job: the artifact's one noise.json), pick-commit (bench.yml's
 * nightly run: the commit to measure), pr-outcome (the measuring side's own view of the merge check,
 * see pr-outcome.ts), merge-status (the check's pending or failed commit status, see merge-status.ts),
 * measuring-side (pr.yml: whose harness runs the diff, see measuring-side.ts), replan (pr-comment.yml: the
 * plan made again from both commits' trees, see replan.ts), plan-tools (pr.yml: the trace's tools, see
 * plan-tools.ts), build-dir (bench.yml: where the checkout's builds are, in the harness's cache),
 * mark-base and harness-changed (bench.yml: whether a push changed the harness since the machine's
 * previous published commit, see harness-marks.ts).
 *
 * Exit status: 0 = done (a "no" from a gate is an answer, not an error); 1 = pr-outcome's rule
 * fails the check; 2 = refused (a check failed, or an input is missing or malformed); 3 = internal error.
 */

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { readResultsArtifact } from '../../formats/read-results.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { runSync } from '../../lib/exec.js';
import { assertPr, assertRepo, assertSegment, assertSha } from '../../lib/ids.js';
import { readUntrusted, readUntrustedJson } from '../../lib/untrusted.js';
import { checkoutCache } from '../../machine/cache-root.js';
import { writeGab } from '../../pipeline/reports.js';
import { loadAllExperiments } from '../../plan/experiments.js';
import { readNoiseFile } from '../../store/noise-thresholds.js';
import { readArtifactComparison } from '../../workflow/artifact.js';
import { pickCommit } from '../../workflow/backfill.js';
import {
  GAB_TOOLS,
  type GabData,
  type GabTool,
  gabGate,
  gabGateOutputs,
  parseGabDataJs,
} from '../../workflow/gab-gate.js';
import { getPullRequest, githubFromEnv } from '../../workflow/github.js';
import { listArtifact, pickNoiseFile, refuseNoise } from '../../workflow/noise-artifact.js';
import { checkApprovedHead, type PullRequestNow } from '../../workflow/pr-gate.js';
import { commentTarget, type WorkflowRunEvent } from '../../workflow/workflow-run.js';
import { ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';
import {
  firstParents,
  harnessChangedCmd,
  harnessChangedSpec,
  markBaseCmd,
  markBaseSpec,
  storedCommits,
} from './harness-marks.js';
import { measuringSideCmd, measuringSideSpec } from './measuring-side.js';
import { mergeStatusCmd, mergeStatusSpec } from './merge-status.js';
import { planToolsCmd, planToolsSpec } from './plan-tools.js';
import { prOutcomeCmd, prOutcomeSpec } from './pr-outcome.js';
import { replanCmd, replanSpec } from './replan.js';

type Io = { stdout: (s: string) => void; stderr: (s: string) => void; env: NodeJS.ProcessEnv };
const defaultIo: Io = {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
};

/** Untrusted JSON (lib/untrusted.ts): bounded, never through a symlink; its shape is checked by the pure decision code. */
function readJson(file: string, maxBytes: number): unknown {
  return readUntrustedJson(file, z.unknown(), { maxBytes });
}

function need(values: Record<string, unknown>, ...names: string[]): void {
  const missing = names.filter((n) => typeof values[n] !== 'string' || values[n] === '');
  if (missing.length) throw new UserError(`missing ${missing.map((n) => `--${n}`).join(', ')}`);
}

function git(repo: string, args: string[]): { code: number; out: string } {
  const r = runSync(['git', '-C', repo, ...args], { timeoutMs: 60_000 });
  return { code: r.code ?? 128, out: r.stdout };
}

const prHeadSpec = {
  name: 'workflow pr-head',
  brief: 'pr.yml: the approved pull request is still at SHA',
  summary: "pr.yml's gate: the approved pull request is still open at SHA (GITHUB_REPOSITORY, GITHUB_TOKEN).",
  options: {
    pr: { type: 'string', value: 'N', description: 'the pull request (required)' },
    sha: { type: 'string', value: 'SHA', description: 'the head commit that was approved (required)' },
  },
  example: 'npm run workflow -- pr-head --pr 12 --sha HEAD_SHA',
} as const satisfies CommandSpec;

async function prHead(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommand(prHeadSpec, argv);
  need(values, 'pr', 'sha');
  const pr = assertPr('--pr', values.pr);
  const sha = assertSha('--sha', values.sha);
  const repo = assertRepo('GITHUB_REPOSITORY', io.env.GITHUB_REPOSITORY);
  const gh = githubFromEnv(io.env);
  const now = (await getPullRequest(gh, pr)) as PullRequestNow;
  const check = checkApprovedHead(now, { pr, sha, repo });
  if (!check.ok) throw new UserError(check.message);
  io.stderr(`${check.message}\n`);
  io.stdout(`pr=${pr}\nsha=${sha}\n`);
  return 0;
}

const commentTargetSpec = {
  name: 'workflow comment-target',
  brief: 'pr-comment.yml: the finished run and its artifact are ours and agree',
  summary:
    "pr-comment.yml's gate: the finished run and its artifact are this repository's and agree on the pull request.",
  options: {
    event: { type: 'string', value: 'FILE', description: 'the workflow_run event (default: GITHUB_EVENT_PATH)' },
    'workflow-path': { type: 'string', value: 'PATH', description: 'the workflow that must have run (required)' },
    artifact: { type: 'string', value: 'DIR', description: "the run's downloaded artifact (required)" },
    repository: { type: 'string', value: 'OWNER/NAME', description: 'this repository (default: GITHUB_REPOSITORY)' },
  },
  example:
    'npm run workflow -- comment-target --event event.json --workflow-path .github/workflows/pr.yml --artifact pr',
} as const satisfies CommandSpec;

async function commentTargetCmd(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommand(commentTargetSpec, argv);
  const event = values.event ?? io.env.GITHUB_EVENT_PATH;
  if (!event) throw new UserError('missing --event (GITHUB_EVENT_PATH inside Actions)');
  need(values, 'workflow-path', 'artifact');
  const artifact = resolve(values.artifact!);
  const comparison = readArtifactComparison(artifact);
  let target: ReturnType<typeof commentTarget>;
  try {
    target = commentTarget(
      readJson(event, 2 ** 22) as WorkflowRunEvent,
      { repository: values.repository ?? io.env.GITHUB_REPOSITORY ?? '', workflowPath: values['workflow-path']! },
      {
        prNumber: readUntrusted(join(artifact, 'pr-number'), 64, 'artifact file'),
        headCommits: comparison.head.commits,
      },
    );
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError((e as Error).message);
  }
  io.stderr(`the run measured pull request #${target.pr} at ${target.sha}\n`);
  io.stdout(`pr=${target.pr}\nsha=${target.sha}\n`);
  return 0;
}

const gabGateSpec = {
  name: 'workflow gab-gate',
  brief: "bench.yml's publish job: which github-action-benchmark steps run, and their inputs",
  summary:
    "bench.yml's publish job: which github-action-benchmark steps run, their inputs regenerated from the " +
    'validated results.json.',
  options: {
    results: { type: 'string', value: 'FILE', description: "the run's results.json (required)" },
    out: { type: 'string', value: 'DIR', description: 'a new directory for the inputs (required)' },
    'data-dir': { type: 'string', value: 'DIR', description: "the action's data directory (required)" },
    programs: { type: 'string', value: 'DIR', default: join(ROOT, 'programs'), description: 'the experiments' },
    event: { type: 'string', value: 'NAME', description: 'github.event_name (required)' },
    'workflow-sha': { type: 'string', value: 'SHA', description: 'the commit the workflow runs from (required)' },
    'default-profile': { type: 'string', value: 'P', description: "the nightly run's profile (required)" },
    'dispatch-filters': { type: 'string', value: 'TEXT', default: '', description: "a dispatched run's filters" },
    repo: { type: 'string', value: 'DIR', default: '.', description: 'the clone, for ancestry' },
  },
  example:
    'npm run workflow -- gab-gate --results results/latest/results.json --out gab --data-dir dev/bench ' +
    '--event schedule --workflow-sha HEAD_SHA --default-profile quick',
} as const satisfies CommandSpec;

async function gabGateCmd(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommand(gabGateSpec, argv);
  need(values, 'results', 'out', 'data-dir', 'event', 'workflow-sha', 'default-profile');
  // The schema (patterns, caps, size limit) is the validation; the inputs are rebuilt from it.
  const results = readResultsArtifact(resolve(values.results!));
  const machine = assertSegment('results run.machine.id', results.run.machine.id);
  const out = resolve(values.out!);
  if (existsSync(out)) throw new UserError(`--out ${values.out}: already exists (gab-gate writes a new directory)`);
  const written = writeGab(out, results, loadAllExperiments(resolve(values.programs!)));
  const rows: Record<GabTool, number> = {
    customSmallerIsBetter: written.smaller,
    customBiggerIsBetter: written.bigger,
  };
  const dataFile = join(resolve(values['data-dir']!), machine, 'data.js');
  let data: GabData | undefined;
  if (existsSync(dataFile)) {
    try {
      data = parseGabDataJs(readUntrusted(dataFile, 256 * 2 ** 20), dataFile);
    } catch (e) {
      throw new UserError((e as Error).message);
    }
  }
  const repo = resolve(values.repo!);
  const result = gabGate({
    event: values.event!,
    workflowSha: values['workflow-sha']!,
    measuredSha: results.run.commit.sha,
    machine,
    profile: results.run.profile,
    defaultProfile: values['default-profile']!,
    dispatchFilters: values['dispatch-filters']!,
    rows,
    data,
    isAncestor: (a, b) => {
      if (!/^[0-9a-f]{40}$/.test(a)) return undefined;
      const r = git(repo, ['merge-base', '--is-ancestor', a, b]);
      return r.code === 0 ? true : r.code === 1 ? false : undefined;
    },
  });
  for (const tool of GAB_TOOLS)
    io.stderr(`github-action-benchmark ${tool}: ${result.feed[tool] ? 'yes' : 'no'}: ${result.reasons[tool]}\n`);
  io.stdout(gabGateOutputs(result));
  return 0;
}

const pickCommitSpec = {
  name: 'workflow pick-commit',
  brief: "bench.yml's nightly run: the commit to measure",
  summary:
    "bench.yml's nightly run: the commit to measure (the head, or the newest first-parent commit the store lacks).",
  options: {
    repo: { type: 'string', value: 'DIR', default: '.', description: 'the clone, with history' },
    head: { type: 'string', value: 'SHA', description: 'the branch head (required)' },
    store: { type: 'string', value: 'DIR', description: 'the trend store (required)' },
    machine: { type: 'string', value: 'ID', description: "this runner's machine id (required)" },
    depth: { type: 'string', value: 'N', default: '50', description: 'first-parent commits looked at' },
    // A store v2 run ("legacy") counts for every profile.
    profile: { type: 'string', value: 'P', description: 'count only commits stored with a run of this profile' },
  },
  example: 'npm run workflow -- pick-commit --head HEAD_SHA --store data --machine ID',
} as const satisfies CommandSpec;

async function pickCommitCmd(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommand(pickCommitSpec, argv);
  need(values, 'head', 'store', 'machine');
  const head = assertSha('--head', values.head);
  const machine = assertSegment('--machine', values.machine);
  const depth = Number(values.depth);
  if (!Number.isInteger(depth) || depth < 1 || depth > 1000)
    throw new UserError(`--depth ${values.depth}: expected an integer from 1 to 1000`);
  const history = firstParents(values.repo!, head, depth);
  // A smoke run or a filtered dispatch of a commit is not the default profile's run of it: with
  // --profile, such a commit is still a gap to back-fill.
  const stored = storedCommits(values.store!, machine, values.profile, io);
  const pick = pickCommit({ head, history, stored });
  io.stderr(`${pick.reason}\n`);
  io.stdout(`${pick.sha}\n`);
  return 0;
}

const noiseFileSpec = {
  name: 'workflow noise-file',
  brief: "calibrate.yml's publish job: the artifact's one noise.json",
  summary: "calibrate.yml's publish job: the artifact's one noise.json, checked to be one machine's.",
  options: {
    artifact: { type: 'string', value: 'DIR', description: 'the downloaded calibration artifact (required)' },
    machine: { type: 'string', value: 'ID', default: '', description: "this runner's machine id, when known" },
  },
  example: 'npm run workflow -- noise-file --artifact calibration --machine ID',
} as const satisfies CommandSpec;

async function noiseFileCmd(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommand(noiseFileSpec, argv);
  need(values, 'artifact');
  const artifact = resolve(values.artifact!);
  const pick = pickNoiseFile(listArtifact(artifact));
  if ('refused' in pick) throw new UserError(`${artifact}: ${pick.refused}`);
  const file = join(artifact, pick.file);
  const noise = readNoiseFile(file);
  const expected = values.machine ? assertSegment('--machine', values.machine) : undefined;
  if (!expected) io.stderr(`no machine id known for this runner: checking only that ${pick.file} is one machine's\n`);
  const why = refuseNoise(noise, pick.machine, expected);
  if (why) throw new UserError(`${file}: ${why}`);
  io.stderr(`${pick.file}: ${Object.keys(noise.thresholds).length} thresholds of machine ${noise.machine}\n`);
  io.stdout(`${file}\n`);
  return 0;
}

const buildDirSpec = {
  name: 'workflow build-dir',
  brief: "bench.yml: where this checkout's builds are (the static just(js) binary is uploaded from there)",
  summary:
    "Prints the folder of this checkout's builds in the harness's cache outside the checkout ($JSIO_CACHE, " +
    'else $XDG_CACHE_HOME/jsio-bench, else ~/.cache/jsio-bench; machine/cache-root.ts): <experiment>/<variant>/ under it, ' +
    'hard links to the content-keyed builds its last run used.',
  options: {
    root: { type: 'string', value: 'DIR', default: '.', description: 'the checkout' },
  },
  example: 'npm run workflow -- build-dir',
} as const satisfies CommandSpec;

async function buildDirCmd(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommand(buildDirSpec, argv);
  const root = resolve(values.root!);
  if (!existsSync(join(root, 'programs')))
    throw new UserError(`--root ${values.root}: not a jsio-bench checkout (it has no programs/ folder)`);
  io.stdout(`${join(checkoutCache(root, io.env), 'build')}\n`);
  return 0;
}

const CHECKS: Record<string, { spec: CommandSpec; run: (argv: string[], io: Io) => Promise<number> }> = {
  'pr-head': { spec: prHeadSpec, run: prHead },
  'comment-target': { spec: commentTargetSpec, run: commentTargetCmd },
  'gab-gate': { spec: gabGateSpec, run: gabGateCmd },
  'noise-file': { spec: noiseFileSpec, run: noiseFileCmd },
  'pick-commit': { spec: pickCommitSpec, run: pickCommitCmd },
  'pr-outcome': { spec: prOutcomeSpec, run: prOutcomeCmd },
  'merge-status': { spec: mergeStatusSpec, run: mergeStatusCmd },
  'measuring-side': { spec: measuringSideSpec, run: measuringSideCmd },
  replan: { spec: replanSpec, run: replanCmd },
  'plan-tools': { spec: planToolsSpec, run: planToolsCmd },
  'build-dir': { spec: buildDirSpec, run: buildDirCmd },
  'mark-base': { spec: markBaseSpec, run: markBaseCmd },
  'harness-changed': { spec: harnessChangedSpec, run: harnessChangedCmd },
};

export const workflowSpec = {
  name: 'workflow',
  brief:
    "the workflows' decisions (pr-head, comment-target, gab-gate, noise-file, pick-commit, pr-outcome, merge-status, measuring-side, replan, plan-tools, build-dir, mark-base, harness-changed)",
  summary: "The GitHub workflows' decisions as tested code (docs/workflows.md): one check per call.",
  options: {},
  subcommands: Object.fromEntries(Object.entries(CHECKS).map(([name, c]) => [name, c.spec])),
  example: 'npm run workflow -- pick-commit --head HEAD_SHA --store data --machine ID',
} as const satisfies CommandSpec;

/** The `workflow` command: wire it as `workflow: workflowCommand` in the CLI's command table. */
export async function workflowCommand(argv: string[], io: Io = defaultIo): Promise<number> {
  const [check, ...rest] = argv;
  const run = check && Object.hasOwn(CHECKS, check) ? CHECKS[check]!.run : undefined;
  if (!run) {
    io.stderr(`error: workflow needs one of: ${Object.keys(CHECKS).join(', ')}\n`);
    return EXIT.refused;
  }
  try {
    return await run(rest, io);
  } catch (e) {
    const err = e as Error & { code?: string };
    if (e instanceof UserError || err.code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`error: workflow ${check}: ${err.message}\n`);
      return EXIT.refused;
    }
    io.stderr(`internal error: workflow ${check}: ${err.stack ?? String(e)}\n`);
    return EXIT.internalError;
  }
}
