/**
 * comparison.md of compare's quick look between stored runs. A headline, then per experiment the
 * significant changes first and the unchanged rows folded away, then what could not be
 * compared, then where it was measured. Always under GitHub's comment limit.
 */

import type { ComparedMetric, Comparison } from '../formats/quick-look-format.js';
import { formatValue } from '../lib/format.js';
import { escapeCell, markdownTable } from '../lib/markdown.js';
import { counterName } from '../model/metrics.js';
import { type TwoSampleVerdict, VERDICT_TEXT } from '../model/verdicts.js';
import { COMMENT_LIMIT, listedSections, toolchainsLine } from '../report/comparison-sections.js';

export { COMMENT_LIMIT };

const pct = (r: number) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;
const VERDICT: Record<TwoSampleVerdict, string> = {
  ...VERDICT_TEXT,
  slower: '🔴 slower',
  faster: '🟢 faster',
  unchanged: 'unchanged (inside the margin)',
};
/** Called changes first, then what could not be decided; "unchanged" rows are folded. */
const judgedChanged = (m: ComparedMetric) => m.verdict === 'slower' || m.verdict === 'faster';

function label(m: Pick<ComparedMetric, 'variant' | 'params'>): string {
  const params = Object.entries(m.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return `${m.variant} ${params}`.trim();
}

/** Counter changes of at least this share are shown in the table (all are in comparison.json). */
const SHOWN_COUNTER_CHANGE = 0.01;

/** A counter's value, or its range over the rounds when they disagreed. */
function counterValue(v: number, range: [number, number] | undefined, unit: string): string {
  return range ? `${formatValue(range[0], unit)}–${formatValue(range[1], unit)}` : formatValue(v, unit);
}

function counterText(c: Comparison, benchmark: string): string {
  const rel = (x: { base: number; head: number }) => Math.abs(x.head - x.base) / Math.max(1, Math.abs(x.base));
  const shown = c.counters
    .filter((x) => x.benchmark === benchmark && rel(x) >= SHOWN_COUNTER_CHANGE)
    .sort((a, b) => rel(b) - rel(a));
  const text = shown
    .slice(0, 3)
    .map(
      (x) =>
        `${counterName(x.metric)} ${counterValue(x.base, x.baseRange, x.unit)}→${counterValue(x.head, x.headRange, x.unit)}`,
    )
    .join(', ');
  return shown.length > 3 ? `${text}, +${shown.length - 3} more` : text;
}

function rows(c: Comparison, ms: readonly ComparedMetric[]): string[][] {
  return ms.map((m) => [
    label(m),
    m.metric,
    formatValue(m.base.median, m.unit),
    formatValue(m.head.median, m.unit),
    pct(m.ratio),
    `${pct(m.ci[0])} … ${pct(m.ci[1])}`,
    m.p < 0.001 ? '<0.001' : m.p.toFixed(3),
    `${VERDICT[m.verdict]}${m.changed ? ' (program changed in this PR)' : ''}`,
    counterText(c, m.benchmark),
  ]);
}

const HEADERS = ['benchmark', 'metric', 'base', 'head', 'change', '95% CI', 'p', 'verdict', 'counters (base→head)'];
const ALIGN = ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'l'] as const;

function headline(c: Comparison): string {
  const n: Record<TwoSampleVerdict, number> = { slower: 0, faster: 0, unchanged: 0, inconclusive: 0, untestable: 0 };
  for (const m of c.metrics) n[m.verdict]++;
  const undecided = n.inconclusive + n.untestable;
  const worst = c.metrics.filter((m) => m.verdict === 'slower').sort((a, b) => b.ratio - a.ratio)[0];
  // Every kind is counted: a changed program or an incomparable point is news, not a footnote.
  const changed = new Set(c.metrics.filter((m) => m.changed).map((m) => m.benchmark)).size;
  const notComparable = new Set(
    (c.incomparable ?? []).filter((x) => !x.reason.startsWith('too fast')).map((x) => x.benchmark),
  ).size;
  const extra = [
    ...(changed ? [`${changed} ${changed === 1 ? 'benchmark' : 'benchmarks'} changed in this PR`] : []),
    ...(notComparable ? [`${notComparable} not comparable`] : []),
  ];
  const lines = [
    `## Performance: ${n.slower} slower, ${n.faster} faster, ${n.unchanged} unchanged${n.inconclusive ? `, ${n.inconclusive} inconclusive` : ''}${n.untestable ? `, ${n.untestable} ${VERDICT_TEXT.untestable}` : ''}${extra.length ? `; ${extra.join(', ')}` : ''}`,
  ];
  if (worst)
    lines.push(
      '',
      `Worst regression: **${escapeCell(worst.benchmark)}** ${escapeCell(worst.metric)} ${pct(worst.ratio)} (95% CI ${pct(worst.ci[0])} … ${pct(worst.ci[1])}).`,
    );
  else if (!c.metrics.length) lines.push('', 'No benchmark was measured on both sides.');
  else if (undecided)
    lines.push(
      '',
      `No regression shown, but ${undecided} of ${c.metrics.length} could not be decided either way: their 95% intervals say how large a change is still possible.`,
    );
  else lines.push('', 'No significant regression.');
  for (const w of c.warnings ?? []) lines.push('', `> ⚠️ ${escapeCell(w)}.`);
  if (c.base.machine !== c.head.machine) {
    lines.push(
      '',
      `> ⚠️ base ran on \`${escapeCell(c.base.machine)}\` and head on \`${escapeCell(c.head.machine)}\`: timings from different machines are not comparable.`,
    );
  }
  lines.push('', `_Change > 0 means head is worse (slower, more memory, less throughput). ${escapeCell(c.method)}._`);
  return lines.join('\n');
}

function footer(c: Comparison): string {
  const tools = toolchainsLine(c.base, c.head);
  return [
    `Measured on \`${escapeCell(c.head.machine)}\` (${escapeCell(c.head.cpu)}); base ${c.base.commits.map((s) => `\`${escapeCell(s)}\``).join(', ')} (${c.base.runs} ${c.base.runs === 1 ? 'round' : 'rounds'}), head ${c.head.commits.map((s) => `\`${escapeCell(s)}\``).join(', ')} (${c.head.runs} ${c.head.runs === 1 ? 'round' : 'rounds'}).`,
    `Toolchains: ${escapeCell(tools)}.`,
  ].join('\n\n');
}

/** One line per benchmark and reason, saying which sides it concerns. */
function notMeasured(c: Comparison): string[] {
  const byKey = new Map<string, { x: Comparison['notMeasured'][number]; sides: Set<string> }>();
  for (const x of c.notMeasured) {
    const key = `${x.benchmark}|${x.status}|${x.reason}`;
    const g = byKey.get(key) ?? { x, sides: new Set<string>() };
    g.sides.add(x.side);
    byKey.set(key, g);
  }
  return [...byKey.values()].map(
    ({ x, sides }) =>
      `\`${escapeCell(x.benchmark)}\` (${sides.size === 2 ? 'both' : [...sides][0]}, ${x.status}): ${escapeCell(x.reason)}`,
  );
}

interface RenderOptions {
  /** Include unchanged rows (folded); dropped first when the comment would be too long. */
  unchangedRows?: boolean;
  /** Cap on significant rows per experiment. */
  maxRows?: number;
}

function renderComparisonWith(c: Comparison, opts: RenderOptions): string {
  const parts = [headline(c)];
  // Points whose program the PR changed lead: they are what comparing two commits exists to measure.
  const changed = c.metrics.filter((m) => m.changed).sort((a, b) => Math.abs(b.ratio - 1) - Math.abs(a.ratio - 1));
  if (changed.length) {
    parts.push(
      '### Changed in this PR',
      markdownTable(HEADERS, rows(c, changed.slice(0, opts.maxRows ?? Infinity)), ALIGN),
    );
    if (opts.maxRows !== undefined && changed.length > opts.maxRows)
      parts.push(`…and ${changed.length - opts.maxRows} more (see comparison.json).`);
  }
  const experiments = [...new Set(c.metrics.filter((m) => !m.changed).map((m) => m.experiment))].sort();
  for (const exp of experiments) {
    const mine = c.metrics.filter((m) => m.experiment === exp && !m.changed);
    const sig = mine
      .filter((m) => m.verdict !== 'unchanged')
      .sort(
        (a, b) => Number(judgedChanged(b)) - Number(judgedChanged(a)) || Math.abs(b.ratio - 1) - Math.abs(a.ratio - 1),
      );
    const same = mine.filter((m) => m.verdict === 'unchanged');
    parts.push(`### ${escapeCell(exp)}`);
    const cap = opts.maxRows ?? Infinity;
    if (sig.length) {
      parts.push(markdownTable(HEADERS, rows(c, sig.slice(0, cap)), ALIGN));
      if (sig.length > cap) parts.push(`…and ${sig.length - cap} more rows (see comparison.json).`);
    }
    if (same.length) {
      const body =
        opts.unchangedRows !== false
          ? `\n\n${markdownTable(HEADERS, rows(c, same), ALIGN)}\n`
          : '\n\nRows left out to fit the comment; see comparison.json.\n';
      parts.push(`<details><summary>${same.length} unchanged</summary>${body}</details>`);
    }
  }
  parts.push(...listedSections(c, notMeasured(c), opts.maxRows));
  parts.push(footer(c));
  return `${parts.join('\n\n')}\n`;
}

/** The fullest rendering that fits the limit: drop unchanged rows, then cap the tables. */
export function renderComparison(c: Comparison, limit = COMMENT_LIMIT): string {
  const attempts: RenderOptions[] = [
    { unchangedRows: true },
    { unchangedRows: false },
    { unchangedRows: false, maxRows: 50 },
    { unchangedRows: false, maxRows: 10 },
    { unchangedRows: false, maxRows: 0 },
  ];
  for (const opts of attempts) {
    const md = renderComparisonWith(c, opts);
    if (md.length <= limit) return md;
  }
  return `${headline(c)}\n\nThe full comparison is too large for a comment: see comparison.json.\n`;
}
