/**
 * A published commit's trend marks (formats/marks-format.ts), derived from what the run says and,
 * for a harness change, from the transcript verdict bench.yml recorded. Pure: the publishing
 * command (cli/commands/pages.ts) reads the files and stores the marks (store/mark-store.ts).
 *
 * - sandbox: the commit's runs measured in the sandbox after the previous commit's did not (or
 *   the other way), or a toolchain both runs name has another version (every count and start-up
 *   moves with the sandbox's fixed paths and environment, and with a runtime's version);
 * - counts: a live re-count disagreed with the stored counts of a family, which were dropped on
 *   this machine and counted again (results' `counting.dropped`);
 * - harness: the harness changed since the previous published commit, and its recordings show it
 *   runs the programs differently or makes other numbers from the same raw output.
 */
import type { Mark, MarkKind } from '../formats/marks-format.js';
import type { Results } from '../formats/results-format.js';
import { measuresTheSame, type TranscriptVerdictFile } from '../formats/transcript-format.js';
import { moveText } from '../pairs/harness-shift/transcript-numbers.js';

/** The reason texts' cap (formats/parts/fields.ts Text('long')). */
const REASON_CHARS = 4000;

const cap = (s: string) => (s.length > REASON_CHARS ? `${s.slice(0, REASON_CHARS - 1)}…` : s);
const short = (sha: string) => sha.slice(0, 12);

/** Where a run's programs ran, as its results say ("not recorded" before sandboxes). */
const sandboxOf = (r: Results) => r.run.conditions?.sandbox ?? 'not recorded';

/** The toolchains both runs name with another version, "name a → b" each, sorted by name. */
export function toolchainChanges(prev: Results, run: Results): string[] {
  const before = prev.run.toolchains;
  return Object.entries(run.run.toolchains)
    .filter(([name, v]) => Object.hasOwn(before, name) && before[name] !== v)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, v]) => `${name} ${before[name]} → ${v}`);
}

/** The sandbox mark of `run` against the previous commit's run of its profile, if its numbers moved for it. */
export function sandboxMark(prev: { run: Results; file: string } | undefined, run: Results): Mark | undefined {
  if (!prev) return undefined;
  const [was, is] = [sandboxOf(prev.run), sandboxOf(run)];
  const parts: string[] = [];
  if (is === 'bubblewrap' && was !== 'bubblewrap')
    parts.push(
      `measured in the sandbox (bubblewrap) from this commit on; the previous commit's runs were not (${was}): counts and start-up times move with the sandbox's fixed paths and environment`,
    );
  else if (was === 'bubblewrap' && is !== 'bubblewrap')
    parts.push(
      `measured without the sandbox (${is}); the previous commit's runs were in it: counts and start-up times move with the paths and environment`,
    );
  const tools = toolchainChanges(prev.run, run);
  if (tools.length) parts.push(`toolchain changed: ${tools.join(', ')}`);
  if (!parts.length) return undefined;
  return {
    kind: 'sandbox',
    profile: run.run.profile,
    reason: cap(parts.join('; ')),
    source: `${prev.file} (${short(prev.run.run.commit.sha)}) against this run (${run.run.id})`.slice(0, 1000),
  };
}

/** The counts mark of a run whose live re-check dropped stored counts. */
export function countsMark(run: Results): Mark | undefined {
  const c = run.run.counting;
  if (!c?.dropped.length) return undefined;
  const disagreed = c.rechecked.filter((r) => !r.agreed && !r.otherWork).map((r) => `${r.id} (${r.family})`);
  return {
    kind: 'counts',
    profile: run.run.profile,
    reason: cap(
      `a live re-count disagreed with the stored counts of ${c.dropped.join(', ')}${disagreed.length ? ` (re-counted: ${disagreed.join(', ')})` : ''}: those stored counts were dropped on this machine and counted again, so these counts are new ones, not a change of the programs`,
    ),
    source: `the counting record of run ${run.run.id}`,
  };
}

/** The differences a verdict names: what runs differently, then the numbers made differently. */
function verdictDifferences(v: TranscriptVerdictFile['verdict']): string[] {
  if (v.exits.base !== 0 || v.exits.head !== 0)
    return [
      `its recordings did not finish (previous exited ${v.exits.base}, this one ${v.exits.head}): what it changes is not known`,
    ];
  const runs = v.runs.differences.map((d) => `${d.what} (${d.runs} run${d.runs === 1 ? '' : 's'})`);
  if (v.runs.more) runs.push(`and ${v.runs.more} more`);
  // The sizes of main's real runs when both analyses were handed them; else the recording's.
  const trend = v.numbers.trend?.moves;
  const numbers = (trend?.length ? trend : v.numbers.moves).map(moveText);
  return [
    ...(runs.length ? [`runs programs differently: ${runs.join('; ')}`] : []),
    ...(numbers.length ? [`makes numbers differently from the same raw output: ${numbers.join('; ')}`] : []),
  ];
}

/**
 * The harness mark of `run` from the verdict of its harness recorded against the previous
 * published commit's (transcript --base-side previous --head-side this); none when both measure
 * the same. A verdict of another commit is refused by the caller, before anything is stored.
 */
export function harnessMark(verdict: TranscriptVerdictFile, run: Results): Mark | undefined {
  const v = verdict.verdict;
  if (measuresTheSame(v)) return undefined;
  const what = verdictDifferences(v);
  return {
    kind: 'harness',
    profile: run.run.profile,
    reason: cap(
      `the harness changed since ${short(verdict.base.commit)}: ${what.join('; ') || 'it measures differently'}`,
    ),
    source:
      `transcript verdict ${short(verdict.base.commit)}…${short(verdict.head.commit)}, bench ${v.bench.join(' ')}`.slice(
        0,
        1000,
      ),
  };
}

/** Every mark of one published run, and the kinds it decided (found or not). */
export function marksOf(
  run: Results,
  prev: { run: Results; file: string } | undefined,
  verdict: TranscriptVerdictFile | undefined,
): { decided: MarkKind[]; marks: Mark[] } {
  const found = [sandboxMark(prev, run), countsMark(run), verdict ? harnessMark(verdict, run) : undefined];
  return {
    decided: ['sandbox', 'counts', ...(verdict ? (['harness'] as const) : [])],
    marks: found.filter((m): m is Mark => m !== undefined),
  };
}
