/**
 * Which points a run counts, given the counts stored under their keys (./count-key.ts): a point
 * whose key is stored takes its count; the others are counted, at most `budget` of them (the rest
 * wait for a later run, which says so); and in each deciding family one reused point is counted
 * again live and compared with what is stored (the least re-checked first, so the re-check
 * rotates over the family's points run by run). Only a point whose stored repeats were steady
 * stands for its family: one whose work follows the scheduler (a pipe's reads) would disagree
 * with itself and drop a whole family's counts for nothing. Pure.
 */

import { median } from '../analysis/two-sample.js';
import type { StoredCount } from '../formats/count-store-format.js';
import { COUNT_TOLERANCE, type CountedRun } from './count-rule.js';

/** A point to count, with its key, its counting family and whether its counts decide. */
export interface Keyed<J> {
  job: J;
  id: string;
  key: string;
  family: string;
  decides: boolean;
  /** How far one run's count may move between runs of the very same program (manifest `countsVary`). */
  vary?: number;
}

export interface ReusePlan<J> {
  /** Points that take their stored count. */
  reuse: { point: Keyed<J>; stored: StoredCount }[];
  /** Points counted now: their key is new. */
  count: Keyed<J>[];
  /** Points whose key is new but the budget was spent: a later run counts them. */
  deferred: Keyed<J>[];
  /** One reused point per deciding family, counted again and compared with the stored count. */
  recheck: { point: Keyed<J>; stored: StoredCount }[];
  /** Deciding families reused without a re-check: none of their stored points repeated steadily. */
  unchecked: string[];
}

export function planReuse<J>(
  points: readonly Keyed<J>[],
  stored: Readonly<Record<string, StoredCount>>,
  budget: number,
  recheck = true,
): ReusePlan<J> {
  const reuse: ReusePlan<J>['reuse'] = [];
  const fresh: Keyed<J>[] = [];
  for (const point of points) {
    const s = Object.hasOwn(stored, point.key) ? stored[point.key] : undefined;
    if (s) reuse.push({ point, stored: s });
    else fresh.push(point);
  }
  const byFamily = new Map<string, ReusePlan<J>['reuse'][number]>();
  const deciding = new Set<string>();
  for (const r of reuse) {
    if (!r.point.decides) continue;
    deciding.add(r.point.family);
    if (!steadyStored(r.point.family, r.stored.runs, r.point.vary)) continue;
    const best = byFamily.get(r.point.family);
    if (
      !best ||
      r.stored.checks < best.stored.checks ||
      (r.stored.checks === best.stored.checks && r.point.id < best.point.id)
    )
      byFamily.set(r.point.family, r);
  }
  return {
    reuse,
    count: fresh.slice(0, budget),
    deferred: fresh.slice(budget),
    recheck: recheck ? [...byFamily.values()] : [],
    unchecked: recheck ? [...deciding].filter((f) => !byFamily.has(f)).sort() : [],
  };
}

/** The median total of each counted size. */
function totals(runs: readonly CountedRun[]): Map<string, number> {
  const sizes = new Map<string, number[]>();
  for (const r of runs) sizes.set(r.size, [...(sizes.get(r.size) ?? []), r.instructions]);
  return new Map([...sizes].map(([size, xs]) => [size, median(xs)]));
}

/** Whether each counted size's repeats are the very same count. */
function repeatsExactly(runs: readonly CountedRun[]): boolean {
  const bySize = new Map<string, Set<number>>();
  for (const r of runs) bySize.set(r.size, (bySize.get(r.size) ?? new Set()).add(r.instructions));
  return [...bySize.values()].every((xs) => xs.size === 1);
}

/** How far a re-count of the same work may land from the stored total `s`. */
function allowance(exact: boolean, s: number, vary: number | undefined): number {
  return exact ? (vary ?? 0) : Math.max(COUNT_TOLERANCE * Math.abs(s), vary ?? 0);
}

/**
 * Whether a stored count can stand for its family in a live re-check: at each counted size its
 * repeats did the same operations (the fit's reads) and their totals lay within half of what a
 * re-count may move (C: to the instruction, or within its declared `vary`), so a live count of
 * unchanged work lands inside the allowance. A pipe-fed point fails this: how many reads it makes
 * depends on how the kernel splits the writer's data.
 */
export function steadyStored(family: string, runs: readonly CountedRun[], vary?: number): boolean {
  const bySize = new Map<string, CountedRun[]>();
  for (const r of runs) bySize.set(r.size, [...(bySize.get(r.size) ?? []), r]);
  const exact = family === 'native';
  return [...bySize.values()].every((rs) => {
    if (new Set(rs.map((r) => r.x)).size > 1) return false;
    const xs = rs.map((r) => r.instructions);
    const range = Math.max(...xs) - Math.min(...xs);
    return exact ? range <= (vary ?? 0) : range <= allowance(false, median(xs), vary) / 2;
  });
}

/**
 * Whether a live re-count did the stored count's work at all: at each counted size the same number
 * of operations (the fit's reads). A pipe-fed point whose stored repeats happened to agree can make
 * another number of reads live (how the kernel splits the writer's data); its totals then say
 * nothing of whether the stored count still holds, so the re-check is not a comparison.
 */
export function sameOperations(stored: readonly CountedRun[], live: readonly CountedRun[]): boolean {
  const ops = (runs: readonly CountedRun[]) =>
    JSON.stringify([...new Set(runs.filter((r) => r.x !== undefined).map((r) => `${r.size}:${r.x}`))].sort());
  return ops(stored) === ops(live);
}

/**
 * Whether a live re-count agrees with the stored one, each counted size's total compared. C is
 * held to the instruction, except by what its manifest declares a run's count may move
 * (`vary`: records' and scan's C print the times they measured, and the C library's float
 * formatting costs a few hundred instructions more or less by the value); a C program that
 * declares nothing but whose stored repeats differ, and every other family, within the one
 * tolerance.
 */
export function recountAgrees(
  family: string,
  stored: readonly CountedRun[],
  live: readonly CountedRun[],
  vary?: number,
): boolean {
  const [a, b] = [totals(stored), totals(live)];
  if (a.size !== b.size) return false;
  const native = family === 'native' && (vary !== undefined || repeatsExactly(stored));
  return [...a].every(([size, s]) => {
    const l = b.get(size);
    if (l === undefined) return false;
    return Math.abs(l - s) <= allowance(native, s, vary);
  });
}
