/**
 * Exact work: instruction counts made into a point's metrics, and two sides' counts compared.
 * Pure. A count under a runtime's deterministic settings repeats to the instruction for C and to
 * a few parts per million for V8 (docs/counts.md), but a JIT runtime's count per operation also
 * moves under code changes that add no work (garbage collections and tier-ups land at fixed but
 * lumpy points), so a difference is called only beyond COUNT_TOLERANCE, and only where each side's
 * own repeated counts agree within it (counts/count-verdict.ts).
 */
import { median } from '../analysis/two-sample.js';
/**
 * The one tolerance of counted work, relative: a count that moved less than this is the same
 * work. Chosen above how far counts moved on the development VM under changes that add no work
 * per operation, and below the smallest real change of interest (docs/counts.md has the figures).
 */
export const COUNT_TOLERANCE = 0.01;

/** One counted run: of a point (own), or of a fit at its smallest or largest counted size; x is the fit's count (reads). */
export interface CountedRun {
  size: 'own' | 'small' | 'large';
  instructions: number;
  x?: number;
}

/** One counted size of a fit: its operations and its total instructions (the median of its repeats). */
interface SpanEnd {
  ops: number;
  instructions: number;
}

/**
 * A fit whose two totals make no cost per operation: the larger size counted no more instructions
 * than the smaller (negative), or more by no more than its repeats' own spread (within-spread).
 */
export interface Unmeasurable {
  why: 'negative' | 'within-spread';
  small: SpanEnd;
  large: SpanEnd;
  /** The repeats' spread, in instructions: the widest range of one size's repeated totals. */
  spread: number;
}

export interface PointCounts {
  /** Instructions of one run of the point (the median of its repeats), start-up included; not for a fit. */
  perRun?: number;
  /** A fit's instructions per operation: the two sizes' difference over their operations' difference. */
  perOp?: number;
  /** A fit whose span measured no cost per operation: perOp is then absent. */
  unmeasurable?: Unmeasurable;
  /** The largest relative spread of a size's repeated counts (0 when they agree exactly or were not repeated). */
  spread: number;
  /** How many counts each size had (the least of them). */
  repeats: number;
}

export const relSpread = (xs: readonly number[]) =>
  xs.length < 2 ? 0 : (Math.max(...xs) - Math.min(...xs)) / Math.min(...xs);

const range = (xs: readonly number[]) => (xs.length ? Math.max(...xs) - Math.min(...xs) : 0);

/**
 * Whether two sizes' totals measure a cost per operation: the larger size must count more
 * instructions than the smaller by more than the widest range of either size's repeats. Below
 * that, their difference is the repeats' noise (or a garbage collection that landed before the
 * smaller size ended), not a cost; the two totals are kept to say so.
 */
export function spanOf(
  small: { ops: number; totals: readonly number[] },
  large: { ops: number; totals: readonly number[] },
): { perOp: number } | { unmeasurable: Unmeasurable } {
  const [s, l] = [median(small.totals), median(large.totals)];
  const diff = l - s;
  const spread = Math.max(range(small.totals), range(large.totals));
  if (diff > spread) return { perOp: diff / (large.ops - small.ops) };
  return {
    unmeasurable: {
      why: diff <= 0 ? 'negative' : 'within-spread',
      small: { ops: small.ops, instructions: s },
      large: { ops: large.ops, instructions: l },
      spread,
    },
  };
}

/** A point's work from its counted runs; undefined when they make neither quantity. */
export function pointCounts(runs: readonly CountedRun[]): PointCounts | undefined {
  const of = (size: CountedRun['size']) => runs.filter((r) => r.size === size);
  const [own, small, large] = [of('own'), of('small'), of('large')];
  const groups = [own, small, large].filter((g) => g.length);
  if (!groups.length) return undefined;
  const repeats = Math.min(...groups.map((g) => g.length));
  const [xs, xl] = [small[0]?.x, large[0]?.x];
  const fit = small.length > 0 && large.length > 0 && xs !== undefined && xl !== undefined && xl > xs;
  // A fit is judged on its count per operation: each larger-size repeat against the smaller size.
  const perOps = fit ? large.map((r) => (r.instructions - median(small.map((q) => q.instructions))) / (xl - xs)) : [];
  const spread = fit
    ? Math.max(relSpread(perOps), relSpread(small.map((r) => r.instructions)))
    : Math.max(...groups.map((g) => relSpread(g.map((r) => r.instructions))));
  const span = fit
    ? spanOf(
        { ops: xs, totals: small.map((r) => r.instructions) },
        { ops: xl, totals: large.map((r) => r.instructions) },
      )
    : undefined;
  const perOp = span && 'perOp' in span ? median(perOps) : undefined;
  const unmeasurable = span && 'unmeasurable' in span ? span.unmeasurable : undefined;
  const perRun = own.length ? median(own.map((r) => r.instructions)) : undefined;
  if (perOp === undefined && perRun === undefined && !unmeasurable) return undefined;
  return {
    ...(perRun !== undefined ? { perRun } : {}),
    ...(perOp !== undefined ? { perOp } : {}),
    ...(unmeasurable ? { unmeasurable } : {}),
    spread,
    repeats,
  };
}
