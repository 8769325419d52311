/**
 * comparison.md of a paired diff: the pull request's comment. It leads with what the pull request broke (points
 * that pass on base and fail on head, grouped, with the error's first line and a command to
 * reproduce), then what failed on both sides (the harness's or the machine's problem, one line per
 * reason), exact counter changes, the merge gate's result under the repository's rule, a text
 * forest plot of the points that changed, and a short summary table. The per-point
 * tables are folded below. Always under GitHub's comment limit. The lists said at the top are
 * ./moved-lists.ts; the summary table, ./summary-table.ts.
 */

import { storedBaseText } from '../../counts/count-verdict-text.js';
import type { PairsComparison, PairsPoint } from '../../formats/pairs-format.js';
import type { DiffSummary } from '../../formats/parts/diff-summary.js';
import { measuresTheSame } from '../../formats/transcript-format.js';
import { plural } from '../../lib/format.js';
import { escapeCell } from '../../lib/markdown.js';
import { counterName } from '../../model/metrics.js';
import { COMMENT_LIMIT, toolchainsLine } from '../../report/comparison-sections.js';
import { DEFAULT_GATE_RULE, describeGateRule, type GateRule, parseGateRule } from '../decide/merge-gate.js';
import { summarize } from '../decide/summarize.js';
import { renderHarnessShift } from '../harness-shift/shift-section.js';
import { forestChart } from './forest-chart.js';
import { alsoLines, workLines, workloadLines } from './moved-lists.js';
import { foldedList, hasResult, notMeasuredDetails, notMeasuredLine, pointLabel, pointTable } from './point-tables.js';
import { notMeasuredCount, summaryTable } from './summary-table.js';

export interface PairsRenderOptions {
  /** The merge gate's rule (PR_FAIL_ON) its result is stated under; default `broken`. */
  rule?: GateRule;
  limit?: number;
  /** The merge check as the reader decided it (workflow/judgement.ts), where it is more than the rule on these rows. */
  check?: { fail: boolean; because: string };
}

/**
 * The first line: what the PR affected, then one answer per affected point (analysis/point-answers.ts):
 * its numbers add up to the affected points, added and removed ones included, the control apart.
 */
function title(s: DiffSummary): string {
  const n = s.calls;
  const i = s.impact;
  const scope = i ? `${i.affected} affected · ${i.notAffected} not affected · ${i.control} control — ` : '';
  const some = (count: number | undefined, text: string) => (count ? [`${count} ${text}`] : []);
  const parts = [
    ...(s.brokenPoints ? [`❌ ${s.brokenPoints} broken`] : []),
    `${n.slower} slower`,
    `${n.faster} faster`,
    `${n.unchanged} unchanged`,
    `${n.inconclusive} inconclusive`,
    ...some(n.workloadChanged, 'workload changed'),
    ...some(n.added, 'added'),
    ...some(n.removed, 'removed'),
    ...some(notMeasuredCount(s), 'not measured'),
    ...(n.unanswered ? [`⚠️ ${n.unanswered} unanswered`] : []),
  ];
  // Beside the answers, not among them: a point whose lead held can have another metric that moved.
  const also = n.alsoMoved ? `; another timed metric moved on ${plural(n.alsoMoved, 'point')}` : '';
  // Exact counts decide at once, beside the timing's answers.
  const work = [
    ...(n.workGrew ? [`more work on ${plural(n.workGrew, 'point')}`] : []),
    ...(n.workShrank ? [`less work on ${plural(n.workShrank, 'point')}`] : []),
  ];
  return `## Performance: ${scope}${parts.join(' · ')}${also}${work.length ? `; ${work.join(', ')} (counted exactly)` : ''}`;
}

/** What is said where an all-clear would be: never while an affected point lacks an answer. */
function allClear(s: DiffSummary): string | undefined {
  const n = s.calls;
  // Regressions and broken points are listed above: nothing to clear.
  if (s.brokenPoints || n.slower) return undefined;
  if (n.unanswered)
    return `> ⚠️ **${plural(n.unanswered, 'affected point')} got no answer**: neither measured nor listed with a reason (a bug in the harness), so no regression can be ruled out.`;
  if (n.alsoMoved)
    return `No regression of a lead metric found, but another timed metric moved on ${plural(n.alsoMoved, 'point')} (above).`;
  if (n.workGrew)
    return `No timing regression found, but the counted work grew on ${plural(n.workGrew, 'point')} (above).`;
  // A control judged changed says this run's verdicts (and so its silences) cannot be trusted.
  if (s.impact?.controlCalled)
    return `No regression found among the affected points, but the control was called (above): re-run the diff before trusting that.`;
  const unmeasured = notMeasuredCount(s);
  const measured = n.faster + n.unchanged + n.inconclusive + (n.workloadChanged ?? 0);
  if (unmeasured && !measured)
    return `Nothing this PR affects was measured (${plural(unmeasured, 'point')}, why: below): no regression can be ruled out.`;
  if (unmeasured)
    return `No regression found among the ${plural(measured, 'point')} measured; ${plural(unmeasured, 'affected point')} ${unmeasured === 1 ? 'was' : 'were'} not measured (why: below).`;
  return 'No regression found.';
}

const level = (a: number) => `${(a * 100).toPrecision(2)}%`;

/**
 * The impact lines: what was not measured and why, and the control's verdict on this run.
 * `controlPaired` is how many control points got pairs: one that got none vouches for nothing.
 */
function impactLines(s: DiffSummary, controlPaired: number, harnessMoved: boolean): string[] {
  const i = s.impact;
  if (!i) return [];
  const out: string[] = [];
  if (i.untimed)
    out.push(
      '**Control: not needed.** Nothing in this diff is timed (no point is affected, and the harness is unchanged or measures the same, decided exactly), so no answer here rests on how the machine behaved, and no unaffected points were measured to check it.',
    );
  if (i.control) {
    const at =
      i.controlLevel !== undefined ? `, each at the affected points' false-call level of ${level(i.controlLevel)}` : '';
    const unpaired = i.control - controlPaired;
    const short = unpaired ? ` (${unpaired} of them got no pairs before the deadline)` : '';
    out.push(
      i.controlCalled
        ? `> ⚠️ **Control: ${i.controlCalled} of ${i.control} called.** Unaffected points, measured exactly like the affected ones${at}, were called changed: the machine misbehaved during this diff, so this run's calls cannot be trusted. Re-run the diff.`
        : !controlPaired
          ? `> ⚠️ **Control: not measured.** The deadline left no time for the ${plural(i.control, 'unaffected point')} of the control, so this run cannot say whether the machine behaved.`
          : `**Control: 0 of ${i.control} called**${short} (unaffected points measured exactly like the affected ones${at}): the machine behaved.`,
    );
  }
  if (i.notAffected)
    out.push(
      `${plural(i.notAffected, 'point')} not affected by this PR, so not measured: everything their processes could read is byte-identical on both sides (their experiment's files but other programs' own, what they import, include and name, the input generator, the runtime's own configuration, their manifest entry and runtime pin).`,
    );
  // A changed harness measures every program differently: "nothing changed" would contradict its section.
  if (!i.affected)
    out.push(
      harnessMoved
        ? "This PR changes no benchmark's program or inputs, but it changes the harness that measures them (above)."
        : 'This PR changes nothing any benchmark runs or reads.',
    );
  return out;
}

/** Why the affected points are affected, one line per reason with its points' programs. */
function affectedReasons(c: PairsComparison, cap: number): string {
  const groups = new Map<string, Set<string>>();
  const counts = new Map<string, number>();
  for (const a of c.affectedBecause ?? []) {
    const [experiment, variant] = a.benchmark.split('/');
    groups.set(a.reason, (groups.get(a.reason) ?? new Set()).add(`${experiment}/${variant}`));
    counts.set(a.reason, (counts.get(a.reason) ?? 0) + 1);
  }
  return [...groups]
    .slice(0, cap)
    .map(([reason, programs]) => {
      const names = [...programs].sort();
      const shown = names.slice(0, 6).join(', ') + (names.length > 6 ? `, … (${names.length} programs)` : '');
      return `- ${escapeCell(reason)} — ${plural(counts.get(reason)!, 'point')}: ${escapeCell(shown)}`;
    })
    .join('\n');
}

/** What leads: broken points, problems on both sides, counters, the merge check. */
function top(c: PairsComparison, s: DiffSummary): string[] {
  const out: string[] = [];
  // A harness change moves every number: it is said before anything measured with it.
  if (c.harnessShift) out.push(renderHarnessShift(c.harnessShift));
  if (s.broken.length) {
    const lines = s.broken.map(
      (g) =>
        `- **${escapeCell(`${g.experiment} ${g.variant}`)}**${g.runtime ? ` under ${escapeCell(g.runtime)}` : ''} (${plural(g.points, 'point')}): ${escapeCell(g.error)} — reproduce: \`${g.reproduce.replace(/`/g, '')}\``,
    );
    out.push(
      `### ❌ ${plural(s.brokenPoints, 'point')} broken by this PR\n\nThey pass on base and fail (or answer wrongly) on head:\n\n${lines.join('\n')}`,
    );
  }
  const both = s.notMeasured.filter((g) => g.sides === 'both');
  if (both.length) {
    const failed = both.filter((g) => g.status === 'failed').reduce((a, g) => a + g.points, 0);
    const lead = failed
      ? `> ⚠️ **${plural(failed, 'point')} failed on both sides**: a harness or machine problem, not this PR; this diff says nothing about them.`
      : '> Not measured on either side:';
    out.push([lead, ...both.map((g) => `> - ${notMeasuredLine(g)}`)].join('\n'));
  }
  const oneSide = s.notMeasured.filter((g) => g.sides !== 'both');
  if (oneSide.length) out.push(oneSide.map((g) => `- ${notMeasuredLine(g)}`).join('\n'));
  out.push(...workloadLines(c), ...alsoLines(c), ...workLines(c));
  if (s.counters.length) {
    const lines = s.counters.map((f) => {
      const d = f.head - f.base;
      return `- ${escapeCell(`${f.experiment} ${f.variant}`)}: **${escapeCell(counterName(f.metric))}** ${f.base.toLocaleString('en-US')} → ${f.head.toLocaleString('en-US')} ${escapeCell(f.unit)} per run (${d >= 0 ? '+' : '−'}${Math.abs(d).toLocaleString('en-US')}) on ${f.points} of ${f.of} points`;
    });
    out.push(`**Counters that changed exactly** (the same on every traced run of each side):\n\n${lines.join('\n')}`);
  }
  const controlPaired = c.points.filter((p) => p.impact === 'control' && p.pairs > 0).length;
  const h = c.harnessShift;
  // A harness whose transcripts show it measures the same moves nothing, as one compiling to the same code does.
  const harnessMoved = !!h && !h.sameCode && !(h.transcript && measuresTheSame(h.transcript) && h.rounds === 0);
  out.push(...impactLines(s, controlPaired, harnessMoved));
  const clear = allClear(s);
  if (clear) out.push(clear);
  const o = s.outcome;
  out.push(
    `**Merge check: ${o.fail ? 'fails' : 'passes'}** — ${escapeCell(o.because)}. Rule \`${o.rule.replace(/[^\w,>%.]/g, '')}\` (repository variable \`PR_FAIL_ON\`, default \`${DEFAULT_GATE_RULE}\`): ${describeGateRule(parseGateRule(o.rule))}.`,
  );
  for (const w of c.warnings ?? []) out.push(`> ⚠️ ${escapeCell(w)}.`);
  return out;
}

/** The points worth a look: verdicts of a change, and points whose program changed, largest change first. */
function notable(c: PairsComparison): PairsPoint[] {
  return c.points
    .filter((p) => hasResult(p) && (p.changed || p.lead.verdict === 'slower' || p.lead.verdict === 'faster'))
    .sort((a, b) => Math.abs(b.lead.ratio - 1) - Math.abs(a.lead.ratio - 1));
}

function chart(c: PairsComparison): string[] {
  const rows = notable(c).map((p) => ({
    // In front: a label is cut to the chart's width.
    label: `${p.workloadChanged ? 'workload: ' : ''}${pointLabel(p)}`,
    ratio: p.lead.ratio,
    ci: p.lead.ci!,
  }));
  const lines = forestChart(rows);
  if (!lines.length) return [];
  const more = rows.length > 12 ? ` (the ${12} largest of ${rows.length})` : '';
  return [
    `Change of head against base per point (● paired ratio, ─ interval of the verdict)${more}:\n\n\`\`\`text\n${lines.join('\n')}\n\`\`\``,
  ];
}

const HOW_TO_READ =
  '_How to read: "change" is the paired ratio head/base (the centre of the per-pair ratios; a fit: of the per-operation costs), > 0 = head worse; it can differ from the quotient of the two medians when the machine drifts during the diff. The interval is the one the verdict was decided on (the change test for slower/faster, the equivalence test for unchanged). A point with no interval shows no change._';

function renderPairsWith(
  c: PairsComparison,
  opts: { unchangedRows: boolean; maxRows?: number; rule?: GateRule },
  s: DiffSummary = summarize(c, opts.rule ?? parseGateRule(DEFAULT_GATE_RULE)),
): string {
  const parts = [title(s), ...top(c, s), ...chart(c), summaryTable(c, s), HOW_TO_READ];
  const cap = opts.maxRows ?? Number.POSITIVE_INFINITY;
  const fold = (summary: string, body: string) => `<details><summary>${summary}</summary>\n\n${body}\n</details>`;
  const table = (ps: PairsPoint[]) =>
    `${pointTable(ps.slice(0, cap))}${ps.length > cap ? `\n\n…and ${ps.length - cap} more (see comparison.json).` : ''}`;
  const order = (p: PairsPoint) => ({ slower: 0, faster: 1, inconclusive: 2, unchanged: 3 })[p.lead.verdict];
  const byInterest = (a: PairsPoint, b: PairsPoint) =>
    order(a) - order(b) || Math.abs(b.lead.ratio - 1) - Math.abs(a.lead.ratio - 1);
  const changed = c.points.filter((p) => p.changed && p.pairs > 0).sort(byInterest);
  if (changed.length) parts.push(fold(`Changed in this PR: ${plural(changed.length, 'point')}`, table(changed)));
  if (c.affectedBecause?.length)
    parts.push(
      fold(`Why ${plural(c.affectedBecause.length, 'point')} are affected`, affectedReasons(c, Math.min(cap, 50))),
    );
  const control = c.points.filter((p) => p.impact === 'control' && p.pairs > 0).sort(byInterest);
  if (control.length)
    parts.push(
      fold(`Control (unaffected, measured as an A/A check): ${plural(control.length, 'point')}`, table(control)),
    );
  const rest = (p: PairsPoint) => !p.changed && p.impact !== 'control';
  for (const exp of [...new Set(c.points.filter(rest).map((p) => p.experiment))].sort()) {
    const mine = c.points.filter((p) => p.experiment === exp && rest(p) && p.pairs > 0);
    const shown = mine.filter((p) => opts.unchangedRows || p.lead.verdict !== 'unchanged').sort(byInterest);
    if (!shown.length) continue;
    const folded = opts.unchangedRows ? foldedList(mine) : '';
    const left = mine.length - shown.length;
    parts.push(
      fold(
        `${escapeCell(exp)}: ${plural(mine.length, 'point')}`,
        `${table(shown)}${left ? `\n\n${left} unchanged rows left out to fit the comment; see comparison.json.` : ''}${folded ? `\n\nOther metrics of these points:\n\n${folded}` : ''}`,
      ),
    );
  }
  if (c.notMeasured.length)
    parts.push(fold(`Not measured: ${c.notMeasured.length} entries`, notMeasuredDetails(c, Math.min(cap, 200))));
  const lists: [string, string[]][] = [
    ['Only in head (added)', c.added.map((a) => escapeCell(a.benchmark))],
    ['Only in base (removed)', c.removed.map((a) => escapeCell(a.benchmark))],
    ['Not comparable', (c.incomparable ?? []).map((x) => `${escapeCell(x.benchmark)}: ${escapeCell(x.reason)}`)],
  ];
  for (const [name, items] of lists)
    if (items.length)
      parts.push(
        fold(
          `${name}: ${items.length}`,
          items
            .slice(0, Math.min(cap, 200))
            .map((i) => `- ${i}`)
            .join('\n'),
        ),
      );
  parts.push(footer(c));
  return `${parts.join('\n\n')}\n`;
}

function footer(c: PairsComparison): string {
  const pairs = c.points.reduce((a, p) => a + p.pairs, 0);
  const commits = (s: PairsComparison['base']) => s.commits.map((x) => escapeCell(x)).join(', ');
  return [
    `_Method: ${escapeCell(c.method)}._`,
    `Measured on ${escapeCell(c.head.machine)} (${escapeCell(c.head.cpu)}); base ${commits(c.base)}, head ${commits(c.head)}; ${timeSpent(c.budget, pairs)}, order seed ${c.seed}.`,
    `Toolchains: ${escapeCell(toolchainsLine(c.base, c.head))}.`,
    ...(storedBaseText(c) ? [escapeCell(storedBaseText(c))] : []),
  ].join('\n\n');
}

/** The fullest rendering that fits the limit: drop unchanged rows and folded metrics, then cap the tables. */
export function renderPairsComparison(c: PairsComparison, opts: PairsRenderOptions = {}): string {
  const limit = opts.limit ?? COMMENT_LIMIT;
  const summary = summarize(c, opts.rule ?? parseGateRule(DEFAULT_GATE_RULE));
  const s = opts.check ? { ...summary, outcome: { ...summary.outcome, ...opts.check } } : summary;
  for (const o of [
    { unchangedRows: true },
    { unchangedRows: false },
    { unchangedRows: false, maxRows: 50 },
    { unchangedRows: false, maxRows: 10 },
    { unchangedRows: false, maxRows: 0 },
  ]) {
    const md = renderPairsWith(c, o, s);
    if (md.length <= limit) return md;
  }
  return `${[title(s), ...top(c, s)].join('\n\n').slice(0, limit - 200)}\n\nThe full comparison is too large for a comment: see comparison.json.\n`;
}

/** "N pairs in M min …": with set-up and a deadline where the artifact has them. */
function timeSpent(b: PairsComparison['budget'], pairs: number): string {
  const min = (x: number) => `${(x / 60).toFixed(1)} min`;
  if (b.setupSeconds === undefined) return `${pairs} pairs in ${min(b.spentSeconds)} (budget ${min(b.seconds)})`;
  const deadline = b.deadlineSeconds ? `, deadline ${min(b.deadlineSeconds)}` : '';
  return `${pairs} pairs; ${min(b.spentSeconds)} in all: set-up ${min(b.setupSeconds)}, pairs ${min(b.spentSeconds - b.setupSeconds)} (budget ${min(b.seconds)}${deadline})`;
}
