/**
 * What bench.yml's publish job hands to github-action-benchmark (v1.20.4), decided before its
 * steps run, because the action itself appends whatever it is given, under whatever commit it is
 * told, every time it runs:
 * - one workload only: the default profile of push and nightly runs, and dispatches that change
 *   nothing (no filter, no other profile, no other ref); smoke-sized or filtered points must not
 *   join the series of full runs;
 * - the commit measured, and only when it is the commit the workflow ran for (a nightly back-fill
 *   of an older commit would be appended after newer ones);
 * - once per commit and machine: a re-run, or a nightly run of a commit already stored, appends
 *   nothing and raises no alert again;
 * - never an out-of-order commit: the last stored commit must be an ancestor of the measured one;
 * - never a missing or empty file (the action fails a step on `[]`).
 * Pure functions; the command in cli.ts reads the files and asks git.
 */
import { z } from 'zod';
import { FreeKey, Num, SafeRecord, Text, Token } from '../formats/parts/fields.js';
import { UserError } from '../lib/errors.js';
import { assertSegment, assertSha } from '../lib/ids.js';
import { parseJson } from '../lib/json-file.js';

export const GAB_TOOLS = ['customSmallerIsBetter', 'customBiggerIsBetter'] as const;
export type GabTool = (typeof GAB_TOOLS)[number];

/**
 * What the gate reads of the action's data.js (`window.BENCHMARK_DATA = {...}`): a run of one
 * suite (`name`) per commit. The file is the action's, on a branch anyone who can publish could
 * have shaped: its keys, texts and numbers get results.json's rules; what the gate does not read
 * (each entry's benches) passes as it is.
 */
const GabEntrySchema = z
  .object({ commit: z.object({ id: Text('short') }).loose(), tool: Token, date: Num.optional() })
  .loose();
const GabDataSchema = z
  .object({
    lastUpdate: Num.optional(),
    repoUrl: Text('line').optional(),
    entries: SafeRecord(FreeKey, z.array(GabEntrySchema)),
  })
  .loose();
export type GabData = z.infer<typeof GabDataSchema>;

/** data.js is `window.BENCHMARK_DATA = {...}` (JSON after the assignment). */
export function parseGabDataJs(text: string, file = 'data.js'): GabData {
  const start = text.indexOf('{');
  const prefix = text.slice(0, Math.max(0, start)).trim();
  if (start < 0 || !/^window\.BENCHMARK_DATA\s*=$/.test(prefix))
    throw new UserError(`${file}: not github-action-benchmark data (expected "window.BENCHMARK_DATA = {...}")`);
  return parseJson(file, text.slice(start).trim().replace(/;\s*$/, ''), GabDataSchema);
}

/** Commits stored for one tool (both directions share one data.js per machine), in stored order. */
export function storedCommits(data: GabData | undefined, tool: GabTool): string[] {
  if (!data) return [];
  const out: string[] = [];
  for (const list of Object.values(data.entries)) for (const e of list) if (e.tool === tool) out.push(e.commit.id);
  return out;
}

export interface GabGateInput {
  /** github.event_name */
  event: string;
  /** github.sha: the commit the workflow ran for. */
  workflowSha: string;
  /** The results' run.commit.sha (validated here). */
  measuredSha: unknown;
  /** The results' run.machine.id (validated here). */
  machine: unknown;
  /** The results' run.profile. */
  profile: unknown;
  /** The profile push and nightly runs use (bench.yml's DEFAULT_PROFILE). */
  defaultProfile: string;
  /** Every dispatch input that narrows or redirects the run, concatenated ('' = none). */
  dispatchFilters: string;
  /** Rows in each direction's input file; undefined = the file is absent. */
  rows: Record<GabTool, number | undefined>;
  /** The action's data.js for this machine; undefined = none yet. */
  data: GabData | undefined;
  /**
   * Whether `ancestor` is an ancestor of (or equal to) `descendant`; undefined when git does not
   * know `ancestor` (history rewritten): then the order cannot be checked and is not enforced.
   */
  isAncestor: (ancestor: string, descendant: string) => boolean | undefined;
}

export interface GabGateResult {
  machine: string;
  sha: string;
  feed: Record<GabTool, boolean>;
  reasons: Record<GabTool, string>;
}

/** Throws (InvalidIdentifier) when the results carry an id that is not safe to use at all. */
export function gabGate(i: GabGateInput): GabGateResult {
  const machine = assertSegment('results run.machine.id', i.machine);
  const sha = assertSha('results run.commit.sha', i.measuredSha);
  const workflowSha = assertSha('the workflow commit (GITHUB_SHA)', i.workflowSha);
  const whole = (): string | undefined => {
    if (i.event === 'push' || i.event === 'schedule') {
      if (i.dispatchFilters !== '') return 'a push or nightly run has no dispatch inputs (got some)';
    } else if (i.event === 'workflow_dispatch') {
      if (i.dispatchFilters !== '')
        return 'a dispatch with experiments, variants, params, runs or ref measures another workload than the series';
    } else return `event ${i.event} does not feed the series`;
    if (i.profile !== i.defaultProfile)
      return `profile ${JSON.stringify(i.profile)} is not the series' profile ${JSON.stringify(i.defaultProfile)}`;
    if (sha !== workflowSha)
      return `measured ${sha}, not the workflow's commit ${workflowSha} (a back-fill): it would be appended after newer commits`;
    return undefined;
  };
  const common = whole();
  const feed = {} as Record<GabTool, boolean>;
  const reasons = {} as Record<GabTool, string>;
  for (const tool of GAB_TOOLS) {
    const rows = i.rows[tool];
    const stored = storedCommits(i.data, tool);
    const last = stored[stored.length - 1];
    let why: string | undefined = common;
    if (!why && rows === undefined) why = `no ${tool}.json`;
    if (!why && rows === 0) why = `${tool}.json is empty`;
    if (!why && stored.includes(sha))
      why = `${sha} is already stored for ${machine} (a re-run, or a nightly run of a stored commit)`;
    if (!why && last !== undefined && i.isAncestor(last, sha) === false)
      why = `the last stored commit ${last} is not an ancestor of ${sha}: appending would put the series out of order`;
    feed[tool] = why === undefined;
    reasons[tool] = why ?? `feed ${rows} series for ${sha} on ${machine}`;
  }
  return { machine, sha, feed, reasons };
}

/** Lines for $GITHUB_OUTPUT: machine, sha, and one true/false per direction. */
export function gabGateOutputs(d: GabGateResult): string {
  return [
    `machine=${d.machine}`,
    `sha=${d.sha}`,
    `smaller=${d.feed.customSmallerIsBetter}`,
    `bigger=${d.feed.customBiggerIsBetter}`,
    '',
  ].join('\n');
}
