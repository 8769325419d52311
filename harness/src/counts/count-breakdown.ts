/**
 * Where the instructions went between a paired diff's two sides: each side's processes summed, the
 * self instructions of every object and every function compared (head minus base), the largest
 * changes listed and the rest folded into "everything else", so that the listed rows and the
 * folded one add up to the change of the totals. Pure.
 */

import {
  BREAKDOWN_MAX_ROWS,
  BREAKDOWN_NAME_CAP,
  type FoldedChange,
  type FunctionChange,
  type ObjectChange,
  type WorkBreakdown,
} from '../formats/parts/work-breakdown-fields.js';
import { compareText } from '../lib/compare-text.js';
import type { ObjectRole, ProcessProfile } from '../model/process-profile.js';

export interface BreakdownLimits {
  /** Objects listed at most. */
  objects: number;
  /** Functions listed at most. */
  functions: number;
  /**
   * An entry is listed only when its change is at least this share of all its list's changes
   * (their absolute values summed): a JIT runtime's work moves by small amounts in many places
   * under any change, and those are folded rather than listed as if each meant something.
   */
  minShare: number;
}

/** A comment's worth: the few objects a program runs in, the functions a reader will look at. */
export const BREAKDOWN_LIMITS: BreakdownLimits = { objects: 8, functions: 10, minShare: 0.005 };

type Row = { key: string; base: number; head: number; change: number };

/** Names longer than the schema's cap keep their start (a C++ signature's scope and name). */
const clip = (s: string) => (s.length > BREAKDOWN_NAME_CAP ? `${s.slice(0, BREAKDOWN_NAME_CAP - 1)}…` : s);

/** Self instructions by key over every process of one side. */
function sumBy(profiles: readonly ProcessProfile[], key: (f: ProcessProfile['functions'][number]) => string) {
  const by = new Map<string, number>();
  for (const p of profiles) for (const f of p.functions) by.set(key(f), (by.get(key(f)) ?? 0) + f.instructions);
  return by;
}

/** Both sides' sums joined by key, largest change first (then by key, so equal changes keep one order). */
function joined(base: ReadonlyMap<string, number>, head: ReadonlyMap<string, number>): Row[] {
  const keys = new Set([...base.keys(), ...head.keys()]);
  return [...keys]
    .map((key) => {
      const b = base.get(key) ?? 0;
      const h = head.get(key) ?? 0;
      return { key, base: b, head: h, change: h - b };
    })
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || compareText(a.key, b.key));
}

/** The rows worth listing and the rest summed. */
function fold(rows: readonly Row[], limit: number, minShare: number): { shown: Row[]; rest: FoldedChange } {
  const moved = rows.reduce((s, r) => s + Math.abs(r.change), 0);
  const cap = Math.max(0, Math.min(limit, BREAKDOWN_MAX_ROWS));
  const shown = rows.filter((r) => r.change !== 0 && Math.abs(r.change) >= minShare * moved).slice(0, cap);
  const listed = new Set(shown);
  const others = rows.filter((r) => !listed.has(r));
  const sum = (f: (r: Row) => number) => others.reduce((s, r) => s + f(r), 0);
  return {
    shown,
    rest: {
      entries: others.length,
      changed: others.filter((r) => r.change !== 0).length,
      base: sum((r) => r.base),
      head: sum((r) => r.head),
      change: sum((r) => r.change),
    },
  };
}

// Keys are JSON arrays: unambiguous whatever characters a name holds, and read back as they were.
const objectKey = (f: { role: ObjectRole; object: string }) => JSON.stringify([f.role, f.object]);
const functionKey = (f: { role: ObjectRole; object: string; function: string }) =>
  JSON.stringify([f.role, f.object, f.function]);
const total = (ps: readonly ProcessProfile[]) => ps.reduce((s, p) => s + p.instructions, 0);
const sides = (r: Row) => ({ base: r.base, head: r.head, change: r.change });

/**
 * The breakdown of a change: `base` and `head` are one side's processes each (a run's, as
 * counts/callgrind.ts reads them); objects and functions are matched by role and name, so a program
 * built at another path, or a runtime of another release, is still the same row.
 */
export function diffBreakdowns(
  base: readonly ProcessProfile[],
  head: readonly ProcessProfile[],
  limits: BreakdownLimits = BREAKDOWN_LIMITS,
): WorkBreakdown {
  const objects = fold(joined(sumBy(base, objectKey), sumBy(head, objectKey)), limits.objects, limits.minShare);
  const functions = fold(joined(sumBy(base, functionKey), sumBy(head, functionKey)), limits.functions, limits.minShare);
  return {
    tool: 'callgrind',
    processes: { base: base.length, head: head.length },
    base: total(base),
    head: total(head),
    change: total(head) - total(base),
    objects: objects.shown.map((r): ObjectChange => {
      const [role, object] = JSON.parse(r.key) as [ObjectRole, string];
      return { object: clip(object), role, ...sides(r) };
    }),
    otherObjects: objects.rest,
    functions: functions.shown.map((r): FunctionChange => {
      const [role, object, fn] = JSON.parse(r.key) as [ObjectRole, string, string];
      return { function: clip(fn), object: clip(object), role, ...sides(r) };
    }),
    otherFunctions: functions.rest,
  };
}
