/**
 * The lists the pull request's comment (./comment.ts) says at the top, never folded away: points
 * whose workload changed, points whose other timed metrics moved, and points whose counted work
 * changed.
 */
import { renderCountBreakdown } from '../../counts/count-breakdown-text.js';
import { countsTrusted, countVerdictText, decidedCountChange } from '../../counts/count-verdict-text.js';
import type { PairsComparison, PairsPoint } from '../../formats/pairs-format.js';
import { plural } from '../../lib/format.js';
import { escapeCell } from '../../lib/markdown.js';
import { alsoText, changeText, hasResult, pointLabel, workloadVerdict } from './point-tables.js';

/** The points whose other timed metrics moved, each with its lead's verdict: said at the top. */
export function alsoLines(c: PairsComparison, cap = 10): string[] {
  const ps = c.points.filter((p) => p.impact !== 'control' && p.pairs > 0 && !p.workloadChanged && alsoText(p));
  if (!ps.length) return [];
  const lead = (p: PairsPoint) =>
    `${p.lead.metric} ${p.lead.verdict}${hasResult(p) && p.lead.verdict !== 'unchanged' ? ` ${changeText(p.lead)}` : ''}`;
  const lines = ps
    .slice(0, cap)
    .map((p) => `- ${escapeCell(pointLabel(p))}: ${escapeCell(lead(p))}; ${escapeCell(alsoText(p, 5))}`);
  const more = ps.length > cap ? [`- …and ${ps.length - cap} more (the tables below)`] : [];
  return [
    `**Other timed metrics moved** on ${plural(ps.length, 'point')} (each judged at its share of the diff-wide false-call level, like the lead):\n\n${[...lines, ...more].join('\n')}`,
  ];
}

/** The points whose workload the PR changed: measured, said at the top, never folded away. */
export function workloadLines(c: PairsComparison, cap = 10): string[] {
  const ps = c.points.filter((p) => p.workloadChanged && p.impact !== 'control' && p.pairs > 0);
  if (!ps.length) return [];
  const lines = ps.slice(0, cap).map((p) => {
    const also = alsoText(p);
    return `- ${escapeCell(pointLabel(p))}: ${workloadVerdict(p)}${also ? `; ${escapeCell(also)}` : ''} — ${escapeCell(p.workloadChanged ?? '')}`;
  });
  const more = ps.length > cap ? [`- …and ${ps.length - cap} more (Changed in this PR, below)`] : [];
  return [
    `**Workload changed** on ${plural(ps.length, 'point')}: the PR changed what ${ps.length === 1 ? 'it is' : 'they are'} asked to do, so the change below is the workload's; measured in pairs like any other point, it is no regression of the program and the merge check does not count it.\n\n${[...lines, ...more].join('\n')}`,
  ];
}

/**
 * The points whose counted work changed, decided by exact counts (the tolerance, docs/counts.md),
 * then the counts that are evidence only; and a warning when the control says the counts cannot
 * be trusted.
 */
export function workLines(c: PairsComparison, cap = 10): string[] {
  const out: string[] = [];
  const trusted = countsTrusted(c);
  if (!trusted)
    out.push(
      `> ⚠️ **This diff's counts cannot be trusted**: ${escapeCell(c.counts?.untrustedBecause ?? 'a control point differed')}; no work change is called.`,
    );
  const mine = c.points.filter((p) => p.impact !== 'control' && !p.workloadChanged);
  const decided = mine.filter((p) => decidedCountChange(p, trusted));
  const line = (p: PairsPoint) => {
    const b = p.work?.status === 'counted' ? p.work.breakdown : undefined;
    const where =
      b === undefined
        ? ''
        : 'unavailable' in b
          ? ` (where they went: not known, ${escapeCell(b.unavailable)})`
          : `\n\n${renderCountBreakdown(b)
              .split('\n')
              .map((l) => (l ? `  ${l}` : l))
              .join('\n')}\n`;
    return `- ${escapeCell(pointLabel(p))}: ${escapeCell(countVerdictText(p))}${where}`;
  };
  if (decided.length) {
    const lines = decided.slice(0, cap).map(line);
    const more = decided.length > cap ? [`- …and ${decided.length - cap} more (the tables below)`] : [];
    out.push(
      `**Work changed** on ${plural(decided.length, 'point')}: user-space instructions counted under Valgrind with each runtime's deterministic settings, the same on every repeat of each side and apart by more than the ${((c.counts?.tolerance ?? 0.01) * 100).toFixed(0)} % tolerance; kernel work is not in them (the counters above stand for it), and the timing verdict goes on beside them.\n\n${[...lines, ...more].join('\n')}`,
    );
  }
  const evidence = mine.filter(
    (p) => p.work?.status === 'counted' && p.work.role === 'evidence' && p.work.verdict === 'changed',
  );
  if (evidence.length)
    out.push(
      `Counts that moved but only as evidence (threads, the kernel or a runtime without deterministic settings decide these points' cost):\n\n${evidence
        .slice(0, cap)
        .map(line)
        .join('\n')}`,
    );
  return out;
}
