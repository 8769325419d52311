/**
 * Paired comparison of base and head: the statistics of a PR diff whose unit is the PAIR (one
 * base process and one head process run back to back, in a randomized order), not the sample.
 * Pure and free of Node imports: the browser bundle uses it too. Design and sources:
 * docs/paired-design.md.
 *
 * - Each pair gives one log-ratio d = ln(head / base), oriented so that d > 0 means head is worse
 *   whatever the metric's direction (for bigger-is-better metrics d = ln(base / head)). Drift and
 *   interference that hit both processes of a pair alike cancel in d.
 * - Centre: the Hodges-Lehmann estimate (median of the Walsh averages (d_i + d_j) / 2, i <= j),
 *   reported as a ratio exp(centre). It is as efficient as the mean on normal data (95%) and
 *   robust to the odd slow process like the median.
 * - Interval: the exact Wilcoxon signed-rank interval for that centre (order statistics of the
 *   Walsh averages), normal approximation above EXACT_MAX pairs. A seeded bootstrap over pairs is
 *   offered too (bootstrapCentreInterval), for display.
 * - Test: two-sided Wilcoxon signed-rank test; zeros are dropped (Wilcoxon's rule) and ties get
 *   mid-ranks; exact (conditional on the ties) up to EXACT_MAX / EXACT_TIES_MAX pairs.
 *   With the base/head order randomized per pair, an A/A comparison has d symmetric about 0 by
 *   construction, so the test's level holds whatever the distribution of the timings.
 * - Verdict (classify): "slower"/"faster" only when p < alpha, the interval excludes 0 and the
 *   centre is at least the minimum effect (log-symmetric: ln(1 + minEffect)); "unchanged" when the
 *   (1 - 2 beta) equivalence interval lies inside ±minimum effect (two one-sided tests: a change
 *   of the minimum effect is excluded); otherwise "inconclusive".
 */
import { MIN_EFFECT, median, prng } from './two-sample.js';

export { MIN_EFFECT } from './two-sample.js';

/** Two-sided level of one fixed-size comparison (sequential looks split it: paired-sequential.ts). */
export const ALPHA = 0.05;
/** Up to this many non-zero differences without ties, p-values and intervals are exact. */
export const EXACT_MAX = 200;
/** With tied |d| the exact distribution is recomputed per call: cap its cost. */
export const EXACT_TIES_MAX = 100;
export const BOOTSTRAP_ITERATIONS = 2000;

export type Direction = 'smaller' | 'bigger';
export type PairedVerdict = 'slower' | 'faster' | 'unchanged' | 'inconclusive';
/** AB = base ran first, head second; BA = head first. */
export type PairOrder = 'AB' | 'BA';

export interface Pair {
  base: number;
  head: number;
  order?: PairOrder;
}

/** A centre and an interval on the log scale (d > 0 = head worse). lo/hi are absent when too few pairs. */
export interface LogInterval {
  centre: number;
  lo?: number;
  hi?: number;
  /** Coverage the interval guarantees (exact intervals are conservative: >= the level asked). */
  confidence: number;
}

/** The fixed-size paired comparison of one metric (comparePaired); comparison.json's is model/comparison.ts's PairedComparison. */
export interface PairedStatistics {
  /** Pairs used. */
  n: number;
  baseMedian: number;
  headMedian: number;
  /** exp(Hodges-Lehmann centre of the log-ratios): > 1 means head is worse. */
  ratio: number;
  /** The decision interval as ratios, absent when too few pairs for one. */
  ci?: [number, number];
  /** Level the interval was asked at (1 - alpha). */
  confidence: number;
  p: number;
  /** True when p and the interval come from the exact distribution. */
  exact: boolean;
  verdict: PairedVerdict;
  note?: string;
  /** How much worse the second process of a pair is than the first, as a ratio (> 1: worse), when both orders occur. */
  orderEffect?: number;
}

/** Why these pairs cannot be compared (a ratio needs positive, finite values), or undefined. */
export function pairProblem(pairs: readonly Pair[]): string | undefined {
  if (pairs.length === 0) return 'no pairs';
  const bad = pairs.findIndex((p) => !(p.base > 0 && p.head > 0 && Number.isFinite(p.base) && Number.isFinite(p.head)));
  if (bad >= 0)
    return `pair ${bad + 1} has a value that is not a positive finite number (base ${pairs[bad]!.base}, head ${pairs[bad]!.head}): too fast to time?`;
  return undefined;
}

/** Per-pair log-ratios, > 0 when head is worse. Throws on values pairProblem reports. */
export function logRatios(pairs: readonly Pair[], direction: Direction): number[] {
  const problem = pairProblem(pairs);
  if (problem) throw new RangeError(problem);
  return pairs.map((p) => (direction === 'smaller' ? Math.log(p.head / p.base) : Math.log(p.base / p.head)));
}

/** The n(n+1)/2 Walsh averages (d_i + d_j) / 2, i <= j, sorted ascending. */
export function walshAverages(d: readonly number[]): Float64Array {
  const n = d.length;
  const w = new Float64Array((n * (n + 1)) / 2);
  let k = 0;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) w[k++] = (d[i]! + d[j]!) / 2;
  return w.sort();
}

function medianSorted(s: ArrayLike<number>): number {
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Hodges-Lehmann estimate of the centre of a symmetric distribution: median of the Walsh averages. */
export function hodgesLehmann(d: readonly number[]): number {
  if (d.length === 0) throw new RangeError('Hodges-Lehmann estimate of no values');
  return medianSorted(walshAverages(d));
}

// ---------------------------------------------------------------------------------------------
// Normal distribution

/**
 * Standard normal CDF from Numerical Recipes' erfc (fractional error < 1.2e-7 everywhere, so
 * small tail probabilities keep their relative precision; two-sample.ts's version is absolute).
 */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** Inverse of the standard normal CDF (Acklam's algorithm, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) {
    if (p === 0) return -Infinity;
    if (p === 1) return Infinity;
    throw new RangeError(`normalQuantile(${p}): p must be in [0, 1]`);
  }
  const a = [
    -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1,
    2.506628277459239,
  ];
  const b = [
    -5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1,
  ];
  const c = [
    -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const lowTail = 0.02425;
  if (p < lowTail) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  }
  if (p > 1 - lowTail) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

// ---------------------------------------------------------------------------------------------
// Wilcoxon signed-rank distribution

/**
 * Null distribution of the sum of the scores that get a "+" sign when each sign is a fair coin:
 * dist[s] = P(sum = s). Scores are non-negative integers (ranks, or doubled mid-ranks with ties).
 */
function signedScoreDistribution(scores: readonly number[]): Float64Array {
  const total = scores.reduce((a, b) => a + b, 0);
  let dist = new Float64Array(total + 1);
  dist[0] = 1;
  let reach = 0;
  for (const s of scores) {
    const next = new Float64Array(total + 1);
    for (let t = 0; t <= reach; t++) {
      const p = dist[t]! / 2;
      if (p === 0) continue;
      next[t] = next[t]! + p;
      next[t + s] = next[t + s]! + p;
    }
    reach += s;
    dist = next;
  }
  return dist;
}

/** Cumulative distribution cdf[t] = P(T+ <= t) for the untied signed-rank statistic with n ranks 1..n. */
const untiedCdfCache = new Map<number, Float64Array>();
function untiedCdf(n: number): Float64Array {
  let cdf = untiedCdfCache.get(n);
  if (!cdf) {
    const dist = signedScoreDistribution(Array.from({ length: n }, (_, i) => i + 1));
    cdf = new Float64Array(dist.length);
    let acc = 0;
    for (let t = 0; t < dist.length; t++) cdf[t] = acc += dist[t]!;
    untiedCdfCache.set(n, cdf);
  }
  return cdf;
}

export interface SignedRankTest {
  /** Non-zero differences the test used (zeros are dropped). */
  n: number;
  /** Sum of the ranks of the positive differences (mid-ranks when |d| ties). */
  tPlus: number;
  /** Two-sided p-value. */
  p: number;
  exact: boolean;
}

/** Two-sided Wilcoxon signed-rank test of "the differences are symmetric about 0". */
export function signedRankTest(d: readonly number[]): SignedRankTest {
  const nz = d.filter((x) => x !== 0);
  const n = nz.length;
  if (n === 0) return { n: 0, tPlus: 0, p: 1, exact: true };
  const order = nz.map((x, i) => ({ a: Math.abs(x), pos: x > 0, i })).sort((x, y) => x.a - y.a);
  // Doubled mid-ranks are integers: 2 * (mean of ranks i+1..j+1) = i + j + 2.
  const scores = new Array<number>(n);
  let ties = false;
  let tieTerm = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && order[j + 1]!.a === order[i]!.a) j++;
    for (let k = i; k <= j; k++) scores[k] = i + j + 2;
    const t = j - i + 1;
    if (t > 1) {
      ties = true;
      tieTerm += t * t * t - t;
    }
    i = j + 1;
  }
  let t2 = 0; // doubled T+
  order.forEach((o, k) => {
    if (o.pos) t2 += scores[k]!;
  });
  const tPlus = t2 / 2;
  if (!ties && n <= EXACT_MAX) {
    const cdf = untiedCdf(n);
    const lower = cdf[tPlus]!;
    const upper = 1 - (tPlus > 0 ? cdf[tPlus - 1]! : 0);
    return { n, tPlus, p: Math.min(1, 2 * Math.min(lower, upper)), exact: true };
  }
  if (ties && n <= EXACT_TIES_MAX) {
    const dist = signedScoreDistribution(scores);
    let lower = 0;
    let upper = 0;
    for (let t = 0; t < dist.length; t++) {
      if (t <= t2) lower += dist[t]!;
      if (t >= t2) upper += dist[t]!;
    }
    return { n, tPlus, p: Math.min(1, 2 * Math.min(lower, upper)), exact: true };
  }
  const mean = (n * (n + 1)) / 4;
  const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48);
  if (sd === 0) return { n, tPlus, p: 1, exact: false };
  const z = Math.max(0, Math.abs(tPlus - mean) - 0.5) / sd;
  return { n, tPlus, p: Math.min(1, 2 * (1 - normalCdf(z))), exact: false };
}

/**
 * The number c of Walsh averages to cut at each end for a two-sided (1 - alpha) interval: the
 * largest c with P(T+ <= c) <= alpha / 2 under the null; -1 when no interval exists (too few
 * pairs: 2^-n > alpha / 2).
 */
const criticalCache = new Map<string, number>();
export function signedRankCritical(n: number, alpha: number): number {
  const key = `${n} ${alpha}`;
  const hit = criticalCache.get(key);
  if (hit !== undefined) return hit;
  let c: number;
  if (n <= 0) c = -1;
  else if (n <= EXACT_MAX) {
    const cdf = untiedCdf(n);
    c = -1;
    while (c + 1 < cdf.length && cdf[c + 1]! <= alpha / 2) c++;
  } else {
    const m = (n * (n + 1)) / 2;
    const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24);
    c = Math.max(-1, Math.floor(m / 2 - 0.5 - normalQuantile(1 - alpha / 2) * sd));
  }
  criticalCache.set(key, c);
  return c;
}

/** Coverage of the interval that cuts c Walsh averages at each end, for n pairs. */
export function coverage(n: number, c: number): number {
  if (c < 0) return 1;
  if (n <= EXACT_MAX) return 1 - 2 * untiedCdf(n)[c]!;
  const m = (n * (n + 1)) / 2;
  const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24);
  return 1 - 2 * normalCdf((c + 0.5 - m / 2) / sd);
}

/** The (1 - alpha) interval from sorted Walsh averages of n values (see centreInterval). */
export function intervalFromWalsh(w: ArrayLike<number>, n: number, alpha: number): LogInterval {
  const centre = medianSorted(w);
  const c = signedRankCritical(n, alpha);
  if (c < 0) return { centre, confidence: 1 - alpha };
  return { centre, lo: w[c]!, hi: w[w.length - 1 - c]!, confidence: coverage(n, c) };
}

/**
 * Hodges-Lehmann centre and its distribution-free (1 - alpha) interval: the Walsh averages of
 * ranks c+1 and M-c. Exact (conservative) for continuous symmetric differences; with ties it is
 * the usual approximation.
 */
export function centreInterval(d: readonly number[], alpha = ALPHA): LogInterval {
  return intervalFromWalsh(walshAverages(d), d.length, alpha);
}

/**
 * Percentile bootstrap over pairs of the centre (Hodges-Lehmann or median), seeded so the same
 * pairs always give the same interval. Slightly too narrow below ~15 pairs (percentile intervals
 * undercover there): the verdict uses centreInterval.
 */
export function bootstrapCentreInterval(
  d: readonly number[],
  opts: { seed?: number; iterations?: number; confidence?: number; statistic?: 'hl' | 'median' } = {},
): [number, number] {
  const { seed = 1, iterations = BOOTSTRAP_ITERATIONS, confidence = 1 - ALPHA, statistic = 'hl' } = opts;
  if (d.length === 0) throw new RangeError('bootstrap of no values');
  const rand = prng(seed);
  const stat = statistic === 'hl' ? hodgesLehmann : median;
  const out = new Float64Array(iterations);
  const r = new Array<number>(d.length);
  for (let it = 0; it < iterations; it++) {
    for (let i = 0; i < d.length; i++) r[i] = d[Math.floor(rand() * d.length)]!;
    out[it] = stat(r);
  }
  out.sort();
  const q = (p: number) => {
    const pos = (iterations - 1) * p;
    const lo = Math.floor(pos);
    return out[lo]! + (out[Math.ceil(pos)]! - out[lo]!) * (pos - lo);
  };
  const tail = (1 - confidence) / 2;
  return [q(tail), q(1 - tail)];
}

// ---------------------------------------------------------------------------------------------
// Verdict

/** The log-scale margin of a relative minimum effect: ln(1 + m), the same for slower and faster. */
export function logMargin(minEffect: number): number {
  return Math.log1p(minEffect);
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * The verdict rule shared by every paired analysis. `change` is the (1 - alpha) interval on the
 * log scale (> 0 = head worse) and `p` the test's two-sided p-value: "slower"/"faster" need
 * p < alpha, `change` excluding 0 and the centre at least the minimum effect. `equivalence`
 * (default: `change`) is the (1 - 2 beta) interval of the equivalence test (two one-sided tests
 * at beta): "unchanged" when it lies inside ±minimum effect.
 */
export function classify(
  change: LogInterval,
  p: number,
  alpha: number,
  minEffect: number,
  equivalence: LogInterval = change,
): { verdict: PairedVerdict; note?: string } {
  const margin = logMargin(minEffect);
  if (change.lo === undefined || change.hi === undefined)
    return { verdict: 'inconclusive', note: `too few pairs for a ${pct(1 - alpha)} interval` };
  const excludesZero = change.lo > 0 || change.hi < 0;
  const centreChange = Math.expm1(change.centre);
  const signed = `${centreChange > 0 ? '+' : ''}${pct(centreChange)}`;
  if (p < alpha && excludesZero && Math.abs(change.centre) >= margin)
    return { verdict: change.centre > 0 ? 'slower' : 'faster' };
  if (
    equivalence.lo !== undefined &&
    equivalence.hi !== undefined &&
    equivalence.lo > -margin &&
    equivalence.hi < margin
  ) {
    return excludesZero && p < alpha
      ? { verdict: 'unchanged', note: `a change of ${signed}, within the ±${pct(minEffect)} minimum effect` }
      : { verdict: 'unchanged' };
  }
  if (p >= alpha)
    return {
      verdict: 'inconclusive',
      note: `p = ${p.toFixed(3)} ≥ ${alpha}, and the interval reaches beyond ±${pct(minEffect)}`,
    };
  if (!excludesZero)
    return { verdict: 'inconclusive', note: 'the interval includes no change, and reaches beyond the minimum effect' };
  return {
    verdict: 'inconclusive',
    note: `a change of ${signed}: below the ${pct(minEffect)} minimum effect, which the interval does not exclude`,
  };
}

/**
 * Order effect: how much worse the second process of a pair is than the first, as a ratio > 1
 * when the second is worse (half the difference between the centres of the AB and BA
 * log-ratios). Randomized, balanced orders cancel it in the verdict; a large one is worth a note
 * (e.g. a page cache warmed by the first process helps the second).
 */
export function orderEffect(pairs: readonly Pair[], direction: Direction): number | undefined {
  const d = logRatios(pairs, direction);
  const ab = d.filter((_, i) => pairs[i]!.order === 'AB');
  const ba = d.filter((_, i) => pairs[i]!.order === 'BA');
  if (ab.length < 2 || ba.length < 2) return undefined;
  // With s = how much worse (log) the second process is: in AB pairs head runs second, so
  // d_AB = theta + s; in BA pairs base does, so d_BA = theta - s. Oriented d makes this hold for
  // both directions.
  return Math.exp((hodgesLehmann(ab) - hodgesLehmann(ba)) / 2);
}

export interface CompareOptions {
  /** Relative minimum effect; raised by calibration (the larger of the two is used). */
  minEffect?: number;
  /** Two-sided level of the change test (a sequential look uses its own, smaller, level). */
  alpha?: number;
  /** One-sided level of each of the two equivalence tests behind "unchanged" (default 0.05: a 90% interval). */
  equivalenceAlpha?: number;
}

/** Default level of each one-sided equivalence test of a fixed-size comparison. */
export const EQUIVALENCE_ALPHA = 0.05;

/** The fixed-size paired comparison of one point's metric. */
export function comparePaired(
  pairs: readonly Pair[],
  direction: Direction,
  opts: CompareOptions = {},
): PairedStatistics {
  const minEffect = Math.max(MIN_EFFECT, opts.minEffect ?? 0);
  const alpha = opts.alpha ?? ALPHA;
  const d = logRatios(pairs, direction);
  const w = walshAverages(d);
  const iv = intervalFromWalsh(w, d.length, alpha);
  const eq = intervalFromWalsh(w, d.length, 2 * (opts.equivalenceAlpha ?? EQUIVALENCE_ALPHA));
  const test = signedRankTest(d);
  const { verdict, note } = classify(iv, test.p, alpha, minEffect, eq);
  const oe = orderEffect(pairs, direction);
  return {
    n: pairs.length,
    baseMedian: median(pairs.map((p) => p.base)),
    headMedian: median(pairs.map((p) => p.head)),
    ratio: Math.exp(iv.centre),
    ...(iv.lo !== undefined && iv.hi !== undefined
      ? { ci: [Math.exp(iv.lo), Math.exp(iv.hi)] as [number, number] }
      : {}),
    confidence: 1 - alpha,
    p: test.p,
    exact: test.exact && d.length <= EXACT_MAX,
    verdict,
    ...(note ? { note } : {}),
    ...(oe !== undefined ? { orderEffect: oe } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Order of a pair

/**
 * The order of pair `index` (0-based) under `seed`: pairs come in blocks of two, one AB and one
 * BA in a random order per block, so orders balance exactly after every even number of pairs and
 * an order effect cannot bias the centre. Stateless: the runner records the seed in the artifact
 * and anyone can recompute the schedule.
 */
export function pairOrder(seed: number, index: number): PairOrder {
  const block = Math.floor(index / 2);
  // One draw of the seeded generator per block: mix the seed and the block number first.
  const flip = prng(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(block + 1, 0xc2b2ae35))() < 0.5;
  return (index % 2 === 0) !== flip ? 'AB' : 'BA';
}
