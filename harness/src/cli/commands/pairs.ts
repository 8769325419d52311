/**
 * npm run pairs: the paired diff (pairs/diff/pr-diff.ts), what pr.yml runs for a pull request. Measures base and head process by
 * process in pairs, within a time budget, and writes comparison.json, comparison.md and pairs.json
 * (every point's pairs, for calibration). comparison.json is written at the schema the base's
 * harness reads (the PR-comment workflow reads it with the default branch's), the full one beside
 * it when that is older (pairs/comment/down-level.ts).
 */
import { join, resolve } from 'node:path';
import { readCountStore } from '../../counts/count-store.js';
import { PAIRS_COMPARISON_SCHEMA } from '../../formats/comparison-format.js';
import type { DiffPlan } from '../../formats/diff-plan-format.js';
import { readVerdictFile, type TranscriptVerdict } from '../../formats/transcript-format.js';
import { writeFileAtomic } from '../../lib/atomic.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory, existingDirectory } from '../../lib/paths.js';
import { commitInfo, machineInfo } from '../../machine/machine.js';
import { renderPairsComparison } from '../../pairs/comment/comment.js';
import { forReader } from '../../pairs/comment/down-level.js';
import { renderPlan } from '../../pairs/comment/plan-text.js';
import { DEFAULT_CONTROL_POINTS } from '../../pairs/decide/impact.js';
import { DEFAULT_GATE_RULE, parseGateRule } from '../../pairs/decide/merge-gate.js';
import { summarize } from '../../pairs/decide/summarize.js';
import { runPrDiff } from '../../pairs/diff/pr-diff.js';
import { planDiff } from '../../pairs/diff/what-to-measure.js';
import { Budget } from '../../pairs/engine/budget.js';
import { pairEveryPoint } from '../../pairs/engine/every-point.js';
import type { SideSetup } from '../../pairs/engine/pair-engine.js';
import type { PairsResult } from '../../pairs/engine/pairs-outcome.js';
import { loadNoise, noiseSourceOf } from '../../store/noise-thresholds.js';
import { readTrustedPlan } from '../../workflow/artifact.js';
import { pairsSchemaReadBy } from '../../workflow/reader-schema.js';
import { intFlag, ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';
import { SELECTION_OPTIONS, selectionOf } from '../selection.js';

/** Default budget: sized for a quick-profile diff of every experiment within pr.yml's deadline on a 2-core runner. */
const DEFAULT_BUDGET_MINUTES = 12;

export const pairsSpec = {
  name: 'pairs',
  brief: 'the PR diff: base and head measured in random-order pairs',
  summary:
    'The PR diff: base and head checkouts measured in pairs, process by process in a random order per pair, until ' +
    'each point is decided or its share of the budget is spent -> comparison.md, comparison.json, pairs.json.',
  options: {
    base: { type: 'string', value: 'DIR', description: 'the base checkout (required)' },
    head: { type: 'string', default: ROOT, value: 'DIR', description: 'the head checkout' },
    budget: {
      type: 'string',
      default: String(DEFAULT_BUDGET_MINUTES),
      value: 'MINUTES',
      description: 'measuring budget',
    },
    deadline: { type: 'string', value: 'MINUTES', description: 'bound on the whole diff, set-up included' },
    seed: { type: 'string', value: 'N', description: 'the pair order seed (default: random)' },
    out: { type: 'string', default: join(ROOT, 'results', 'pr'), value: 'DIR', description: 'where the diff goes' },
    noise: { type: 'string', value: 'FILE', description: "a machine's noise.json (thresholds)" },
    'noise-store': { type: 'string', value: 'DIR', description: 'a store to read the noise thresholds from' },
    'count-store': {
      type: 'string',
      value: 'DIR',
      description: "a trend store whose counts of this machine stand for the base's where their keys match (read only)",
    },
    ...SELECTION_OPTIONS,
    control: {
      type: 'string',
      value: 'N',
      description: `unaffected points measured as the A/A control (default ${DEFAULT_CONTROL_POINTS}, drawn only when something is timed; given, always; 0 for none)`,
    },
    'every-point': {
      type: 'boolean',
      default: false,
      description:
        'measure every point both sides have, each as its own question (no control, no counts, no harness comparison)',
    },
    strict: { type: 'boolean', default: false, description: 'refuse to run on a busy machine instead of warning' },
    'no-sandbox': {
      type: 'boolean',
      default: false,
      description:
        'measure both sides without bubblewrap, each at its own path: a diagnostic of what the sandbox costs (refused in workflows; its answer decides nothing)',
    },
    plan: {
      type: 'boolean',
      default: false,
      description: 'print what the diff would measure and why, measuring, building and writing nothing',
    },
    json: { type: 'boolean', default: false, description: 'with --plan: the plan as one JSON object on stdout' },
    trace: {
      type: 'boolean',
      default: false,
      description:
        "with --plan: set up, build and run the base's points once under strace; a changed file they touched makes them affected",
    },
    store: {
      type: 'string',
      value: 'DIR',
      description:
        "with --plan --trace: a trend store whose traces of the base commit (main's runs, bench --trace-profiles) are taken instead of tracing those points again",
    },
    'show-plan': {
      type: 'string',
      value: 'FILE',
      description: 'print a plan written by --plan --json for a reader, and nothing else',
    },
    'trusted-plan': {
      type: 'string',
      value: 'FILE',
      description: "a plan the base's harness wrote (--plan --json): every point it names is measured too",
    },
    transcripts: {
      type: 'string',
      value: 'FILE',
      description:
        "what both harnesses ran and computed, recorded by the base's harness (transcript --base-side … --dir): equal, a harness change needs no timing",
    },
    'base-just': {
      type: 'string',
      value: 'DIR',
      description:
        "the base's just(js) installation, when the sides pin different releases (default: $JUST_HOME or PATH)",
    },
    'head-just': {
      type: 'string',
      value: 'DIR',
      description:
        "the head's just(js) installation, when the sides pin different releases (npm run install-just -- --pins ../head/harness/toolchains.json PREFIX prints it)",
    },
    'fail-on': {
      type: 'string',
      default: DEFAULT_GATE_RULE,
      value: 'RULE',
      description: 'the merge rule the comment states: none, or broken, slower, slower>N% (comma-separated)',
    },
  },
  example: 'npm run pairs -- --base ../base --profile smoke --experiments wc --variants c',
  notes: [
    'Bench flags (--profile, --experiments, --variants, --param, --require) may also follow a `--`.',
    'Only the points whose measured inputs differ between base and head are measured, plus --control unaffected ones (seeded by the head commit) when anything is timed; the rest are listed as not affected.',
    'The plan (--plan) lists the affected points with their reasons, the control, the unaffected count and whether the harness changed, in seconds; it exits 0 whatever it finds.',
    'With --count-store a base point whose count key (everything the count depends on) the store holds for this machine is not counted again, only its head; one such point per deciding family is compared live first, and a family whose comparison disagrees takes nothing from the store.',
    "With --trace the plan also runs each of the base's points (one per experiment, variant and runtime) once under strace in its sandbox, its input generator and build included: a changed file they opened, ran, stat'ed, listed or looked for makes them affected (\"seen only by tracing: programs/wc/x.json\" where no static rule names it). The harness's own start-up (npm run bench -- --help) is traced once too: a changed file it loads that the static harness comparison does not name is a harness change. The head's code never runs.",
    "With --store the base commit's traces that main's runs stored for the profile (<machine>/traces/<sha>.json) are taken, and only the points without one are traced.",
  ],
} as const satisfies CommandSpec;

export async function pairsCommand(argv: string[]): Promise<number> {
  // Bench flags may follow a `--` (as with `npm run calibrate`): they are the same flags here.
  const { values } = parseCommand(
    pairsSpec,
    argv.filter((a) => a !== '--'),
  );
  if (values['show-plan']) {
    process.stdout.write(renderPlan(readTrustedPlan(values['show-plan'])));
    return EXIT.ok;
  }
  const rule = parseGateRule(values['fail-on']);
  if (!values.base) throw new UserError('pairs needs --base DIR (the base checkout; --head defaults to this one)');
  const seconds = budgetSeconds(values);
  const selection = selectionOf(values);
  if (values.json && !values.plan)
    throw new UserError('--json goes with --plan (the diff itself writes comparison.json)');
  if (values.trace && !values.plan) throw new UserError('--trace goes with --plan (the diff itself measures)');
  if (values.store !== undefined && !values.trace)
    throw new UserError('--store goes with --plan --trace (it holds the traces of the base commit)');
  if (values['no-sandbox']) refuseNoSandboxWhere(values.plan);
  if (values['every-point']) refuseWithEveryPoint(values);
  if (values.plan) return planCommand(values, selection);
  const seed =
    values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : intFlag('--seed', values.seed, 0, 2 ** 31 - 1);
  const controlPoints = intFlag('--control', values.control ?? String(DEFAULT_CONTROL_POINTS), 0, 100);
  const base = existingDirectory(values.base, '--base');
  const head = existingDirectory(values.head, '--head');
  // Read before anything is written: a bad plan touches nothing.
  const trusted = values['trusted-plan'] ? trustedPlanOf(values['trusted-plan'], head) : undefined;
  const transcripts = values.transcripts ? readVerdictFor(values.transcripts, base, head) : undefined;
  const out = ensureDirectory(values.out, '--out');
  const source = noiseSourceOf(values);
  const noise = loadNoise(source, machineInfo().id);
  const countStore = countStoreOf(values['count-store']);
  const log = (s: string) => process.stderr.write(`${s}\n`);
  if (values['no-sandbox']) log(NO_SANDBOX_WARNING);
  // The diff's one Budget counts seconds, from now.
  const budget = new Budget(seconds.asked, seconds.deadline);
  // This checkout's harness measures, whichever side it is (pr.yml runs the base's when the harness did not change).
  const engine = { harnessRoot: ROOT, budget, seed, noise: noise.thresholds, strict: values.strict, log };
  const sides = {
    base: { root: base, filters: selection.filters },
    head: { root: head, filters: selection.filters },
    profile: selection.profile,
    setup: sideSetup(values, selection.require),
  };
  const { comparison, document, interrupted } = values['every-point']
    ? await pairEveryPoint(sides, engine)
    : await runPrDiff(sides, engine, {
        controlPoints,
        // Asked for by hand (an A/A diff of the machine), the control is measured even with nothing to time.
        ...(values.control !== undefined ? { keepControl: true } : {}),
        ...(trusted ? { trusted } : {}),
        ...(countStore ? { countStore } : {}),
        ...(transcripts ? { transcripts } : {}),
        // As for bench: JSIO_COUNTS=none counts nothing (tests whose subject is not the counts).
        counts: process.env.JSIO_COUNTS !== 'none',
      });
  const markdown = writeDiff(out, base, { comparison, document, noise, profile: values.profile, rule }, log);
  process.stdout.write(`${markdown}\ncomparison: ${join(out, 'comparison.md')} and comparison.json\n`);
  if (interrupted) return EXIT.interrupted;
  const failed = comparison.notMeasured.filter((x) => x.status === 'failed');
  // Said where the run is watched too, not only in the files: the exit status alone names nothing.
  for (const f of failed) log(`failed (${f.side}): ${f.benchmark}: ${f.reason}`);
  return failed.length ? EXIT.benchmarksFailed : EXIT.ok;
}

/** --budget and --deadline, given in minutes: the last place minutes are seen. */
function budgetSeconds(values: { budget: string; deadline?: string }): { asked: number; deadline?: number } {
  const minutes = Number(values.budget);
  if (!(minutes > 0 && minutes <= 600))
    throw new UserError(`--budget ${values.budget}: expected minutes, a number above 0 and at most 600`);
  if (values.deadline === undefined) return { asked: minutes * 60 };
  const deadline = Number(values.deadline);
  if (!(deadline > 0 && deadline <= 1440))
    throw new UserError(`--deadline ${values.deadline}: expected minutes for the whole diff, above 0 and at most 1440`);
  return { asked: minutes * 60, deadline: deadline * 60 };
}

/** How each side is prepared: the required tools, each side's own just(js), the sandbox. */
function sideSetup(
  values: { 'base-just'?: string; 'head-just'?: string; 'no-sandbox': boolean },
  require: string[],
): SideSetup {
  return {
    require,
    justHomes: {
      ...(values['base-just'] ? { base: existingDirectory(values['base-just'], '--base-just') } : {}),
      ...(values['head-just'] ? { head: existingDirectory(values['head-just'], '--head-just') } : {}),
    },
    ...(values['no-sandbox'] ? { sandbox: 'off' as const } : {}),
  };
}

const NO_SANDBOX_WARNING =
  'warning: --no-sandbox: both sides run without bubblewrap, each at its own path (a diagnostic: counts and start-up move with paths, and this answer decides nothing)';

/** `--every-point` measures every point as its own question: no plan chooses them, and nothing is counted or recorded first. */
function refuseWithEveryPoint(values: Record<string, unknown>): void {
  for (const flag of ['plan', 'trusted-plan', 'transcripts', 'count-store'])
    if (values[flag])
      throw new UserError(`--${flag} does not go with --every-point (every point is measured, none chosen or counted)`);
}

/** `--no-sandbox` is a diagnostic of a diff on a developer machine: never a plan, never in a workflow. */
function refuseNoSandboxWhere(plan: boolean): void {
  if (plan)
    throw new UserError(
      '--no-sandbox goes with a diff, not --plan (a plan measures nothing, and its traces run sandboxed)',
    );
  // A comment decides merges: the sandbox that keeps the sides apart and alike is never optional there.
  if (process.env.GITHUB_ACTIONS === 'true')
    throw new UserError('--no-sandbox is refused in a workflow: it is a diagnostic for a developer machine');
}

/** The diff's files: comparison.json (at the schema the base's comment job reads), comparison.md, pairs.json. */
function writeDiff(
  out: string,
  base: string,
  d: {
    comparison: PairsResult['comparison'];
    document: PairsResult['document'];
    noise: ReturnType<typeof loadNoise>;
    profile: string;
    rule: ReturnType<typeof parseGateRule>;
  },
  log: (s: string) => void,
): string {
  const { comparison, document, noise, rule } = d;
  // The note says where the thresholds came from: the method gives way to it under the 800-character cap.
  if (noise.note) {
    const note = noise.note.slice(0, 300);
    comparison.method = `${comparison.method.slice(0, 800 - note.length - 2)}; ${note}`;
  }
  if (noise.warning) comparison.warnings = [...(comparison.warnings ?? []), noise.warning.slice(0, 500)];
  comparison.profile = d.profile;
  // The summary leads comparison.json as it leads the comment (derived: pr-comment computes it again).
  comparison.summary = summarize(comparison, rule);
  const markdown = renderPairsComparison(comparison, { rule });
  const json = (x: unknown) => `${JSON.stringify(x, null, 1)}\n`;
  const older = forReader(comparison, pairsSchemaReadBy(base));
  if (older) {
    const full = `comparison.schema-${PAIRS_COMPARISON_SCHEMA}.json`;
    writeFileAtomic(join(out, full), json(comparison));
    writeFileAtomic(join(out, 'comparison.json'), json(older));
    log(
      `comparison.json is written at schema ${older.schema}, which the base's harness (the PR comment's reader) reads; the full comparison is ${full}`,
    );
  } else writeFileAtomic(join(out, 'comparison.json'), json(comparison));
  writeFileAtomic(join(out, 'comparison.md'), markdown);
  writeFileAtomic(join(out, 'pairs.json'), `${JSON.stringify(document)}\n`);
  return markdown;
}

/**
 * The trend store's counts of this machine (--count-store), read and validated now, before
 * anything is measured: a malformed file is refused naming it and its field. A store without this
 * machine's counts is an empty one (every base is counted).
 */
function countStoreOf(dir: string | undefined) {
  if (!dir) return undefined;
  const file = readCountStore(dir, machineInfo().id, 'refusing the stored counts (--count-store): ');
  return { dir, file };
}

/** A verdict written by `transcript --base-side` (read as untrusted), for these two commits. */
function readVerdictFor(file: string, base: string, head: string): TranscriptVerdict {
  const v = readVerdictFile(resolve(file));
  for (const [side, dir] of [
    ['base', base],
    ['head', head],
  ] as const) {
    const sha = commitInfo(dir).sha;
    if (v[side].commit !== sha)
      throw new UserError(
        `--transcripts ${file} recorded the ${side} at ${v[side].commit.slice(0, 12)}, but --${side} is at ${sha.slice(0, 12)}`,
      );
  }
  return v.verdict;
}

/** A plan written by `pairs --plan --json` (another harness's: read as untrusted), for this head. */
function trustedPlanOf(file: string, head: string): DiffPlan {
  const plan = readTrustedPlan(file);
  const sha = commitInfo(head).sha;
  if (plan.head.commit !== sha)
    throw new UserError(
      `--trusted-plan ${file} is a plan of head ${plan.head.commit.slice(0, 12)}, but --head is at ${sha.slice(0, 12)}`,
    );
  return plan;
}

/** `pairs --plan [--json] [--trace]`: nothing measured or written (with --trace, the base's points set up, built and run once). */
async function planCommand(
  values: { base?: string; head: string; control?: string; json: boolean; trace: boolean; store?: string },
  selection: ReturnType<typeof selectionOf>,
): Promise<number> {
  if (!values.base) throw new UserError('pairs needs --base DIR (the base checkout; --head defaults to this one)');
  const plan = await planDiff({
    base: existingDirectory(values.base, '--base'),
    head: existingDirectory(values.head, '--head'),
    profile: selection.profile,
    filters: selection.filters,
    controlPoints: intFlag('--control', values.control ?? String(DEFAULT_CONTROL_POINTS), 0, 100),
    ...(values.trace
      ? {
          trace: {
            harnessRoot: ROOT,
            log: (m: string) => process.stderr.write(`${m}\n`),
            ...(values.store ? { store: existingDirectory(values.store, '--store') } : {}),
          },
        }
      : {}),
  });
  process.stdout.write(values.json ? `${JSON.stringify(plan, null, 1)}\n` : renderPlan(plan));
  return EXIT.ok;
}
