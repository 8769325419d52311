/**
 * comparison.md of a paired PR diff (schema 2): one row per benchmark point, led by its headline
 * metric, with the verdict, the ratio and its interval, how many pairs it took and why sampling
 * stopped; the point's other metrics are folded under the table. "Inconclusive" and "ran out of
 * budget" are said as such. Always under GitHub's comment limit.
 */
import { formatValue } from '../lib/format.js';
import { escapeCell, markdownTable } from '../lib/markdown.js';
import type { PairedComparison, PairedMetric, PairedPoint } from '../model/comparison.js';
import { COMMENT_LIMIT, listedSections, toolchainsLine } from './render.js';

const pct = (r: number) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;
const VERDICT = {
  slower: '🔴 slower',
  faster: '🟢 faster',
  unchanged: 'unchanged',
  inconclusive: '⚪ inconclusive',
} as const;
const STOP: Record<PairedPoint['stop'], string> = {
  decided: 'decided',
  'last-look': 'inconclusive after the last look',
  budget: 'ran out of budget',
  unmeasurable: 'not measurable',
};

function label(p: Pick<PairedPoint, 'variant' | 'params'>): string {
  const params = Object.entries(p.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return `${p.variant} ${params}`.trim();
}

function interval(m: PairedMetric): string {
  return m.ci ? `${pct(m.ci[0])} … ${pct(m.ci[1])} (${(m.confidence * 100).toFixed(1)}%)` : 'n/a';
}

function verdictText(p: PairedPoint): string {
  const v = VERDICT[p.lead.verdict];
  const why = p.lead.verdict === 'inconclusive' ? ` (${STOP[p.stop]})` : '';
  return `${v}${why}${p.changed ? ' · program changed in this PR' : ''}`;
}

function counterText(p: PairedPoint): string {
  const shown = p.counters.slice(0, 3).map((c) => {
    // A side whose own runs disagreed shows its range.
    const v = (x: number, r?: [number, number]) =>
      r ? `${formatValue(r[0], c.unit)}–${formatValue(r[1], c.unit)}` : formatValue(x, c.unit);
    return `${c.metric.replace(/^syscalls\./, '')} ${v(c.base, c.baseRange)}→${v(c.head, c.headRange)}`;
  });
  return p.counters.length > 3 ? `${shown.join(', ')}, +${p.counters.length - 3} more` : shown.join(', ');
}

const HEADERS = [
  'benchmark',
  'metric',
  'base',
  'head',
  'change',
  'interval',
  'pairs',
  'verdict',
  'counters (base→head)',
];
const ALIGN = ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'l'] as const;

function rows(ps: readonly PairedPoint[]): string[][] {
  return ps.map((p) => [
    label(p),
    p.lead.metric,
    // A point the budget never reached (a deadline cut it) has no values: none are printed.
    ...(p.pairs === 0
      ? ['—', '—', 'n/a', 'n/a']
      : [
          formatValue(p.lead.baseMedian, p.lead.unit),
          formatValue(p.lead.headMedian, p.lead.unit),
          Number.isFinite(p.lead.ratio) && p.stop !== 'unmeasurable' ? pct(p.lead.ratio) : 'n/a',
          interval(p.lead),
        ]),
    String(p.pairs),
    verdictText(p),
    counterText(p),
  ]);
}

/** The folded metrics of some points: one line per point, every metric with its change and verdict. */
function foldedList(ps: readonly PairedPoint[]): string {
  return ps
    .filter((p) => p.folded.length || p.lead.note)
    .map((p) => {
      const ms = p.folded.map(
        (m) =>
          `${escapeCell(m.metric)} ${formatValue(m.baseMedian, m.unit)}→${formatValue(m.headMedian, m.unit)} ${pct(m.ratio)} (${m.verdict})`,
      );
      const note = p.lead.note ? ` — ${escapeCell(p.lead.note)}` : '';
      return `- \`${escapeCell(label(p))}\`: ${ms.join('; ') || 'no other metric'}${note}`;
    })
    .join('\n');
}

const order = (p: PairedPoint) => ({ slower: 0, faster: 1, inconclusive: 2, unchanged: 3 })[p.lead.verdict];

function headline(c: PairedComparison): string {
  const n = { slower: 0, faster: 0, unchanged: 0, inconclusive: 0 };
  for (const p of c.points) n[p.lead.verdict]++;
  const budget = c.points.filter((p) => p.lead.verdict === 'inconclusive' && p.stop === 'budget').length;
  const changed = c.points.filter((p) => p.changed).length;
  const notComparable = new Set((c.incomparable ?? []).map((x) => x.benchmark)).size;
  const extra = [
    ...(changed ? [`${changed} ${changed === 1 ? 'benchmark' : 'benchmarks'} changed in this PR`] : []),
    ...(notComparable ? [`${notComparable} not comparable`] : []),
  ];
  const lines = [
    `## Performance: ${n.slower} slower, ${n.faster} faster, ${n.unchanged} unchanged, ${n.inconclusive} inconclusive${budget ? ` (${budget} ran out of budget)` : ''}${extra.length ? `; ${extra.join(', ')}` : ''}`,
  ];
  const worst = c.points.filter((p) => p.lead.verdict === 'slower').sort((a, b) => b.lead.ratio - a.lead.ratio)[0];
  if (worst)
    lines.push(
      '',
      `Worst regression: **${escapeCell(worst.benchmark)}** ${escapeCell(worst.lead.metric)} ${pct(worst.lead.ratio)} (${interval(worst.lead)}, ${worst.pairs} pairs).`,
    );
  else if (!c.points.length) lines.push('', 'No benchmark was measured on both sides.');
  else lines.push('', 'No regression found.');
  if (n.inconclusive)
    lines.push(
      '',
      `_Inconclusive: the pairs could neither show a change of the minimum effect nor rule one out${budget ? '; some points ran out of their share of the time budget' : ''}. That is an answer, not a pass._`,
    );
  for (const w of c.warnings ?? []) lines.push('', `> ⚠️ ${escapeCell(w)}.`);
  lines.push(
    '',
    `_Change > 0 means head is worse (slower, more memory, less throughput). Each point is judged on its headline metric; ${escapeCell(c.method)}._`,
  );
  return lines.join('\n');
}

function footer(c: PairedComparison): string {
  const tools = toolchainsLine(c.base, c.head);
  const pairs = c.points.reduce((a, p) => a + p.pairs, 0);
  return [
    `Measured on \`${escapeCell(c.head.machine)}\` (${escapeCell(c.head.cpu)}); base ${c.base.commits.map((s) => `\`${escapeCell(s)}\``).join(', ')}, head ${c.head.commits.map((s) => `\`${escapeCell(s)}\``).join(', ')}; ${timeSpent(c.budget, pairs)}, order seed ${c.seed}.`,
    `Toolchains: ${escapeCell(tools)}.`,
  ].join('\n\n');
}

function notMeasured(c: PairedComparison): string[] {
  return c.notMeasured.map(
    (x) => `\`${escapeCell(x.benchmark)}\` (${x.side}, ${x.status}): ${escapeCell(x.reason.slice(0, 500))}`,
  );
}

export function renderPairedWith(c: PairedComparison, opts: { unchangedRows: boolean; maxRows?: number }): string {
  const parts = [headline(c)];
  const cap = opts.maxRows ?? Infinity;
  const changed = c.points.filter((p) => p.changed).sort((a, b) => order(a) - order(b));
  if (changed.length) {
    parts.push('### Changed in this PR', markdownTable(HEADERS, rows(changed.slice(0, cap)), ALIGN));
    if (changed.length > cap) parts.push(`…and ${changed.length - cap} more (see comparison.json).`);
  }
  for (const exp of [...new Set(c.points.filter((p) => !p.changed).map((p) => p.experiment))].sort()) {
    const mine = c.points.filter((p) => p.experiment === exp && !p.changed);
    const news = mine
      .filter((p) => p.lead.verdict !== 'unchanged')
      .sort((a, b) => order(a) - order(b) || Math.abs(b.lead.ratio - 1) - Math.abs(a.lead.ratio - 1));
    const same = mine.filter((p) => p.lead.verdict === 'unchanged');
    parts.push(`### ${escapeCell(exp)}`);
    if (news.length) {
      parts.push(markdownTable(HEADERS, rows(news.slice(0, cap)), ALIGN));
      if (news.length > cap) parts.push(`…and ${news.length - cap} more (see comparison.json).`);
    }
    if (same.length) {
      const body = opts.unchangedRows
        ? `\n\n${markdownTable(HEADERS, rows(same), ALIGN)}\n`
        : '\n\nRows left out to fit the comment; see comparison.json.\n';
      parts.push(`<details><summary>${same.length} unchanged</summary>${body}</details>`);
    }
    const folded = opts.unchangedRows ? foldedList(mine) : '';
    if (folded) parts.push(`<details><summary>other metrics of these points</summary>\n\n${folded}\n</details>`);
  }
  parts.push(...listedSections(c, notMeasured(c), cap));
  parts.push(footer(c));
  return `${parts.join('\n\n')}\n`;
}

/** The fullest rendering that fits the limit: drop unchanged rows and folded metrics, then cap the tables. */
export function renderPairedComparison(c: PairedComparison, limit = COMMENT_LIMIT): string {
  for (const opts of [
    { unchangedRows: true },
    { unchangedRows: false },
    { unchangedRows: false, maxRows: 50 },
    { unchangedRows: false, maxRows: 10 },
    { unchangedRows: false, maxRows: 0 },
  ]) {
    const md = renderPairedWith(c, opts);
    if (md.length <= limit) return md;
  }
  return `${headline(c)}\n\nThe full comparison is too large for a comment: see comparison.json.\n`;
}

/** "N pairs in M min …": with set-up and a deadline where the artifact has them. */
function timeSpent(b: PairedComparison['budget'], pairs: number): string {
  const min = (x: number) => `${(x / 60).toFixed(1)} min`;
  if (b.setupSeconds === undefined) return `${pairs} pairs in ${min(b.spentSeconds)} (budget ${min(b.seconds)})`;
  const deadline = b.deadlineSeconds ? `, deadline ${min(b.deadlineSeconds)}` : '';
  return `${pairs} pairs; ${min(b.spentSeconds)} in all: set-up ${min(b.setupSeconds)}, pairs ${min(b.spentSeconds - b.setupSeconds)} (budget ${min(b.seconds)}${deadline})`;
}
