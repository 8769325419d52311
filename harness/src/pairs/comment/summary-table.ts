/**
 * The short summary table of the pull request's comment (./comment.ts): points per answer, each
 * row with its worst, best or reasons.
 */
import type { PairsComparison, PairsPoint } from '../../formats/pairs-format.js';
import type { DiffSummary } from '../../formats/parts/diff-summary.js';
import { escapeCell } from '../../lib/markdown.js';
import { notMeasuredWhy } from '../decide/point-answers.js';
import { hasResult, interval, pct, pointLabel } from './point-tables.js';

/** Affected points not measured: every reason counted (a summary from before the count: its groups). */
export const notMeasuredCount = (s: DiffSummary) =>
  s.calls.notMeasured ?? s.notMeasured.reduce((a, g) => a + g.points, 0) + s.calls.unmeasured;

/** "±2.0%" or "±2.0–3.4%": the margins the unchanged points were decided within (calibrated, else 2 %). */
function margins(ps: readonly PairsPoint[]): string {
  const m = ps.map((p) => p.minEffect * 100);
  if (!m.length) return '';
  const [lo, hi] = [Math.min(...m), Math.max(...m)];
  return lo === hi ? `±${lo.toFixed(1)}%` : `±${lo.toFixed(1)}–${hi.toFixed(1)}%`;
}

/** Why the inconclusive points are, counted: "3 ran out of budget, 1 noisier than 60 pairs can decide". */
function inconclusiveReasons(ps: readonly PairsPoint[], busy: boolean): string {
  const n = (stop: PairsPoint['stop']) => ps.filter((p) => p.stop === stop).length;
  const reasons = [
    n('budget') ? `${n('budget')} ran out of budget` : '',
    n('last-look') ? `${n('last-look')} noisier than the plan's last look can decide` : '',
    n('unmeasurable') ? `${n('unmeasurable')} not measurable` : '',
  ].filter(Boolean);
  return reasons.length ? `${reasons.join(', ')}${busy ? ' (the machine was busy: see above)' : ''}` : '';
}

export function summaryTable(c: PairsComparison, s: DiffSummary): string {
  const n = s.calls;
  // The PR's own measured answers: the control is the machine's check, a changed workload its own row.
  const measured = c.points.filter((p) => p.pairs > 0 && p.impact !== 'control' && !p.workloadChanged);
  const worst = measured.filter((p) => p.lead.verdict === 'slower').sort((a, b) => b.lead.ratio - a.lead.ratio)[0];
  const best = measured.filter((p) => p.lead.verdict === 'faster').sort((a, b) => a.lead.ratio - b.lead.ratio)[0];
  const named = (p?: PairsPoint) =>
    p ? `${escapeCell(pointLabel(p))}: ${pct(p.lead.ratio)} (${interval(p.lead)}, ${p.pairs} pairs)` : '';
  const undecided = measured.filter((p) => p.changed && (p.lead.verdict === 'inconclusive' || !hasResult(p)));
  const inconclusive = measured.filter((p) => p.lead.verdict === 'inconclusive');
  const busy = (c.warnings ?? []).some((w) => /busy|other processes used/.test(w));
  const unchanged = measured.filter((p) => p.lead.verdict === 'unchanged');
  const why = notMeasuredWhy(c);
  const optional = (count: number | undefined, row: string, note = ''): [string, number, string][] =>
    count ? [[row, count, note]] : [];
  const rows: [string, number, string][] = [
    ['❌ broken by this PR', s.brokenPoints, s.brokenPoints ? 'listed above' : ''],
    ['🔴 slower', n.slower, worst ? `worst: ${named(worst)}` : ''],
    ['🟢 faster', n.faster, best ? `best: ${named(best)}` : ''],
    // With an impact plan every measured affected point is changed: the inconclusive row says it all.
    ...(s.impact
      ? []
      : [
          [
            'changed in this PR, undecided',
            undecided.length,
            undecided.length ? 'inconclusive: more pairs needed' : '',
          ] as [string, number, string],
        ]),
    [`unchanged${unchanged.length ? ` (within ${margins(unchanged)})` : ''}`, n.unchanged, ''],
    ['inconclusive', n.inconclusive, inconclusiveReasons(inconclusive, busy)],
    ...optional(n.workloadChanged, 'workload changed', 'measured, listed above; not counted by the merge check'),
    ...optional(n.added, 'added (head only)', 'nothing to pair them with'),
    ...optional(n.removed, 'removed (base only)', 'nothing to pair them with'),
    [
      'not measured',
      notMeasuredCount(s),
      [
        why.noPairs ? `${why.noPairs} got no pairs (budget)` : '',
        why.bothSides ? `${why.bothSides} on both sides` : '',
        why.oneSide ? `${why.oneSide} on one side` : '',
        why.workload ? `${why.workload} workload changed (an older diff did not measure those)` : '',
      ]
        .filter(Boolean)
        .join(', '),
    ],
    ...optional(n.unanswered, '⚠️ unanswered', 'a bug in the harness: neither measured nor listed'),
    [
      'programs changed in this PR',
      s.changedPrograms.length,
      escapeCell(s.changedPrograms.slice(0, 8).join(', ') + (s.changedPrograms.length > 8 ? ', …' : '')),
    ],
  ];
  const body = rows.map(([k, v, note]) => `| ${k} | ${v} | ${note} |`);
  return ['| | points | |', '| --- | ---: | --- |', ...body].join('\n');
}
