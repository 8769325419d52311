/**
 * The percentile bootstrap of a ratio of medians, median(head)/median(base): each side resampled
 * with replacement (resample i draws head's n values, then base's, from one seeded mulberry32
 * sequence), the 2.5% and 97.5% quantiles of the ratios interpolated between order statistics.
 *
 * Computed without sorting a resample or the ratios: a side's values are ranked once and a
 * resample only counts how often it drew each rank, and the quantiles' order statistics are
 * selected, not sorted for. The answer is the one that sorting gives, value for value (the
 * tests hold it to a plain implementation); the Compare view of the site draws thousands of
 * resamples for each of hundreds of metrics before it can show its table.
 */
import { MULBERRY_INCREMENT, mulberry32 } from './prng.js';

/** One side's samples ranked once: `sorted` values, each sample's `rank`, a resample's `count` per rank. */
interface Ranked {
  n: number;
  sorted: Float64Array;
  rank: Uint32Array;
  count: Uint32Array;
}

function ranked(xs: readonly number[]): Ranked {
  const n = xs.length;
  // Ties are equal values: their order changes no order statistic.
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
  const rank = new Uint32Array(n);
  order.forEach((i, r) => {
    rank[i] = r;
  });
  return { n, sorted: Float64Array.from(order, (i) => xs[i]!), rank, count: new Uint32Array(n) };
}

/** Draws one resample (n values, each at `floor(rand * n)`) into `x.count`; returns the new state. */
function drawResample(x: Ranked, state: number): number {
  const { n, rank, count } = x;
  for (let r = 0; r < n; r++) count[r] = 0;
  let s = state;
  for (let i = 0; i < n; i++) {
    s = (s + MULBERRY_INCREMENT) >>> 0;
    count[rank[Math.floor(mulberry32(s) * n)]!]!++;
  }
  return s;
}

/** The median of the resample in `x.count`: the middle order statistic, or the mean of the two. */
function resampleMedian(x: Ranked): number {
  const { n, sorted, count } = x;
  const m = n >> 1;
  // The ranks where the running count passes order statistic m - 1 (even n), then m.
  let r = 0;
  let below = count[0]!;
  if (n % 2 === 0) while (below <= m - 1) below += count[++r]!;
  const lower = sorted[r]!;
  while (below <= m) below += count[++r]!;
  return n % 2 ? sorted[r]! : (lower + sorted[r]!) / 2;
}

/**
 * Moves the k-th smallest of a[l..r] to a[k], smaller or equal ones before it and greater or
 * equal ones after (Wirth's selection: equal values split evenly, so repeated ratios stay linear).
 */
function select(a: Float64Array, k: number, l: number, r: number): void {
  while (l < r) {
    const x = a[k]!;
    let i = l;
    let j = r;
    do {
      while (a[i]! < x) i++;
      while (x < a[j]!) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    } while (i <= j);
    if (j < k) l = i;
    if (k < i) r = j;
  }
}

/**
 * The order statistics at `ks` (ascending indices) of `a`, as a sorted copy would hold them.
 * Among NaN (unordered) or zeros (-0 and 0 compare equal but are not the same value), selection
 * could pick another value than the sort by `a - b` does: those ratios are sorted that way.
 */
function orderStatistics(a: Float64Array, ks: readonly number[]): number[] {
  if (a.some((v) => Number.isNaN(v) || v === 0)) {
    const sorted = [...a].sort((x, y) => x - y);
    return ks.map((k) => sorted[k]!);
  }
  let from = 0;
  return ks.map((k) => {
    if (k >= from) select(a, k, from, a.length - 1);
    from = k + 1;
    return a[k]!;
  });
}

/** Percentile-bootstrap interval of median(head)/median(base), at `confidence`. */
export function bootstrapMedianRatio(
  base: readonly number[],
  head: readonly number[],
  seed: number,
  iterations: number,
  confidence: number,
): [number, number] {
  const h = ranked(head);
  const b = ranked(base);
  const ratios = new Float64Array(iterations);
  let s = seed >>> 0;
  for (let i = 0; i < iterations; i++) {
    s = drawResample(h, s);
    const top = resampleMedian(h);
    s = drawResample(b, s);
    ratios[i] = top / resampleMedian(b);
  }
  // Each quantile interpolates between the order statistics around its position.
  const tail = (1 - confidence) / 2;
  const pos = [tail, 1 - tail].map((q) => (iterations - 1) * q);
  const ks = [...new Set(pos.flatMap((p) => [Math.floor(p), Math.ceil(p)]))];
  const at = new Map(orderStatistics(ratios, ks).map((v, i) => [ks[i]!, v]));
  const quantile = (p: number) => {
    const lo = at.get(Math.floor(p))!;
    return lo + (at.get(Math.ceil(p))! - lo) * (p - Math.floor(p));
  };
  return [quantile(pos[0]!), quantile(pos[1]!)];
}
