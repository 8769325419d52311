/**
 * The summary model rendered for humans: summary.md (markdown, every cell escaped so program
 * output cannot break it) and the terminal (the same text without markdown escapes).
 */

import type { Benchmark, Results } from '../formats/results-format.js';
import { formatRatio } from '../lib/format.js';
import { escapeCell, markdownTable } from '../lib/markdown.js';
import type { Answer } from './answers.js';
import {
  type AnswerModel,
  answerModel,
  type ExperimentSummary,
  type ExperimentView,
  FINDINGS,
  type SummaryModel,
  summaryModel,
  type Table,
  viewOf,
} from './summary-model.js';

interface Medium {
  text: (s: string) => string;
  table: (t: Table) => string;
  /** Install hints stay copy-pasteable: in markdown a code span is literal (no mentions, links or HTML). */
  code: (s: string) => string;
  bold: (s: string) => string;
  italic: (s: string) => string;
}

const MARKDOWN: Medium = {
  text: escapeCell,
  table: (t) => markdownTable(t.headers, t.rows, t.align),
  code: (s) => `\`${s.replace(/[`\r\n]+/g, ' ')}\``,
  bold: (s) => `**${s}**`,
  italic: (s) => `_${s}_`,
};

const TERMINAL: Medium = {
  text: (s) => s.replace(/[\r\n]+/g, ' '),
  table: (t) =>
    [t.headers, t.headers.map((_, i) => (t.align[i] === 'r' ? '---:' : '---')), ...t.rows]
      .map((r) => `| ${r.join(' | ')} |`)
      .join('\n'),
  code: (s) => s,
  bold: (s) => s,
  italic: (s) => s,
};

function answerBlock(a: AnswerModel, md: Medium): string[] {
  const head = `${md.bold(md.text(a.question))} ${a.metric}, ${md.text(a.comparison)}:`;
  if (!a.scenarios.length) return [head, '', 'No pair of points measured for it in this run.', ''];
  const lines = a.scenarios.map(
    (s) =>
      `- ${s.scenario ? `${md.text(s.scenario)}: ` : ''}${s.items.map((i) => `${md.text(i.variant)} ${formatRatio(i.ratio)} (${FINDINGS[i.finding]})`).join('; ')}`,
  );
  return [head, '', ...lines, ''];
}

function experimentBlock(e: ExperimentSummary, md: Medium): string {
  const out: string[] = [`## ${e.id}: ${e.title}`, '', md.italic(e.question), ''];
  if (e.at !== undefined)
    out.push(...(e.table ? [`At ${e.at}:`, '', md.table(e.table), ''] : [`No successful benchmark at ${e.at}.`, '']));
  for (const a of e.answers) out.push(...answerBlock(a, md));
  for (const s of e.slopes) out.push(`${s.title}:`, '', md.table(s.table), '');
  out.push(
    `${e.counts.total} ${e.counts.total === 1 ? 'benchmark' : 'benchmarks'}: ${e.counts.ok} ok, ${e.counts.skipped} skipped, ${e.counts.failed} failed.`,
    '',
  );
  if (e.problems.length) {
    for (const p of e.problems)
      out.push(
        `- ${md.bold(p.status)} ${md.text(p.where)}: ${md.text(p.reason)}${p.hint ? ` — ${md.code(p.hint)}` : ''}`,
      );
    out.push('');
  }
  return out.join('\n');
}

function render(s: SummaryModel, md: Medium): string {
  const head = [
    `# jsio-bench ${s.partial ? 'PARTIAL run (interrupted)' : 'run'} ${s.runId}`,
    '',
    `Profile ${md.bold(s.profile)} on machine \`${s.machine.id}\` (${s.machine.cpu}, ${s.machine.cores} cores), commit \`${s.commit.sha.slice(0, 12)}\`${s.commit.dirty ? ' (with uncommitted changes)' : ''} ${s.commit.subject ? `“${md.text(s.commit.subject)}”` : ''}.`,
    '',
  ];
  return [
    ...head,
    ...s.experiments.map((e) => experimentBlock(e, md)),
    ...(s.counting ? [md.text(s.counting), ''] : []),
    `Toolchains: ${md.text(s.toolchains)}.`,
    '',
  ].join('\n');
}

type Experiments = readonly (ExperimentView | Parameters<typeof viewOf>[0])[];
const views = (experiments: Experiments) => experiments.map((e) => ('manifest' in e ? viewOf(e) : e));

export function renderSummary(results: Results, experiments: Experiments): string {
  return render(summaryModel(results, views(experiments)), MARKDOWN);
}

export function renderSummaryText(results: Results, experiments: Experiments): string {
  return render(summaryModel(results, views(experiments)), TERMINAL);
}

/** One question's lines as in summary.md. */
export function answerLines(a: Answer, benchmarks: readonly Benchmark[]): string[] {
  return answerBlock(answerModel(a, benchmarks), MARKDOWN);
}
