/**
 * Paired comparison of a fitted per-operation cost (wc: time = start-up + reads x cost, measured
 * at a small and a large input). A fit pair holds four processes measured back to back: base and
 * head, each at both sizes (in a randomized order). Start-up cancels in the difference
 * large - small, so per pair:
 *
 *   s_base = t_base(large) - t_base(small),  s_head likewise  (time of the extra reads)
 *
 * and the per-read cost ratio is s_head / s_base (the read counts cancel too).
 *
 * Two estimators are given:
 * - fitLogRatios: d_i = ln(s_head,i / s_base,i), fed to the ordinary paired machinery (the
 *   simple one). It needs every difference positive, and a difference close to 0 (a small size
 *   too close to the large one, or noise of the order of the work) gives a wild log-ratio.
 * - fitRatioIntervals (the one compareFit uses): the Wilcoxon test inverted for a RATIO. For a
 *   candidate ratio r, e_i(r) = s_head,i - r * s_base,i is symmetric about 0 when r is the true
 *   ratio (drift that scales a whole pair scales both s alike and cancels). The Walsh average
 *   (e_i + e_j) / 2 is positive exactly when r < (s_head,i + s_head,j) / (s_base,i + s_base,j),
 *   so the signed-rank statistic of e(r) counts "Walsh ratios" above r: the estimate is their
 *   median and the exact (1 - alpha) interval is their order statistics c+1 and M-c, the same
 *   critical c as the ordinary interval. Pairs are weighted by their work, so one pair with
 *   a tiny difference cannot throw the estimate; s_head may even be negative.
 *   A pair whose base took no longer at the large size (s_base <= 0: a preemption during its
 *   small run) flips the inequality for the Walsh averages whose base sum is negative; the
 *   statistic is then counted directly (ratioInterval), so a few such pairs on a busy machine
 *   cost a little precision instead of the whole point. Only when most pairs have s_base <= 0
 *   is the fit at these sizes noise (report it, do not compare).
 */
import type { PairsVerdict } from '../../model/verdicts.js';
import {
  ALPHA,
  classify,
  coverage,
  EQUIVALENCE_ALPHA,
  type LogInterval,
  MIN_EFFECT,
  signedRankCritical,
  signedRankTest,
} from './pair-statistics.js';
import { DEFAULT_PLAN, decideSequential, type SequentialPlan, type SequentialStep } from './sequential.js';

/** Wall times of one side of a fit pair at both sizes. */
export interface FitSide {
  small: number;
  large: number;
}
export interface FitPair {
  base: FitSide;
  head: FitSide;
}
/** Operations (e.g. reads that returned data) one process makes at each size. */
export interface FitSizes {
  small: number;
  large: number;
}

/** One side's fit from one pair: cost per operation and start-up (the intercept). */
export function fitSide(side: FitSide, sizes: FitSizes): { cost: number; startup: number } {
  const cost = (side.large - side.small) / (sizes.large - sizes.small);
  return { cost, startup: side.small - cost * sizes.small };
}

/** Why these fit pairs cannot be compared, or undefined. */
export function fitProblem(pairs: readonly FitPair[]): string | undefined {
  if (pairs.length === 0) return 'no pairs';
  for (const [i, p] of pairs.entries()) {
    const vals = [p.base.small, p.base.large, p.head.small, p.head.large];
    if (!vals.every((v) => Number.isFinite(v) && v > 0))
      return `pair ${i + 1} has a time that is not a positive finite number`;
  }
  const flat = pairs.filter((p) => !(p.base.large > p.base.small)).length;
  if (2 * flat >= pairs.length)
    return `in ${flat} of ${pairs.length} pairs base took no longer at the large size than at the small one: the sizes are too close for the noise, so the fit is not measurable`;
  return undefined;
}

const extra = (s: FitSide) => s.large - s.small;

/** Per-pair log-ratios of the per-operation cost (> 0: head costs more); undefined when a head difference is not positive. */
export function fitLogRatios(pairs: readonly FitPair[]): number[] | undefined {
  const problem = fitProblem(pairs);
  if (problem) throw new RangeError(problem);
  if (pairs.some((p) => !(extra(p.head) > 0 && extra(p.base) > 0))) return undefined;
  return pairs.map((p) => Math.log(extra(p.head) / extra(p.base)));
}

/**
 * The signed-rank test inverted for a ratio r, counting T(r) = #{i <= j: (e_i(r) + e_j(r)) > 0}
 * directly: a Walsh average with a positive base sum counts while r is below its ratio, one with
 * a negative base sum while r is above it, one with a zero base sum always or never. With every
 * s_base > 0 this is the order-statistic interval of the sorted Walsh ratios. The interval is
 * the hull of the r where c < T(r) < M - c (unbounded where that holds out to infinity); the
 * centre is where T crosses M/2 (the Hodges-Lehmann estimate). Ratio scale.
 */
export function ratioInterval(pairs: readonly FitPair[], alpha: number): LogInterval {
  const sb = pairs.map((p) => extra(p.base));
  const sh = pairs.map((p) => extra(p.head));
  const n = pairs.length;
  const M = (n * (n + 1)) / 2;
  // Breakpoints with the change of T when r passes them (ties merged below).
  const points: { r: number; step: number }[] = [];
  let t = 0; // T at r -> -infinity
  for (let i = 0; i < n; i++)
    for (let j = i; j < n; j++) {
      const b = sb[i]! + sb[j]!;
      const h = sh[i]! + sh[j]!;
      if (b > 0) {
        t++;
        points.push({ r: h / b, step: -1 });
      } else if (b < 0) points.push({ r: h / b, step: 1 });
      else t += h > 0 ? 1 : h === 0 ? 0.5 : 0;
    }
  points.sort((x, y) => x.r - y.r);
  // Segments between distinct breakpoints: [left end, right end, T on it].
  const segments: [number, number, number][] = [];
  let left = -Infinity;
  for (let k = 0; k < points.length; ) {
    const r = points[k]!.r;
    segments.push([left, r, t]);
    for (; k < points.length && points[k]!.r === r; k++) t += points[k]!.step;
    left = r;
  }
  segments.push([left, Infinity, t]);
  const firstLow = segments.find((g) => g[2] <= M / 2);
  const lastHigh = [...segments].reverse().find((g) => g[2] >= M / 2);
  const centre = firstLow && lastHigh ? (firstLow[0] + lastHigh[1]) / 2 : Number.NaN;
  const c = signedRankCritical(n, alpha);
  if (c < 0) return { centre, confidence: 1 - alpha };
  const accepted = segments.filter((g) => c < g[2] && g[2] < M - c);
  return {
    centre,
    lo: accepted.length ? accepted[0]![0] : centre,
    hi: accepted.length ? accepted.at(-1)![1] : centre,
    confidence: coverage(n, c),
  };
}

/**
 * The per-operation cost ratio head/base with its (1 - alpha) interval, on the log scale so the
 * ordinary verdict applies (a non-positive ratio bound maps to -Infinity); `equivalence` is the
 * (1 - 2 beta) interval; p is the p-value of "ratio = 1" (signed-rank test of s_head - s_base).
 */
export function fitRatioIntervals(
  pairs: readonly FitPair[],
  alpha = ALPHA,
  beta = EQUIVALENCE_ALPHA,
): { change: LogInterval; equivalence: LogInterval; p: number } {
  const problem = fitProblem(pairs);
  if (problem) throw new RangeError(problem);
  // A ratio bound at or below 0 is -Infinity on the log scale; an unbounded one stays Infinity.
  const log = (r: number) => (Number.isNaN(r) ? r : r > 0 ? Math.log(r) : -Infinity);
  const toLog = (iv: LogInterval): LogInterval => ({
    ...iv,
    centre: log(iv.centre),
    ...(iv.lo !== undefined ? { lo: log(iv.lo) } : {}),
    ...(iv.hi !== undefined ? { hi: log(iv.hi) } : {}),
  });
  const p = signedRankTest(pairs.map((q) => extra(q.head) - extra(q.base))).p;
  return {
    change: toLog(ratioInterval(pairs, alpha)),
    equivalence: toLog(ratioInterval(pairs, 2 * beta)),
    p,
  };
}

export interface FitComparison {
  n: number;
  /** Median per-operation cost of each side over the pairs (time unit per operation). */
  baseCost: number;
  headCost: number;
  /** Median start-up (intercept) of each side. */
  baseStartup: number;
  headStartup: number;
  /** Per-operation cost ratio head/base (> 1: head costs more). */
  ratio: number;
  ci?: [number, number];
  confidence: number;
  p: number;
  verdict: PairsVerdict;
  note?: string;
}

const medianOf = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
};

/** Fixed-size comparison of the per-operation cost of a fit experiment. */
export function compareFit(
  pairs: readonly FitPair[],
  sizes: FitSizes,
  opts: { minEffect?: number; alpha?: number; equivalenceAlpha?: number } = {},
): FitComparison {
  const alpha = opts.alpha ?? ALPHA;
  const {
    change: interval,
    equivalence,
    p,
  } = fitRatioIntervals(pairs, alpha, opts.equivalenceAlpha ?? EQUIVALENCE_ALPHA);
  const { verdict, note } = classify(interval, p, alpha, Math.max(MIN_EFFECT, opts.minEffect ?? 0), equivalence);
  const base = pairs.map((q) => fitSide(q.base, sizes));
  const head = pairs.map((q) => fitSide(q.head, sizes));
  return {
    n: pairs.length,
    baseCost: medianOf(base.map((f) => f.cost)),
    headCost: medianOf(head.map((f) => f.cost)),
    baseStartup: medianOf(base.map((f) => f.startup)),
    headStartup: medianOf(head.map((f) => f.startup)),
    ratio: Math.exp(interval.centre),
    ...(interval.lo !== undefined && interval.hi !== undefined
      ? { ci: [Math.exp(interval.lo), Math.exp(interval.hi)] as [number, number] }
      : {}),
    confidence: 1 - alpha,
    p,
    verdict,
    ...(note ? { note } : {}),
  };
}

/**
 * The sequential rule on a fit point (its pairs hold four processes each). A pair whose base
 * took no longer at the large size than at the small one stops the point as "inconclusive"
 * (reason "unmeasurable"): at these sizes the fit is noise, and more pairs will not fix that.
 */
export function decideFit(
  pairs: readonly FitPair[],
  opts: { minEffect?: number; affordablePairs: number; plan?: SequentialPlan },
): SequentialStep {
  const problem = pairs.length ? fitProblem(pairs) : undefined;
  if (problem) {
    const plan = opts.plan ?? DEFAULT_PLAN;
    const look = Math.max(
      0,
      plan.looks.findIndex((l) => l >= pairs.length),
    );
    const alpha = plan.alphas[look] ?? plan.alphas[plan.alphas.length - 1]!;
    return {
      action: 'stop',
      verdict: 'inconclusive',
      reason: 'unmeasurable',
      analysis: {
        n: pairs.length,
        look,
        alpha,
        interval: { centre: 0, confidence: 1 - alpha },
        ratio: Number.NaN,
        p: 1,
        verdict: 'inconclusive',
        note: problem,
      },
    };
  }
  return decideSequential(pairs.length, (alpha, beta) => fitRatioIntervals(pairs, alpha, beta), opts);
}
