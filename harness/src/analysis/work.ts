/**
 * Exact work: instruction counts made into a point's metrics, and two sides' counts compared.
 * Pure. A count under a runtime's deterministic settings repeats to the instruction for C and to
 * a few parts per million for V8 (docs/counts.md), but a JIT runtime's count per operation also
 * moves under code changes that add no work (garbage collections and tier-ups land at fixed but
 * lumpy points), so a difference is called only beyond WORK_TOLERANCE, and only where each side's
 * own repeated counts agree within it (pr-diff/analysis/work-verdict.ts).
 */
/**
 * The one tolerance of counted work, relative: a count that moved less than this is the same
 * work. Chosen above how far counts moved on the development VM under changes that add no work
 * per operation, and below the smallest real change of interest (docs/counts.md has the figures).
 */
export const WORK_TOLERANCE = 0.005;

/** One counted run: at the point's own size or, for a fit, its smallest; x is the fit's count (reads). */
export interface CountedRun {
  size: 'small' | 'own';
  instructions: number;
  x?: number;
}

export interface Work {
  /** Instructions of one run at the point's own size (the median of its repeats), start-up included. */
  perRun: number;
  /** A fit's instructions per operation: the two sizes' difference over their operations' difference. */
  perOp?: number;
  /** The largest relative spread of a size's repeated counts (0 when they agree exactly or were not repeated). */
  spread: number;
  /** How many counts each size had (the least of them). */
  repeats: number;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
};
export const relSpread = (xs: readonly number[]) =>
  xs.length < 2 ? 0 : (Math.max(...xs) - Math.min(...xs)) / Math.min(...xs);

/** A point's work from its counted runs; undefined without a run at its own size. */
export function workOf(runs: readonly CountedRun[]): Work | undefined {
  const own = runs.filter((r) => r.size === 'own');
  const small = runs.filter((r) => r.size === 'small');
  if (!own.length) return undefined;
  const perRun = median(own.map((r) => r.instructions));
  const spread = Math.max(relSpread(own.map((r) => r.instructions)), relSpread(small.map((r) => r.instructions)));
  const repeats = small.length ? Math.min(own.length, small.length) : own.length;
  const xOwn = own[0]!.x;
  const xSmall = small[0]?.x;
  const perOp =
    small.length && xOwn !== undefined && xSmall !== undefined && xOwn > xSmall
      ? (perRun - median(small.map((r) => r.instructions))) / (xOwn - xSmall)
      : undefined;
  return { perRun, ...(perOp !== undefined ? { perOp } : {}), spread, repeats };
}
