/**
 * The statistics behind every verdict (PR comments, the site's Compare view, calibration).
 * Pure and free of Node imports so the browser bundle can use it too.
 *
 * - Ratio: median(head) / median(base), oriented so that > 1 always means head is worse
 *   (slower, bigger, fewer MB/s): for bigger-is-better metrics the ratio is inverted.
 * - Confidence interval: percentile bootstrap of that ratio, resampling each side
 *   independently (BOOTSTRAP_ITERATIONS, seeded PRNG so the same samples give the same answer).
 * - Significance: two-sided Mann-Whitney U test (normal approximation with tie and continuity
 *   corrections). It makes no normality assumption: benchmark timings are skewed by outliers.
 * - Verdict: significant only when p < ALPHA, the CI excludes 1, and the change is at least
 *   MIN_EFFECT (or the benchmark's calibrated noise threshold, whichever is larger): the margin.
 *   Otherwise "unchanged" only when the whole CI lies inside the margin (log-symmetric, as the
 *   paired diff's equivalence); "untestable" when the sample counts cannot reach p < ALPHA at all
 *   (3 against 3: the smallest possible p is 0.1); else "inconclusive".
 */
import type { Direction } from '../model/metrics.js';
import type { TwoSampleVerdict } from '../model/verdicts.js';
import { bootstrapMedianRatio } from './median-bootstrap.js';

export { prng } from './prng.js';

/** Two-sided significance level: 1 false alarm in 20 comparisons of identical builds, at most. */
export const ALPHA = 0.05;
/**
 * Changes smaller than this are reported as unchanged even when statistically significant:
 * 2% is below what separate runs of the same build drift on shared runners, and below what
 * anyone would act on.
 */
export const MIN_EFFECT = 0.02;
export const BOOTSTRAP_ITERATIONS = 2000;
const CONFIDENCE = 0.95;

export interface SampleComparison {
  baseMedian: number;
  headMedian: number;
  /** > 1 means head is worse, whatever the metric's direction. */
  ratio: number;
  ci: [number, number];
  p: number;
  verdict: TwoSampleVerdict;
  /** Why a difference was not called significant, when it was not. */
  note?: string;
}

/** The smallest two-sided Mann-Whitney p with n and m samples: complete separation, 2 / C(n+m, n). */
export function smallestTwoSidedP(n: number, m: number): number {
  let c = 1;
  for (let i = 1; i <= n; i++) c = (c * (m + i)) / i;
  return Math.min(1, 2 / c);
}

/** The ratio interval of a margin: a change of `minEffect` either way, log-symmetric (2%: 0.980…1.02). */
function marginInterval(minEffect: number): [number, number] {
  return [1 / (1 + minEffect), 1 + minEffect];
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Percentile-bootstrap CI of median(head)/median(base) (median-bootstrap.ts). */
export function bootstrapRatioCI(
  base: readonly number[],
  head: readonly number[],
  seed = 1,
  iterations = BOOTSTRAP_ITERATIONS,
): [number, number] {
  return bootstrapMedianRatio(base, head, seed, iterations, CONFIDENCE);
}

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 erf approximation, |error| < 1.5e-7). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Two-sided Mann-Whitney U p-value (normal approximation, tie and continuity corrected). */
export function mannWhitneyP(a: readonly number[], b: readonly number[]): number {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) return 1;
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(all.length);
  let tieTerm = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[k] = rank;
    const t = j - i + 1;
    tieTerm += t * t * t - t;
    i = j + 1;
  }
  let r1 = 0;
  all.forEach((x, i) => {
    if (x.g === 0) r1 += ranks[i]!;
  });
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  const mu = (n1 * n2) / 2;
  const n = n1 + n2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  if (sigma === 0) return 1;
  const z = (Math.abs(u1 - mu) - 0.5) / sigma;
  return Math.min(1, 2 * (1 - normalCdf(Math.max(0, z))));
}

/** Compares two sample sets of one metric. `minEffect` may be raised by calibration. */
export function compareSamples(
  base: readonly number[],
  head: readonly number[],
  direction: Direction,
  minEffect = MIN_EFFECT,
  seed = 1,
): SampleComparison {
  const baseMedian = median(base);
  const headMedian = median(head);
  const orient = (r: number) => (direction === 'smaller' ? r : 1 / r);
  const raw = headMedian / baseMedian;
  const [lo, hi] = bootstrapRatioCI(base, head, seed);
  const ci: [number, number] = direction === 'smaller' ? [lo, hi] : [1 / hi, 1 / lo];
  const ratio = orient(raw);
  const p = mannWhitneyP(base, head);
  const { verdict, note } = decide({ ratio, ci, p, n: [base.length, head.length], minEffect });
  return { baseMedian, headMedian, ratio, ci, p, verdict, ...(note ? { note } : {}) };
}

/** The verdict of one comparison, and why no change was called when none was. */
function decide(c: { ratio: number; ci: [number, number]; p: number; n: [number, number]; minEffect: number }): {
  verdict: TwoSampleVerdict;
  note?: string;
} {
  const { ratio, ci, p, minEffect } = c;
  const margin = `±${(minEffect * 100).toFixed(1)}%`;
  const smallest = smallestTwoSidedP(...c.n);
  if (smallest >= ALPHA)
    return {
      verdict: 'untestable',
      note: `${c.n[0]} against ${c.n[1]} samples cannot reach p < ${ALPHA} (at best p = ${smallest.toFixed(2)})`,
    };
  const [lo, hi] = marginInterval(minEffect);
  const inside = ci[0] >= lo && ci[1] <= hi;
  if (p < ALPHA && (ci[0] > 1 || ci[1] < 1) && Math.abs(ratio - 1) >= minEffect)
    return { verdict: ratio > 1 ? 'slower' : 'faster' };
  if (inside) return { verdict: 'unchanged', note: `the 95% interval lies inside the ${margin} margin` };
  const why =
    p >= ALPHA
      ? `p = ${p.toFixed(3)} ≥ ${ALPHA}`
      : ci[0] <= 1 && ci[1] >= 1
        ? 'the 95% interval includes no change'
        : `a change below the ${margin} margin`;
  return { verdict: 'inconclusive', note: `${why}, and the 95% interval reaches beyond the ${margin} margin` };
}
