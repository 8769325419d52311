/**
 * Exact counter changes as a reader takes them: one group per line, release pair and point (all
 * its counters in one line), the groups in which some count moved by more than a couple of calls
 * first. A sweep of every minor of five lines found 2,032 counter changes over 160 release pairs,
 * 1,374 of them by one or two calls (brk, mmap, madvise: the runtime's own start-up); listed one
 * per line they buried the few that change with the work. Pure; the CLI and the site both use it.
 */

import type { ReleaseChange } from '../formats/release-store-format.js';
import { paramText } from '../model/select.js';
import { percent } from './judge/changes.js';

/** A group whose every count moved by at most this many calls per run is folded, not hidden. */
export const SMALL_COUNTER_STEP = 2;

/** The point a change is on, as people read it: "wc readsync bs 65536". */
export function pointOf(c: Pick<ReleaseChange, 'experiment' | 'variant' | 'params'>): string {
  return [c.experiment, c.variant, ...Object.entries(c.params).map(([k, v]) => paramText(k, v))].join(' ');
}

/** Counter changes grouped by line, release pair and point, in the given order (the file's: newest first). */
export function counterGroups(changes: readonly ReleaseChange[]): ReleaseChange[][] {
  const groups = new Map<string, ReleaseChange[]>();
  for (const c of changes) {
    if (c.kind !== 'counter') continue;
    const k = `${c.line}|${c.from}|${c.to}|${pointOf(c)}`;
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  return [...groups.values()];
}

/** The largest step of a group's counters, in calls per run (0 when no counts were kept). */
export function largestStep(group: readonly ReleaseChange[]): number {
  return Math.max(0, ...group.map((c) => (c.counts ? Math.abs(c.counts.to - c.counts.from) : 0)));
}

/** The groups in which some count moved by more than SMALL_COUNTER_STEP, and the others; each keeps its order. */
export function bySize(groups: readonly ReleaseChange[][]): { large: ReleaseChange[][]; small: ReleaseChange[][] } {
  const large = groups.filter((g) => largestStep(g) > SMALL_COUNTER_STEP);
  return { large, small: groups.filter((g) => !large.includes(g)) };
}

/**
 * One line for a group: "node 20.2.0 → 20.3.0: wc readsync bs 65536: syscalls.openat 40 → 44,
 * syscalls.brk 18 → 19 per run (exact …); measured beside it: read_cost +20%" (the point's timed
 * metrics under the two releases, the same for every counter of the group).
 */
export function counterGroupText(group: readonly ReleaseChange[]): string {
  const c = group[0]!;
  const counts = group.map((x) => `${x.metric} ${x.counts?.from} → ${x.counts?.to}`).join(', ');
  const bisected = c.detectedFrom ? `; bisected from ${c.detectedFrom} → ${c.detectedTo}` : '';
  const effects = (c.effects ?? []).map((e) => `${e.metric} ${percent(e.to / e.from)}`).join(', ');
  return `${c.family} ${c.from} → ${c.to}: ${pointOf(c)}: ${counts} per run (exact, every trace of both releases${bisected})${effects ? `; measured beside it: ${effects}` : ''}`;
}
