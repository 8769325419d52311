/**
 * Paired comparison of base and head: the statistics of the paired diff (`pairs`), whose unit is the PAIR (one
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
import {
  ALPHA,
  EXACT_MAX,
  hodgesLehmann,
  intervalFromWalsh,
  type LogInterval,
  signedRankTest,
  walshAverages,
} from '../../analysis/signed-rank.js';
import { MIN_EFFECT, median, prng } from '../../analysis/two-sample.js';
import type { Direction } from '../../model/metrics.js';
import type { PairsVerdict } from '../../model/verdicts.js';

export {
  ALPHA,
  bootstrapCentreInterval,
  centreInterval,
  coverage,
  hodgesLehmann,
  intervalFromWalsh,
  type LogInterval,
  normalCdf,
  normalQuantile,
  signedRankCritical,
  signedRankTest,
  walshAverages,
} from '../../analysis/signed-rank.js';

export { MIN_EFFECT } from '../../analysis/two-sample.js';

/** AB = base ran first, head second; BA = head first. */
export type PairOrder = 'AB' | 'BA';

export interface Pair {
  base: number;
  head: number;
  order?: PairOrder;
}

/** The fixed-size paired comparison of one metric (comparePairs); comparison.json's is formats/pairs-format.ts's PairsComparison. */
export interface PairsStatistics {
  /** Pairs used. */
  n: number;
  baseMedian: number;
  headMedian: number;
  /** exp(Hodges-Lehmann centre of the log-ratios): > 1 means head is worse. */
  ratio: number;
  /** The change interval as ratios, absent when too few pairs for one. */
  ci?: [number, number];
  /** Level the interval was asked at (1 - alpha). */
  confidence: number;
  p: number;
  /** True when p and the interval come from the exact distribution. */
  exact: boolean;
  verdict: PairsVerdict;
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
): { verdict: PairsVerdict; note?: string } {
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
      note: `p = ${p >= 0.001 ? p.toFixed(3) : p.toPrecision(2)} ≥ ${Number(alpha.toPrecision(2))}, and the interval reaches beyond ±${pct(minEffect)}`,
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
export function comparePairs(pairs: readonly Pair[], direction: Direction, opts: CompareOptions = {}): PairsStatistics {
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
