/**
 * The section that leads a PR comment when the pull request changes the harness's measuring code:
 * the changed files, then one line per experiment with its pooled shift (the head's harness over
 * the base's, same programs) and interval, flagged when the interval leaves the margin. Every
 * string from the comparison is escaped.
 */

import type { HarnessShift } from '../../formats/pairs-format.js';
import { measuresTheSame, needsNoTiming, type TranscriptVerdict } from '../../formats/transcript-format.js';
import { groupDigits } from '../../lib/format.js';
import { escapeCell } from '../../lib/markdown.js';
import { settled } from './pooled-shift.js';
import { verdictLines } from './verdict-text.js';

/** Files listed before "and N more". */
const MAX_FILES = 15;
const MAX_NOT_MEASURED = 10;

/** A ratio as a signed percentage: 1.004 -> "+0.4 %", 0.997 -> "−0.3 %". */
export function shiftPct(ratio: number): string {
  const p = (ratio - 1) * 100;
  return `${p < 0 ? '−' : '+'}${Math.abs(p).toFixed(1)} %`;
}

type ExperimentShift = HarnessShift['experiments'][number];

export function shiftLine(e: ExperimentShift): string {
  const interval = e.ci ? ` (${shiftPct(e.ci[0])} … ${shiftPct(e.ci[1])})` : ' (no interval below six rounds)';
  // Flagged means the interval leaves the margin: wholly beyond it is a shift, straddling it is too
  // wide an interval to tell.
  const flag = !e.flagged ? '' : settled(e) ? ' ⚠️ beyond the margin' : ' ⚪ too wide to tell';
  const metrics = e.metrics.length ? ` (${e.metrics.map(escapeCell).join(', ')})` : '';
  const points = `${e.points.length} point${e.points.length === 1 ? '' : 's'}${metrics}, ${e.rounds} round${e.rounds === 1 ? '' : 's'}`;
  return `- **${escapeCell(e.experiment)}**: ${shiftPct(e.ratio)}${interval}${flag} — ${points}`;
}

/** A section's heading, then the changed files. */
const heading = (title: string, s: HarnessShift) => [title, '', `Changed: ${shortList(s.files)}`, ''];

function shortList(files: readonly string[]): string {
  const shown = files.slice(0, MAX_FILES).map(escapeCell).join(', ');
  return files.length > MAX_FILES ? `${shown} and ${files.length - MAX_FILES} more` : shown;
}

/** The section for a change that compiles to the same runner code: nothing was measured, and why none was needed. */
function sameCodeSection(s: HarnessShift): string {
  return [
    ...heading("### This PR changes the harness's measuring files, which compile to the same code", s),
    "Both harnesses' runner code, bundled and minified as it runs (comments, types, formatting and code nothing reaches left out), is byte-identical, and no C tool, pin or package differs: no number can move, so none was measured.",
  ].join('\n');
}

/** The section for a change whose transcripts show it measures the same: nothing was timed, and why none was needed. */
function sameRunsSection(s: HarnessShift, v: TranscriptVerdict): string {
  return [
    ...heading(
      measuresTheSame(v)
        ? "### This PR changes the harness's measuring code, which measures the same"
        : '### This PR changes how the harness makes numbers from the same runs: the moves are listed, exact',
      s,
    ),
    "Both harnesses were recorded from outside running the same bench (strace on every program they start, hyperfine's runs handed out alike to both), and compared:",
    '',
    ...verdictLines(v),
  ].join('\n');
}

type Work = NonNullable<HarnessShift['work']>[number];

const count = (n: number | undefined, metric: string | undefined) =>
  n === undefined
    ? '?'
    : `${groupDigits(Math.round(n))} ${metric === 'instructions_per_op' ? 'instructions per operation' : 'instructions'}`;

export function workLine(w: Work): string {
  const id = escapeCell(w.benchmark);
  const evidence = w.evidence ? ` (evidence only: ${escapeCell(w.evidence)})` : '';
  switch (w.verdict) {
    case 'same':
      return `- ${id}: work the same on both sides (${count(w.base, w.metric)})${evidence}`;
    case 'changed':
      return `- ${id}: ${evidence ? '' : '⚠️ '}work changed, ${count(w.base, w.metric)} → ${count(w.head, w.metric)} (${shiftPct(1 + (w.change ?? 0))})${evidence}`;
    case 'not-deterministic':
      return `- ${id}: counts not deterministic here (repeats ${((w.spread ?? 0) * 100).toFixed(2)} % apart)`;
    default:
      return `- ${id}: not counted (${escapeCell(w.reason ?? 'no reason given')})`;
  }
}

/** The counts both harnesses made of the points the differences are in. */
const workLead = (s: HarnessShift) =>
  s.work?.length
    ? [
        "The points the differences are in, counted under Valgrind by each side's own harness running the head's programs (exact; the same work means the program does the same, however differently it is started):",
        '',
        ...s.work.map(workLine),
        '',
      ]
    : [];

/** The transcripts' lines that lead a timed section: what runs or is computed differently. */
const transcriptLead = (s: HarnessShift) =>
  s.transcript ? ['Recorded from outside before timing:', '', ...verdictLines(s.transcript), ''] : [];

/** Why a point timed with the recorded commands is measured, as the comment lists an affected point's parts. */
export const RECORDED_REASON = "the harness's timed commands (each side's as recorded)";

/** The points timed in pairs with each harness's recorded commands, as a program change is. */
const pairedLines = (s: HarnessShift) =>
  s.paired?.length
    ? [
        `Timed in pairs, as a program change is: ${shortList(s.paired)} — each harness's own timed commands, in its own sandbox environment, as its recording shows them: base's against head's, under one pair timer, with the same mounts (their rows above, "${RECORDED_REASON}").`,
        '',
      ]
    : [];

/** The section for a change whose every difference is in points' own timed commands: timed in pairs, nothing in rounds. */
function pairedSection(s: HarnessShift): string {
  return [
    ...heading("### This PR changes the harness's measuring code, which times some points with other commands", s),
    ...transcriptLead(s),
    ...workLead(s),
    ...pairedLines(s),
    'Nothing else runs differently, so nothing was timed in rounds of whole benches.',
  ].join('\n');
}

export function renderHarnessShift(s: HarnessShift): string {
  if (s.sameCode) return sameCodeSection(s);
  if (s.transcript && needsNoTiming(s.transcript) && s.rounds === 0) return sameRunsSection(s, s.transcript);
  if (s.paired?.length && s.rounds === 0 && !s.experiments.length) return pairedSection(s);
  const margin = `±${(s.margin * 100).toFixed(1)} %`;
  const plural = (n: number) => `${n} experiment${n === 1 ? '' : 's'}`;
  const beyond = s.experiments.filter((e) => e.flagged && settled(e, s.margin)).length;
  const open = s.experiments.filter((e) => e.flagged && !settled(e, s.margin)).length;
  const head = beyond
    ? `### ⚠️ This PR changes the harness's measuring code, and moves ${plural(beyond)} beyond ${margin}`
    : open
      ? `### ⚠️ This PR changes the harness's measuring code; a shift beyond ${margin} cannot be ruled out in ${plural(open)} (their intervals are too wide)`
      : "### This PR changes the harness's measuring code";
  const lines = [
    ...heading(head, s),
    ...transcriptLead(s),
    ...workLead(s),
    ...pairedLines(s),
    `The same programs (the head's) measured by the base's harness and by the head's, alternating in rounds (${escapeCell(s.profile)} profile${s.candidates && s.candidates > 1 ? `; of ${s.candidates} points tried per experiment in the first rounds, those whose ratio moved least between rounds went on` : ''}). Each experiment's pooled shift of its numbers, the head's harness over the base's, with a 95 % interval (flagged when it leaves ${margin}: beyond the margin when wholly outside it, too wide to tell when it straddles it):`,
    '',
    ...(s.experiments.length
      ? s.experiments.map(shiftLine)
      : ['- no experiment could be measured with both harnesses']),
    ...(s.note ? ['', `Note: ${escapeCell(s.note)}.`] : []),
  ];
  if (s.notMeasured.length) {
    const shown = s.notMeasured
      .slice(0, MAX_NOT_MEASURED)
      .map((n) => `- not measured: ${escapeCell(n.benchmark)} (${escapeCell(n.reason)})`);
    const more = s.notMeasured.length - shown.length;
    lines.push('', ...shown, ...(more > 0 ? [`- and ${more} more not measured`] : []));
  }
  return lines.join('\n');
}
