/**
 * Trend marks (harness/src/formats/marks-format.ts): commits whose numbers moved for a known reason
 * that is not the programs' performance — the sandbox or a toolchain, a harness that runs or
 * computes differently, stored counts a re-count dropped. Drawn on every chart at their commit and
 * listed below the charts with the reason; every string from the store goes through `html`.
 */
import type { MarksFile, WindowCommit } from '../data.js';
import { type Html, html } from '../html.js';
import { type Ctx, commitLink } from './ctx.js';

/** What a kind of mark says in the list. */
const KIND_TEXT: Record<string, string> = {
  sandbox: 'sandbox or toolchain',
  harness: 'harness changed',
  counts: 'stored counts dropped',
};

export interface PlacedMark {
  /** The commit's position in the chart's commits. */
  index: number;
  sha: string;
  kind: string;
  profile: string;
  reason: string;
  source: string;
}

/** The marks of the commits shown, at their positions, oldest first. */
export function marksAt(file: MarksFile, commits: readonly WindowCommit[]): PlacedMark[] {
  return commits.flatMap((c, index) =>
    (Object.hasOwn(file.commits, c.sha) ? file.commits[c.sha]!.marks : []).map((m) => ({
      index,
      sha: c.sha,
      kind: m.kind,
      profile: m.profile,
      reason: m.reason,
      source: m.source,
    })),
  );
}

/** The list below the charts: newest first, each with its commit, its reason and where it comes from. */
export function markList(ctx: Ctx, marks: readonly PlacedMark[], commits: readonly WindowCommit[]): Html {
  if (!marks.length) return html`<li class="muted">No commit shown is marked.</li>`;
  return html`${[...marks].reverse().map((m) => {
    const subject = commits[m.index]?.subject ?? '';
    const other = m.profile !== ctx.profile.profile ? html` (seen in its ${m.profile} run)` : '';
    return html`<li class="mark" data-kind="${m.kind}"><b>${KIND_TEXT[m.kind] ?? m.kind}</b> at ${commitLink(ctx, m.sha)} ${subject}${other}: <span class="mark-reason">${m.reason}</span> <span class="muted">(from ${m.source})</span></li>`;
  })}`;
}
