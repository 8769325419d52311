/**
 * `pairs --plan` for a reader: the affected points grouped by program and reason (a sweep of nine
 * block sizes changed by one file is one line), the control, how many are not affected, and the
 * harness's verdict. Pure.
 */

import type { DiffPlan } from '../../formats/diff-plan-format.js';
import { refusedWritesReason } from '../../formats/trace-store-format.js';
import { parseBenchmarkId } from '../../model/benchmark-id.js';
import { reasonLine } from '../decide/impact.js';

export function renderPlan(plan: DiffPlan): string {
  const lines = [
    `PR diff plan (nothing measured): base ${plan.base.commit.slice(0, 12)} (${plan.base.root}), head ${plan.head.commit.slice(0, 12)} (${plan.head.root}), profile ${plan.profile}`,
    '',
  ];
  const groups = new Map<string, { program: string; why: string; points: string[] }>();
  for (const a of plan.affected) {
    const { experiment, variant } = parseBenchmarkId(a.benchmark);
    const why = reasonLine(a.reasons);
    const key = `${experiment}/${variant}\0${why}`;
    const g = groups.get(key) ?? { program: `${experiment}/${variant}`, why, points: [] };
    g.points.push(a.benchmark);
    groups.set(key, g);
  }
  for (const u of plan.unreadable ?? [])
    lines.push(
      `unreadable: the ${u.side}'s programs/${u.experiment}: ${u.reason} (all its points affected, each must be decided)`,
    );
  lines.push(`affected: ${plan.affected.length} point(s)`);
  for (const g of [...groups.values()].sort((a, b) => a.program.localeCompare(b.program)))
    lines.push(`  ${g.program} (${g.points.length} point${g.points.length === 1 ? '' : 's'}): ${g.why}`);
  lines.push(...tracedLines(plan.traced));
  lines.push(`control: ${plan.control.length} unaffected point(s) measured as the A/A control`);
  for (const c of plan.control) lines.push(`  ${c}`);
  lines.push(`not affected: ${plan.notAffected.length} point(s) (${plan.notAffected[0]?.reason ?? 'none'})`);
  const h = plan.harnessChange;
  lines.push(`harness: ${h.changed ? 'changed' : 'no change'} (${h.why})`);
  for (const f of h.files.slice(0, 50)) lines.push(`  ${f}`);
  if (h.files.length > 50) lines.push(`  and ${h.files.length - 50} more`);
  return `${lines.join('\n')}\n`;
}

/** What the trace of the base found: the paths no static identity names, the points it could not see through. */
function tracedLines(t: DiffPlan['traced']): string[] {
  if (!t) return ['traced: no (the static identities only)'];
  const stored = t.fromStore ? `; ${t.fromStore} point(s) from the store's traces of the base commit` : '';
  const lines = [`traced: ${t.points} base point(s) in ${t.seconds} s${stored}`];
  const seen = t.seenOnlyByTracing;
  if (seen.length) lines.push(`  seen only by tracing (${seen.length} path${seen.length === 1 ? '' : 's'}):`);
  for (const s of seen.slice(0, 50)) lines.push(`    ${s.path} (${s.points} point${s.points === 1 ? '' : 's'})`);
  if (seen.length > 50) lines.push(`    and ${seen.length - 50} more`);
  for (const n of t.notFullyTraced.slice(0, 20)) lines.push(`  not fully traced: ${n.benchmark}: ${n.reason}`);
  if (t.notFullyTraced.length > 20) lines.push(`  and ${t.notFullyTraced.length - 20} more not fully traced`);
  for (const w of (t.refusedWrites ?? []).slice(0, 20)) lines.push(`  ${w.benchmark}: ${refusedWritesReason(w.paths)}`);
  return lines;
}
