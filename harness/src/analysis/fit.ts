/**
 * The cost of one operation free of start-up: a line time = a + b·x through the runs of one
 * benchmark at several input sizes (x = operations per run, e.g. reads). b is the cost per
 * operation, a the start-up. With two sizes the line is robust (twoSizeFit); with more, least
 * squares, the 95% interval of b from the slope's standard error with Student's t (n − 2 degrees
 * of freedom). Per-run slopes (run j of every size) are the
 * samples a comparison tests. Pure.
 */

export interface LineFit {
  slope: number;
  intercept: number;
  r2: number;
  /** 95% interval of the slope; absent with fewer than 3 points or no spread in x. */
  ci?: [number, number];
  /** Standard error of the slope. */
  se?: number;
  n: number;
}

/** Two-sided 95% quantile of Student's t with `df` degrees of freedom (Cornish-Fisher, < 0.1% off for df >= 3). */
export function t95(df: number): number {
  if (df < 1) return Number.NaN;
  const exact: Record<number, number> = { 1: 12.706, 2: 4.303 };
  if (exact[df]) return exact[df]!;
  const z = 1.959964;
  const g1 = (z ** 3 + z) / 4;
  const g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96;
  const g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384;
  const g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160;
  return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4;
}

/** Ordinary least squares through (x, y) points. */
export function leastSquares(points: readonly (readonly [number, number])[]): LineFit {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const [x, y] of points) {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
    syy += (y - my) ** 2;
  }
  const slope = sxx > 0 ? sxy / sxx : Number.NaN;
  const intercept = my - slope * mx;
  const ssr = points.reduce((s, [x, y]) => s + (y - intercept - slope * x) ** 2, 0);
  const r2 = syy > 0 ? 1 - ssr / syy : 1;
  if (n < 3 || !(sxx > 0)) return { slope, intercept, r2, n };
  const se = Math.sqrt(ssr / (n - 2) / sxx);
  const half = t95(n - 2) * se;
  return { slope, intercept, r2, se, ci: [slope - half, slope + half], n };
}

export interface SizeRuns {
  /** Operations per run at this size (e.g. reads). */
  x: number;
  /** Wall seconds of each run at this size. */
  times: readonly number[];
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * The line through two sizes, robust to a run the scheduler delayed: the slope is the
 * Hodges-Lehmann shift between the sizes (the median of every difference large_i − small_j) over
 * the difference in x, its 95% interval the Mann-Whitney order statistics of those differences
 * (normal approximation; none below about 4 runs per size), the intercept the small size's median
 * minus slope × x. Least squares would let one late run of a few milliseconds flip a small
 * profile's slope negative; this needs half the runs of one size to move. R² stays least squares'.
 */
export function twoSizeFit(small: SizeRuns, large: SizeRuns): LineFit {
  const ols = leastSquares([small, large].flatMap((s) => s.times.map((t) => [s.x, t] as const)));
  const dx = large.x - small.x;
  const n1 = small.times.length;
  const n2 = large.times.length;
  if (!(dx > 0) || !n1 || !n2) return ols;
  const diffs = large.times.flatMap((l) => small.times.map((t) => l - t)).sort((a, b) => a - b);
  const slope = median(diffs) / dx;
  const intercept = median(small.times) - slope * small.x;
  const m = n1 * n2;
  const k = Math.floor(m / 2 - 1.959964 * Math.sqrt((m * (n1 + n2 + 1)) / 12));
  const ci: [number, number] | undefined = k >= 1 ? [diffs[k - 1]! / dx, diffs[m - k]! / dx] : undefined;
  return { slope, intercept, r2: ols.r2, n: n1 + n2, ...(ci ? { ci } : {}) };
}

/**
 * The fit over every run of every size (two sizes: twoSizeFit; more: least squares), and the
 * per-run slopes and intercepts (run j of each size).
 */
export function fitSizes(sizes: readonly SizeRuns[]): { fit: LineFit; slopes: number[]; intercepts: number[] } {
  const byX = [...sizes].sort((a, b) => a.x - b.x);
  const fit =
    byX.length === 2
      ? twoSizeFit(byX[0]!, byX[1]!)
      : leastSquares(sizes.flatMap((s) => s.times.map((t) => [s.x, t] as const)));
  const runs = Math.min(...sizes.map((s) => s.times.length));
  const slopes: number[] = [];
  const intercepts: number[] = [];
  for (let j = 0; j < runs; j++) {
    const f = leastSquares(sizes.map((s) => [s.x, s.times[j]!] as const));
    if (Number.isFinite(f.slope)) {
      slopes.push(f.slope);
      intercepts.push(f.intercept);
    }
  }
  return { fit, slopes, intercepts };
}
