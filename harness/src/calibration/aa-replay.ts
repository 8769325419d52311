/**
 * Calibration figures of the paired diff (`pairs`, sequential), from an A/A record of one point: the
 * log-ratios of pairs whose two sides ran the SAME build, in run order (ideally from two separate
 * checkouts, so a difference between the directories shows up as what it is: a false positive).
 *
 * - falsePositives: how often the sequential rule calls a change that is not there. Two ways:
 *   replayAA cuts the record into consecutive, disjoint experiments (real temporal structure, no
 *   resampling; needs many pairs), bootstrapReplay resamples moving blocks of consecutive pairs
 *   (keeps short-range drift, works from a few dozen pairs). Here the record is NOT re-centred:
 *   a systematic difference between the two sides must count against the design.
 *   (Sign-flipping the log-ratios would only re-measure the test's nominal level.)
 * - minimalDetectableEffect: the smallest change the rule calls with 80% power for the pairs a
 *   point got, from a robust scale of its log-ratios (analytic; empiricalMde simulates it).
 * - plantedPower: detection power for a slowdown planted by multiplying the head samples, i.e.
 *   shifting every log-ratio by ln(factor), replayed like the false positives from the record
 *   re-centred on 0 (the power of the noise, not of a chance offset).
 * Pure and seeded: the same record gives the same figures.
 */

import { type Rate, rateOf } from '../analysis/rate.js';
import { prng } from '../analysis/two-sample.js';
import type { PairsVerdict } from '../model/verdicts.js';
import { hodgesLehmann, logMargin, MIN_EFFECT, normalQuantile } from '../pairs/decide/pair-statistics.js';
import { DEFAULT_PLAN, runSequential, type SequentialPlan } from '../pairs/decide/sequential.js';

export { type Rate, rateOf, wilsonInterval } from '../analysis/rate.js';

export interface VerdictTally {
  trials: number;
  slower: number;
  faster: number;
  unchanged: number;
  inconclusive: number;
  /** Mean pairs an experiment used. */
  meanPairs: number;
}

function tally(results: readonly { verdict: PairsVerdict; n: number }[]): VerdictTally {
  const o: VerdictTally = { trials: results.length, slower: 0, faster: 0, unchanged: 0, inconclusive: 0, meanPairs: 0 };
  for (const r of results) {
    o[r.verdict]++;
    o.meanPairs += r.n / Math.max(1, results.length);
  }
  return o;
}

interface RuleOptions {
  plan?: SequentialPlan;
  minEffect?: number;
}

/**
 * The A/A record cut into consecutive experiments of the sequential rule: each one reads pairs
 * from where the previous one stopped, with the plan's full budget (a tail too short for the
 * whole plan is left out). Slower + faster over trials is the false-positive rate.
 */
export function replayAA(d: readonly number[], opts: RuleOptions & { shift?: number } = {}): VerdictTally {
  const plan = opts.plan ?? DEFAULT_PLAN;
  const maxPairs = plan.looks[plan.looks.length - 1]!;
  const shift = opts.shift ?? 0;
  const results: { verdict: PairsVerdict; n: number }[] = [];
  let at = 0;
  while (d.length - at >= maxPairs) {
    let pos = at;
    const r = runSequential(
      (k) => {
        const out = d.slice(pos, pos + k).map((x) => x + shift);
        pos += out.length;
        return out;
      },
      { affordablePairs: maxPairs, plan, ...(opts.minEffect !== undefined ? { minEffect: opts.minEffect } : {}) },
    );
    results.push(r);
    at = pos;
  }
  return tally(results);
}

/**
 * Moving-block bootstrap replay: each trial is a fresh stream of pairs made of blocks of `block`
 * consecutive log-ratios (circular), run through the sequential rule. `shift` (log) plants a
 * change: ln(1.05) = head 5% slower.
 */
export function bootstrapReplay(
  d: readonly number[],
  opts: RuleOptions & { shift?: number; trials?: number; seed?: number; block?: number } = {},
): VerdictTally {
  if (d.length === 0) throw new RangeError('bootstrap replay of no pairs');
  const plan = opts.plan ?? DEFAULT_PLAN;
  const maxPairs = plan.looks[plan.looks.length - 1]!;
  const { shift = 0, trials = 200, seed = 1 } = opts;
  const block = Math.max(1, Math.min(opts.block ?? 4, d.length));
  const rand = prng(seed);
  const results: { verdict: PairsVerdict; n: number }[] = [];
  for (let t = 0; t < trials; t++) {
    let start = Math.floor(rand() * d.length);
    let inBlock = 0;
    const stream = (k: number) => {
      const out: number[] = [];
      for (let i = 0; i < k; i++) {
        if (inBlock === block) {
          start = Math.floor(rand() * d.length);
          inBlock = 0;
        }
        out.push(d[(start + inBlock) % d.length]! + shift);
        inBlock++;
      }
      return out;
    };
    results.push(
      runSequential(stream, {
        affordablePairs: maxPairs,
        plan,
        ...(opts.minEffect !== undefined ? { minEffect: opts.minEffect } : {}),
      }),
    );
  }
  return tally(results);
}

/** False-positive rate of the rule on an A/A record (bootstrap replay). */
export function falsePositives(
  d: readonly number[],
  opts: RuleOptions & { trials?: number; seed?: number; block?: number } = {},
): Rate & { outcomes: VerdictTally } {
  const o = bootstrapReplay(d, { ...opts, shift: 0 });
  return { ...rateOf(o.slower + o.faster, o.trials), outcomes: o };
}

/**
 * Detection power for a planted change: the head multiplied by `factor` (> 1: slower). The
 * record is first re-centred on its Hodges-Lehmann estimate (unless `recentre: false`), so the
 * power is that of the noise alone: a chance offset of the A/A record (or a side bias, which
 * falsePositives reports) does not make a planted slowdown look easier or harder to find.
 */
export function plantedPower(
  d: readonly number[],
  factor: number,
  opts: RuleOptions & { trials?: number; seed?: number; block?: number; recentre?: boolean } = {},
): Rate & { outcomes: VerdictTally } {
  if (!(factor > 0) || factor === 1)
    throw new RangeError(`planted factor ${factor}: expected a positive factor other than 1`);
  const offset = opts.recentre === false || d.length === 0 ? 0 : hodgesLehmann(d);
  const o = bootstrapReplay(d, { ...opts, shift: Math.log(factor) - offset });
  return { ...rateOf(factor > 1 ? o.slower : o.faster, o.trials), outcomes: o };
}

/** Robust scale of the log-ratios: 1.4826 x median absolute deviation (= the SD for normal data). */
export function robustScale(d: readonly number[]): number {
  if (d.length === 0) return 0;
  const med = (xs: number[]) => {
    const s = xs.sort((a, b) => a - b);
    const h = s.length >> 1;
    return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
  };
  const m = med([...d]);
  return 1.482602 * med(d.map((x) => Math.abs(x - m)));
}

/**
 * Minimal detectable effect (relative, e.g. 0.03 = 3%) of one paired comparison of n pairs at
 * two-sided level alpha with the given power, for log-ratios of scale `scale`. The Hodges-Lehmann
 * centre has standard error ~ scale / sqrt(n * 3 / pi) (Wilcoxon's efficiency on normal data), and a
 * call also needs the centre to reach the minimum effect, so the MDE is the larger of
 * (z_alpha/2 + z_power) * se and margin + z_power * se.
 */
export function minimalDetectableEffect(opts: {
  n: number;
  scale: number;
  alpha: number;
  power?: number;
  minEffect?: number;
}): number {
  const { n, scale, alpha, power = 0.8 } = opts;
  if (n <= 0) return Infinity;
  const se = scale / Math.sqrt((n * 3) / Math.PI);
  const zA = normalQuantile(1 - alpha / 2);
  const zB = normalQuantile(power);
  const margin = logMargin(Math.max(MIN_EFFECT, opts.minEffect ?? 0));
  return Math.expm1(Math.max((zA + zB) * se, margin + zB * se));
}

/**
 * Empirical MDE of the sequential rule on an A/A record: the smallest planted slowdown called
 * "slower" in at least `power` of the bootstrap replays of the re-centred record (bisection on
 * the factor; the same seed for every factor makes the power non-decreasing in it). Returns
 * Infinity when even `maxEffect` is not detected that often.
 */
export function empiricalMde(
  d: readonly number[],
  opts: RuleOptions & {
    power?: number;
    trials?: number;
    seed?: number;
    block?: number;
    maxEffect?: number;
    tolerance?: number;
  } = {},
): number {
  const { power = 0.8, maxEffect = 1, tolerance = 0.0025 } = opts;
  const powerAt = (effect: number) => plantedPower(d, 1 + effect, opts).rate;
  if (powerAt(maxEffect) < power) return Infinity;
  let lo = 0;
  let hi = maxEffect;
  while (hi - lo > tolerance) {
    const mid = (lo + hi) / 2;
    if (powerAt(mid) >= power) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The calibrated noise threshold of a point: the smallest minimum effect (>= 2%) at which its
 * A/A false-positive rate (bootstrap replay, not re-centred) is at most `target`. For a point
 * whose two sides differ systematically (another directory, a cache that favours one side) this
 * rises above 2% so that the bias is not reported as a change; for most points it stays 2%.
 * Raising the minimum effect only removes verdicts of a change, so the rate falls as it rises (bisection).
 * Returns Infinity when even `maxEffect` leaves too many false positives.
 */
export function calibratedThreshold(
  d: readonly number[],
  opts: RuleOptions & {
    target?: number;
    trials?: number;
    seed?: number;
    block?: number;
    maxEffect?: number;
    tolerance?: number;
  } = {},
): number {
  const { target = 0.05, maxEffect = 0.5, tolerance = 0.001 } = opts;
  const fpAt = (m: number) => falsePositives(d, { ...opts, minEffect: m }).rate;
  if (fpAt(MIN_EFFECT) <= target) return MIN_EFFECT;
  if (fpAt(maxEffect) > target) return Infinity;
  let lo = MIN_EFFECT;
  let hi = maxEffect;
  while (hi - lo > tolerance) {
    const mid = (lo + hi) / 2;
    if (fpAt(mid) <= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

export interface PointCalibration {
  /** Pairs in the A/A record. */
  pairs: number;
  /** Centre of the A/A record as a ratio (1 = no side bias). */
  aaRatio: number;
  /** Robust scale of the log-ratios (~ relative noise of one pair). */
  scale: number;
  falsePositives: Rate;
  /** Consecutive-experiment replay, when the record holds at least 5 whole experiments. */
  replay?: VerdictTally;
  /** Analytic MDE (80% power) at `pairsGot` pairs, at the level of the look those pairs reach. */
  mde: number;
  /** Power to call a planted `plantedFactor` slowdown "slower". */
  power: Rate & { factor: number };
  threshold: number;
}

/**
 * Every calibration figure of one point from its A/A record (log-ratios in run order).
 * `pairsGot` = the pairs the point gets in a paired diff (default: the plan's last look).
 */
export function calibratePoint(
  d: readonly number[],
  opts: RuleOptions & {
    pairsGot?: number;
    plantedFactor?: number;
    trials?: number;
    seed?: number;
    block?: number;
  } = {},
): PointCalibration {
  if (d.length === 0) throw new RangeError('calibration of no pairs');
  const plan = opts.plan ?? DEFAULT_PLAN;
  const last = plan.looks.length - 1;
  const pairsGot = opts.pairsGot ?? plan.looks[last]!;
  const look = plan.looks.findIndex((l) => l >= pairsGot);
  const alpha = plan.alphas[look < 0 ? last : look]!;
  const factor = opts.plantedFactor ?? 1.05;
  const threshold = calibratedThreshold(d, opts);
  const replay = d.length >= 5 * plan.looks[last]! ? replayAA(d, opts) : undefined;
  return {
    pairs: d.length,
    aaRatio: Math.exp(hodgesLehmann(d)),
    scale: robustScale(d),
    falsePositives: falsePositives(d, opts),
    ...(replay ? { replay } : {}),
    mde: minimalDetectableEffect({
      n: pairsGot,
      scale: robustScale(d),
      alpha,
      ...(opts.minEffect !== undefined ? { minEffect: opts.minEffect } : {}),
    }),
    power: { ...plantedPower(d, factor, opts), factor },
    threshold,
  };
}
