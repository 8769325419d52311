/**
 * Sequential sampling of pairs: a point gets more pairs until its interval calls a change of the
 * minimum effect either way ("slower"/"faster"/"unchanged"), or its last planned look or its
 * share of the time budget is reached ("inconclusive": an honest answer).
 *
 * Looking at the data several times and stopping at the first significant look inflates false
 * positives (five looks at 5% each call about 14% of A/A comparisons). The rule here is a group
 * sequential design with a few PLANNED looks and an alpha spent per look: look k tests at level
 * alphas[k] and sum(alphas) <= alpha. By the union bound the probability that ANY look calls a
 * change that does not exist is then <= alpha, whatever the correlation between looks, whatever
 * the data, and also when the budget cuts the sequence short (a cut look uses the level of the
 * look it replaces, so no level is spent twice). The same interval also decides "unchanged"
 * (inside ±minimum effect), which is an equivalence test at alphas[k] / 2 per side.
 *
 * Pure and stateless: the step depends only on the pairs so far, the plan and the budget,
 * so the runner can call it after every batch and a replay gives the same answers.
 */
import type { Direction } from '../../model/metrics.js';
import type { PairsVerdict } from '../../model/verdicts.js';
import {
  ALPHA,
  classify,
  hodgesLehmann,
  intervalFromWalsh,
  type LogInterval,
  logRatios,
  MIN_EFFECT,
  type Pair,
  signedRankTest,
  walshAverages,
} from './pair-statistics.js';

export interface SequentialPlan {
  /** Cumulative pair counts at which the data are analysed, increasing (even: orders balance in blocks of two). */
  looks: readonly number[];
  /** Two-sided level of the change test spent at each look; their sum bounds the false positives. */
  alphas: readonly number[];
  /** One-sided level of the equivalence tests at each look; their sum bounds calling a change of the minimum effect "unchanged". */
  betas: readonly number[];
}

/**
 * Total one-sided level of the equivalence tests: a change of exactly the minimum effect is
 * called "unchanged" at most this often (a larger change much less often).
 */
const EQUIVALENCE_BETA = 0.1;

/**
 * Spends `alpha` over `looks` in proportion to `weights` (default: increasing 1, 2, 3, ...: early
 * looks spend little, so only large changes stop early and the last look keeps most of the
 * power, in the spirit of O'Brien-Fleming boundaries but valid by the union bound alone).
 */
export function makePlan(
  looks: readonly number[],
  alpha = ALPHA,
  weights?: readonly number[],
  beta = EQUIVALENCE_BETA,
): SequentialPlan {
  if (looks.length === 0) throw new RangeError('a plan needs at least one look');
  looks.forEach((n, i) => {
    if (!Number.isInteger(n) || n < 2 || (i > 0 && n <= looks[i - 1]!))
      throw new RangeError(`looks must be increasing integers >= 2, got ${looks.join(', ')}`);
  });
  const w = weights ?? looks.map((_, i) => i + 1);
  if (w.length !== looks.length || w.some((x) => !(x > 0))) throw new RangeError('one positive weight per look');
  const sum = w.reduce((a, b) => a + b, 0);
  return { looks: [...looks], alphas: w.map((x) => (alpha * x) / sum), betas: w.map((x) => (beta * x) / sum) };
}

/**
 * The paired diff's default plan: looks at 10, 20, 40 and 60 pairs; the 5% false-positive bound spent
 * as 0.5%, 1%, 1.5%, 2% and the 10% equivalence bound as 1%, 2%, 3%, 4%. Chosen by simulation:
 * docs/paired-design.md has the noise simulated and the false positives, power and pairs it gave.
 * The first look at 10 pairs is the smallest whose 99.5% exact interval exists (n >= 9).
 */
export const DEFAULT_PLAN: SequentialPlan = makePlan([10, 20, 40, 60]);

/** A point's pairs analysed at one look of the plan (not a manifest's analysis). */
export interface LookAnalysis {
  /** Pairs analysed. */
  n: number;
  /** Index of the look (in plan.looks) this analysis stands for. */
  look: number;
  alpha: number;
  /** The change interval on the log scale (> 0 = head worse). */
  interval: LogInterval;
  /** exp(centre): > 1 means head is worse. */
  ratio: number;
  /** The change interval as ratios, absent when too few pairs for one. */
  ci?: [number, number];
  /** The equivalence interval as ratios (level 1 - 2 beta): what an "unchanged" verdict was decided on. */
  equivalence?: { ci: [number, number]; confidence: number };
  p: number;
  verdict: PairsVerdict;
  note?: string;
}

function asRatios(iv: LogInterval): { ratio: number; ci?: [number, number] } {
  return {
    ratio: Math.exp(iv.centre),
    ...(iv.lo !== undefined && iv.hi !== undefined
      ? { ci: [Math.exp(iv.lo), Math.exp(iv.hi)] as [number, number] }
      : {}),
  };
}

/**
 * The pairs to ask for on the way to a look `need` pairs away, as far as the budget goes: all of
 * them, else the budget in whole blocks of two (orders balance), else what is left.
 */
export function pairsToward(need: number, affordablePairs: number): number {
  return need <= affordablePairs
    ? need
    : affordablePairs >= 2
      ? affordablePairs - (affordablePairs % 2)
      : affordablePairs;
}

export type SequentialStep =
  | {
      action: 'stop';
      verdict: PairsVerdict;
      /**
       * decided: the interval called it; last-look: the plan's last look was inconclusive;
       * budget: the time ran out first; unmeasurable: the data cannot be compared (see note).
       */
      reason: 'decided' | 'last-look' | 'budget' | 'unmeasurable';
      analysis: LookAnalysis;
    }
  | {
      action: 'continue';
      /** Pairs to measure before calling again. */
      more: number;
      /** The look those pairs lead to. */
      look: number;
      /** The analysis just made, when this call was at a look. */
      analysis?: LookAnalysis;
    };

/**
 * What the rule needs from an analysis at a look: the (1 - alpha) change interval, the
 * (1 - 2 beta) equivalence interval, both on the log scale, and the change test's p-value.
 */
export type Analyse = (alpha: number, beta: number) => { change: LogInterval; equivalence: LogInterval; p: number };

/** The analysis of paired log-ratios (one sort of the Walsh averages serves both intervals). */
export function analyseLogRatios(d: readonly number[]): Analyse {
  let w: Float64Array | undefined;
  let p: number | undefined;
  return (alpha, beta) => {
    w ??= walshAverages(d);
    p ??= signedRankTest(d).p;
    return { change: intervalFromWalsh(w, d.length, alpha), equivalence: intervalFromWalsh(w, d.length, 2 * beta), p };
  };
}

/**
 * The generic rule. `n` = pairs so far; `affordablePairs` = pairs the point can still afford (its
 * share of the time budget divided by the seconds one pair takes).
 */
export function decideSequential(
  n: number,
  analyse: Analyse,
  opts: { minEffect?: number; affordablePairs: number; plan?: SequentialPlan },
): SequentialStep {
  const plan = opts.plan ?? DEFAULT_PLAN;
  const minEffect = Math.max(MIN_EFFECT, opts.minEffect ?? 0);
  const affordablePairs = Math.max(0, Math.floor(opts.affordablePairs));
  const last = plan.looks.length - 1;
  // The look n stands for: the first planned look >= n (n between looks = a look cut short).
  let look = plan.looks.findIndex((l) => l >= n);
  if (look < 0) look = last;
  const target = plan.looks[look]!;
  // Before a look: take the pairs it needs, as far as the budget goes (in whole blocks of two).
  if (n < target && affordablePairs > 0) {
    return { action: 'continue', more: pairsToward(target - n, affordablePairs), look };
  }
  const alpha = plan.alphas[look]!;
  if (n === 0) {
    const analysis: LookAnalysis = {
      n,
      look,
      alpha,
      interval: { centre: 0, confidence: 1 - alpha },
      ratio: 1,
      p: 1,
      verdict: 'inconclusive',
      note: 'no budget for a single pair',
    };
    return { action: 'stop', verdict: 'inconclusive', reason: 'budget', analysis };
  }
  const { change, equivalence, p } = analyse(alpha, plan.betas[look]!);
  const c = classify(change, p, alpha, minEffect, equivalence);
  const analysis: LookAnalysis = {
    n,
    look,
    alpha,
    interval: change,
    ...asRatios(change),
    ...(equivalence.lo !== undefined && equivalence.hi !== undefined
      ? {
          equivalence: {
            ci: [Math.exp(equivalence.lo), Math.exp(equivalence.hi)] as [number, number],
            confidence: 1 - 2 * plan.betas[look]!,
          },
        }
      : {}),
    p,
    verdict: c.verdict,
    ...(c.note ? { note: c.note } : {}),
  };
  if (c.verdict !== 'inconclusive') return { action: 'stop', verdict: c.verdict, reason: 'decided', analysis };
  if (n < target || look === last)
    return { action: 'stop', verdict: 'inconclusive', reason: n < target ? 'budget' : 'last-look', analysis };
  if (affordablePairs === 0) return { action: 'stop', verdict: 'inconclusive', reason: 'budget', analysis };
  return {
    action: 'continue',
    more: pairsToward(plan.looks[look + 1]! - n, affordablePairs),
    look: look + 1,
    analysis,
  };
}

/** The sequential rule on paired log-ratios (one metric of one point). */
export function decidePairs(
  pairs: readonly Pair[],
  direction: Direction,
  opts: { minEffect?: number; affordablePairs: number; plan?: SequentialPlan },
): SequentialStep {
  const d = pairs.length ? logRatios(pairs, direction) : [];
  return decideSequential(pairs.length, analyseLogRatios(d), opts);
}

/**
 * Runs the rule to its end over a stream of log-ratios (simulation and calibration replays):
 * `next(k)` yields the next k log-ratios. Returns the final stop and the pairs used.
 */
export function runSequential(
  next: (k: number) => readonly number[],
  opts: { minEffect?: number; affordablePairs: number; plan?: SequentialPlan },
): {
  verdict: PairsVerdict;
  reason: 'decided' | 'last-look' | 'budget' | 'unmeasurable';
  n: number;
  centre: number;
  analysis: LookAnalysis;
} {
  const d: number[] = [];
  let affordablePairs = Math.floor(opts.affordablePairs);
  for (;;) {
    const step = decideSequential(d.length, analyseLogRatios(d), { ...opts, affordablePairs });
    if (step.action === 'stop') {
      return {
        verdict: step.verdict,
        reason: step.reason,
        n: d.length,
        centre: d.length ? hodgesLehmann(d) : 0,
        analysis: step.analysis,
      };
    }
    const got = next(step.more);
    d.push(...got);
    affordablePairs -= step.more;
    // A source that runs dry ends the sequence like a spent budget.
    if (got.length < step.more) affordablePairs = 0;
  }
}
