/**
 * Two recordings' verdict in words (harness-transcripts.ts), as markdown lines for the PR comment
 * and the transcript command: which question decided, then each difference. Every string from the
 * verdict is escaped (a pull request chooses the arguments its harness passes).
 */

import {
  measuresTheSame,
  pointsToPair,
  pointsToTime,
  type TranscriptVerdict,
} from '../../formats/transcript-format.js';
import { escapeCell } from '../../lib/markdown.js';
import { moveText } from './transcript-numbers.js';

const s = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const seconds = (x: number | null) => (x === null ? 'not sampled' : `${x.toFixed(2)} s`);

/** The answer in one line: "runs the same commands and computes the same numbers: measures the same, exact". */
function verdictHeadline(v: TranscriptVerdict): string {
  if (measuresTheSame(v)) return 'runs the same commands and computes the same numbers: measures the same, exact';
  if (v.exits.base !== 0 || v.exits.head !== 0)
    return `a recorded bench did not finish (base exited ${v.exits.base}, head ${v.exits.head}): the recordings decide nothing`;
  if (v.harnessLoad?.within === false)
    return `${v.runs.same ? 'runs the same commands' : 'runs programs differently'}, but its own work while they run differs beyond the bound: the timed shift samples every point`;
  if (v.runs.same && v.numbers.unreduced)
    return "runs the same commands, but its harness could not make numbers from the base's raw samples: the timed shift samples every point";
  if (v.runs.same)
    return 'runs the same commands, and computes different numbers: the moves below are exact, nothing to time';
  const named = pointsToTime(v);
  const paired = pointsToPair(v).length;
  const inPairs = paired
    ? `${s(paired, 'point')} in ${paired === 1 ? 'its' : 'their'} own timed commands or their environment only: timed in pairs with each side's recorded ones, as a program change is`
    : '';
  const where = !named
    ? ", some in the harness's own work: the timed shift samples every point"
    : named.length
      ? `, in ${s(named.length, 'named point')} or build${named.length === 1 ? '' : 's'}${inPairs ? ` (the timed shift measures those) and ${inPairs}` : ' only: the timed shift measures those'}`
      : `, in ${inPairs}`;
  return `${v.numbers.same ? 'runs programs differently' : 'runs programs differently and computes different numbers'}${where}`;
}

const KIND_TEXT = {
  driver: 'how hyperfine drives the runs',
  program: "the points' own processes",
  harness: "the harness's own work",
} as const;

/** The verdict with its evidence and differences, markdown. */
export function verdictLines(v: TranscriptVerdict): string[] {
  const numbers =
    v.numbers.reduced !== undefined
      ? `${s(v.numbers.compared, 'value')} compared exactly, made by both analyses from the same raw output (hyperfine's replayed runs, and the base's raw samples of all ${s(v.numbers.reduced, 'benchmark')}, self-timed ones included)`
      : `${s(v.numbers.compared, 'value')} made from the same hyperfine output compared exactly (${s(v.numbers.notReplayed, 'self-timed benchmark')} not replayed)`;
  const how = `${s(v.runs.alike, 'program start')} alike on both sides; ${numbers}; ${v.baseStored ? `the head recorded in ${v.seconds.toFixed(0)} s (the base's recording is main's, from the trend store)` : `both recorded at once in ${v.seconds.toFixed(0)} s`}, bench ${escapeCell(v.bench.join(' '))}`;
  const lines = [`**${verdictHeadline(v)}** — ${how}.`];
  const load = v.harnessLoad;
  if (load)
    lines.push(
      '',
      `The harness's own CPU time in its recording (its process, not the programs it starts): base ${seconds(load.base)}, head ${seconds(load.head)}; they may differ by ${load.bound.toFixed(2)} s (measured A/A) — ${load.within ? 'within' : 'beyond'}.`,
    );
  if (!v.runs.same) {
    lines.push('', 'What runs differently (runs that differ that way):');
    for (const d of v.runs.differences)
      lines.push(
        `- ${escapeCell(d.what)} (${s(d.runs, 'run')}${d.points ? ` of ${s(d.points, 'point')}` : ''}; ${KIND_TEXT[d.kind ?? 'harness']})`,
      );
    if (v.runs.more) lines.push(`- and ${s(v.runs.more, 'more difference')}`);
  }
  if (!v.numbers.same) {
    const trend = v.numbers.trend;
    lines.push(
      '',
      trend
        ? "Numbers made differently from the same raw output (which values move is exact; the sizes here are the recording's, whose hyperfine timings are made up; real ones below):"
        : "Numbers made differently from the same raw output (which values move is exact; how far, on the recording's samples, not real runs):",
    );
    for (const m of v.numbers.moves) lines.push(`- ${escapeCell(moveText(m))}`);
    if (trend) {
      lines.push(
        '',
        `How far on real runs — both analyses of main's timed run of the base (its ${escapeCell(trend.profile)} profile, ${s(trend.benchmarks, 'benchmark')}), what its trend will show after the merge:`,
      );
      for (const m of trend.moves) lines.push(`- ${escapeCell(moveText(m))}`);
      if (!trend.moves.length) lines.push('- no value of that run moves');
    }
  }
  return lines;
}

/** The verdict as the transcript command prints it. */
export const verdictText = (v: TranscriptVerdict): string => verdictLines(v).join('\n');
