/**
 * Parts of comparison.md shared by compare's quick look and the paired diff's comment: GitHub's size
 * limit, the toolchains line and the capped lists under the tables.
 */
import { escapeCell } from '../lib/markdown.js';

/** GitHub refuses comments over 65,536 characters; keep room for the sticky-comment marker. */
export const COMMENT_LIMIT = 65_000;

/** The toolchains of both sides; one that differs is shown as base → head: it may explain a change. */
export function toolchainsLine(
  base: { toolchains: Record<string, string> },
  head: { toolchains: Record<string, string> },
): string {
  const names = [...new Set([...Object.keys(base.toolchains), ...Object.keys(head.toolchains)])];
  return names
    .map((k) => {
      const [b, h] = [base.toolchains[k], head.toolchains[k]];
      return b === h ? `${k} ${h}` : `${k} ${b ?? 'absent'} → ${h ?? 'absent'}`;
    })
    .join('; ');
}

/**
 * The lists under a comparison's tables (added, removed, not measured, not comparable), each
 * capped at `cap` items; shared by the pooled and the paired renderings.
 */
export function listedSections(
  c: {
    added: readonly { benchmark: string }[];
    removed: readonly { benchmark: string }[];
    incomparable?: readonly { benchmark: string; metric: string; reason: string }[];
  },
  notMeasuredItems: string[],
  cap = Number.POSITIVE_INFINITY,
): string[] {
  const lists: [string, string[]][] = [
    ['Only in head (added)', c.added.map((a) => `\`${escapeCell(a.benchmark)}\``)],
    ['Only in base (removed)', c.removed.map((a) => `\`${escapeCell(a.benchmark)}\``)],
    ['Not measured', notMeasuredItems],
    [
      'Not comparable',
      (c.incomparable ?? []).map(
        (x) =>
          `\`${escapeCell(x.benchmark)}\`${x.metric === '*' ? '' : ` ${escapeCell(x.metric)}`}: ${escapeCell(x.reason)}`,
      ),
    ],
  ];
  return lists
    .filter(([, items]) => items.length)
    .map(([title, items]) => {
      const shown = items.slice(0, cap);
      return `**${title}** (${items.length}):\n\n${shown.map((i) => `- ${i}`).join('\n')}${shown.length < items.length ? `\n- …and ${items.length - shown.length} more` : ''}`;
    });
}
