/**
 * The order in which one hyperfine invocation times a fit experiment's sizes: one run at a time,
 * alternating (A B, B A, A B, …), never all runs of one size and then all of the other.
 *
 * A fit's cost per operation is a difference of two sizes' times, so timed in two blocks it also
 * measures how far the machine moved between the blocks, and more runs do not help: the blocks
 * only grow further apart (docs/paired-design.md has the spreads). Alternating run by run cancels a
 * drift that is slow next to one run, as paired A/B designs do. Pure.
 */

/** One command hyperfine is given, each timed once (--runs=1): which size, and whether it is a warm-up. */
export interface Slot {
  size: number;
  warmup: boolean;
}

/**
 * Warm-ups first (each size `warmup` times, alternating), then `runs` rounds of every size, the
 * order reversed every other round so that no size always goes first.
 */
export function interleavedSlots(sizes: number, runs: number, warmup: number): Slot[] {
  const slots: Slot[] = [];
  const all = Array.from({ length: sizes }, (_, i) => i);
  for (let w = 0; w < warmup; w++) for (const size of all) slots.push({ size, warmup: true });
  for (let r = 0; r < runs; r++)
    for (const size of r % 2 ? [...all].reverse() : all) slots.push({ size, warmup: false });
  return slots;
}

/** hyperfine's results, one per slot, gathered per size (the warm-ups dropped), in run order. */
export function gatherBySize<T extends { times: number[] }>(
  slots: readonly Slot[],
  results: readonly T[],
  merge: (parts: T[]) => T,
): T[] {
  if (results.length !== slots.length)
    throw new Error(`hyperfine returned ${results.length} results for ${slots.length} commands`);
  const sizes = Math.max(0, ...slots.map((s) => s.size + 1));
  return Array.from({ length: sizes }, (_, i) =>
    merge(results.filter((_, k) => slots[k]!.size === i && !slots[k]!.warmup)),
  );
}
