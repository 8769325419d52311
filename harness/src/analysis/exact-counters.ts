/**
 * The exact-counter rule, shared: the paired diff's counters and counted work's verdict
 * (counts/count-verdict.ts, which adds its tolerance) both compare by it.
 *
 * Counters (syscalls by name, reads, max RSS) in a paired diff stay exact: no statistics, no
 * minimum effect. Each side's values come from its processes (one per pair, or the pairs that
 * were traced), and the rule is compare.ts's counterChange, restated for paired values:
 * - deterministic counter (every base value equal, every head value equal): any difference is a
 *   change, however small (one extra read() per run is news);
 * - almost deterministic (futex and epoll counts of threaded runtimes, RSS by a few pages): the
 *   two sides' ranges must not overlap and the gap between them must be at least the larger
 *   side's spread; separation alone would call noise a change.
 * A syscall a side never made must be passed as 0 for that side (strace lists only calls made).
 */
export interface CounterComparison {
  changed: boolean;
  kind: 'exact' | 'range';
  base: number;
  head: number;
  /** [min, max] of a side whose values disagree. */
  baseRange?: [number, number];
  headRange?: [number, number];
  /** Why a difference is not called a change, when there is one. */
  note?: string;
}

const medianOf = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
};

/** Compares one counter's values of the base processes with those of the head processes. */
export function compareCounter(base: readonly number[], head: readonly number[]): CounterComparison {
  if (base.length === 0 || head.length === 0) throw new RangeError('a counter needs at least one value per side');
  if (![...base, ...head].every(Number.isFinite)) throw new RangeError('counter values must be finite numbers');
  const lo = (xs: readonly number[]) => Math.min(...xs);
  const hi = (xs: readonly number[]) => Math.max(...xs);
  const ranges = {
    ...(lo(base) !== hi(base) ? { baseRange: [lo(base), hi(base)] as [number, number] } : {}),
    ...(lo(head) !== hi(head) ? { headRange: [lo(head), hi(head)] as [number, number] } : {}),
  };
  const out = { base: medianOf(base), head: medianOf(head), ...ranges };
  if (lo(base) === hi(base) && lo(head) === hi(head)) return { changed: base[0] !== head[0], kind: 'exact', ...out };
  const gap = Math.max(lo(head) - hi(base), lo(base) - hi(head));
  const spread = Math.max(hi(base) - lo(base), hi(head) - lo(head));
  if (gap > 0 && gap >= spread) return { changed: true, kind: 'range', ...out };
  const note = gap > 0 ? `the ranges are ${gap} apart, less than a side's spread (${spread})` : 'the ranges overlap';
  return { changed: false, kind: 'range', ...out, ...(out.base !== out.head ? { note } : {}) };
}

/** Per-pair form: { base, head } values of each pair (or of the pairs that were traced). */
export function comparePairsCounter(pairs: readonly { base: number; head: number }[]): CounterComparison {
  return compareCounter(
    pairs.map((p) => p.base),
    pairs.map((p) => p.head),
  );
}
