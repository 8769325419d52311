/** A trend chart's change points and program changes, and their entries in the list below the charts. */
import type { ChangePoint } from '../../../harness/src/analysis/changepoints.js';
import type { Direction } from '../../../harness/src/model/metrics.js';
import type { WindowCommit } from '../data.js';
import { type Html, html } from '../html.js';
import { type Ctx, commitLink } from './ctx.js';

export type TrendLine = {
  id: string;
  label: string;
  direction: Direction;
  values: (number | null)[];
  programChanged: number[];
};

/**
 * A chart's change points, found by `detect` per line (marked "program changed here" where its
 * program changed), and its program changes.
 */
export function chartChanges<L extends TrendLine>(lines: readonly L[], detect: (line: L) => ChangePoint[]) {
  // A step where the program changed is found like any other, and marked.
  const changes = lines.flatMap((l, i) =>
    detect(l).map((c) => ({
      line: i,
      index: c.index,
      ratio: c.ratio,
      kind: 'perf' as const,
      program: l.programChanged.includes(c.index),
    })),
  );
  const programs = lines.flatMap((l, i) =>
    l.programChanged.map((index) => ({ line: i, index, kind: 'program' as const })),
  );
  return { changes, programs };
}

/** The list entries of one chart: program changes without a step, then steps (×after/before, worse or better). */
export function changeItems(
  ctx: Ctx,
  found: ReturnType<typeof chartChanges>,
  lines: readonly TrendLine[],
  commits: readonly WindowCommit[],
  link: string,
  pointText: string,
): { index: number; html: Html }[] {
  const at = (index: number) => {
    const commit = commits[index];
    return commit ? html`${commitLink(ctx, commit.sha)} ${commit.subject}` : '?';
  };
  const items: { index: number; html: Html }[] = [];
  const { changes, programs } = found;
  for (const r of programs.filter((p) => !changes.some((c) => c.line === p.line && c.index === p.index)))
    items.push({
      index: r.index,
      html: html`<li><a href="${link}">${pointText}</a> · ${lines[r.line]!.label}: <b>program changed</b> at ${at(r.index)}</li>`,
    });
  for (const c of changes) {
    const worse = c.ratio > 1 === (lines[c.line]!.direction === 'smaller');
    items.push({
      index: c.index,
      html: html`<li><a href="${link}">${pointText}</a> · ${lines[c.line]!.label}: <b class="${worse ? 'bad' : 'good'}">×${c.ratio.toFixed(3)}</b> (${worse ? 'worse' : 'better'}) at ${at(c.index)}${c.program ? html` <b>(program changed here)</b>` : ''}</li>`,
    });
  }
  return items;
}
