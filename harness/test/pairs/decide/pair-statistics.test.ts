// Paired statistics of the PR diff (harness/src/pairs/decide/): fixtures with known
// answers, brute-force cross-checks of the exact distributions, and seeded simulations of the
// sequential rule (small enough to run in a few seconds; no timing assertions).
import { describe, expect, it } from 'vitest';
import { compareCounter, comparePairsCounter } from '../../../src/analysis/exact-counters.js';
import { prng } from '../../../src/analysis/two-sample.js';
import {
  bootstrapReplay,
  calibratedThreshold,
  calibratePoint,
  empiricalMde,
  falsePositives,
  minimalDetectableEffect,
  plantedPower,
  replayAA,
  robustScale,
  wilsonInterval,
} from '../../../src/calibration/aa-replay.js';
import {
  compareFit,
  decideFit,
  type FitPair,
  fitLogRatios,
  fitProblem,
  fitRatioIntervals,
  fitSide,
  ratioInterval,
} from '../../../src/pairs/decide/fit-pairs.js';
import {
  bootstrapCentreInterval,
  centreInterval,
  classify,
  comparePairs,
  hodgesLehmann,
  logRatios,
  normalCdf,
  normalQuantile,
  orderEffect,
  type Pair,
  pairOrder,
  pairProblem,
  signedRankCritical,
  signedRankTest,
  walshAverages,
} from '../../../src/pairs/decide/pair-statistics.js';
import {
  type Analyse,
  analyseLogRatios,
  DEFAULT_PLAN,
  decidePairs,
  decideSequential,
  makePlan,
  runSequential,
  type SequentialPlan,
} from '../../../src/pairs/decide/sequential.js';
import { shareBudget } from '../../../src/pairs/decide/time-budget.js';

// ---------------------------------------------------------------------------------------------
// Helpers

/** Exhaustive two-sided signed-rank p-value over all 2^n sign patterns (mid-ranks, zeros dropped). */
function bruteForceP(d: readonly number[]): number {
  const nz = d.filter((x) => x !== 0);
  const abs = nz.map(Math.abs);
  const rank = abs.map((a) => {
    const less = abs.filter((b) => b < a).length;
    const equal = abs.filter((b) => b === a).length;
    return less + (equal + 1) / 2;
  });
  const t = nz.reduce((acc, x, i) => acc + (x > 0 ? rank[i]! : 0), 0);
  let lower = 0;
  let upper = 0;
  const total = 2 ** nz.length;
  for (let mask = 0; mask < total; mask++) {
    let s = 0;
    for (let i = 0; i < nz.length; i++) if (mask & (1 << i)) s += rank[i]!;
    if (s <= t + 1e-9) lower++;
    if (s >= t - 1e-9) upper++;
  }
  return Math.min(1, (2 * Math.min(lower, upper)) / total);
}

const gaussian = (rand: () => number) => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());

describe('log-ratios', () => {
  it('are > 0 when head is worse, for both directions', () => {
    const time = logRatios([{ base: 100, head: 110 }], 'smaller');
    expect(time[0]).toBeCloseTo(Math.log(1.1), 12);
    const throughput = logRatios([{ base: 100, head: 90 }], 'bigger');
    expect(throughput[0]).toBeCloseTo(Math.log(100 / 90), 12);
    expect(logRatios([{ base: 100, head: 90 }], 'smaller')[0]).toBeLessThan(0);
  });

  it('refuse values a ratio cannot be taken of, naming the pair', () => {
    expect(pairProblem([])).toBe('no pairs');
    expect(
      pairProblem([
        { base: 1, head: 1 },
        { base: 0, head: 1 },
      ]),
    ).toMatch(/^pair 2 .*too fast to time/);
    expect(pairProblem([{ base: 1, head: Number.NaN }])).toMatch(/^pair 1/);
    expect(pairProblem([{ base: 1, head: 2 }])).toBeUndefined();
    expect(() => logRatios([{ base: -1, head: 1 }], 'smaller')).toThrow(RangeError);
  });
});

describe('Hodges-Lehmann centre', () => {
  it('is the median of the Walsh averages', () => {
    expect([...walshAverages([1, 2, 3])]).toEqual([1, 1.5, 2, 2, 2.5, 3]);
    expect(hodgesLehmann([1, 2, 3])).toBe(2);
    // Walsh averages of [0, 0, 10]: 0, 0, 0, 5, 5, 10.
    expect(hodgesLehmann([0, 0, 10])).toBe(2.5);
    expect(hodgesLehmann([4])).toBe(4);
    expect(() => hodgesLehmann([])).toThrow(RangeError);
  });

  it('ignores one wild value that moves the mean a lot', () => {
    const d = [0.01, 0.012, 0.009, 0.011, 0.01, 0.013, 0.008, 0.5];
    expect(hodgesLehmann(d)).toBeLessThan(0.013);
    expect(d.reduce((a, b) => a + b) / d.length).toBeGreaterThan(0.07);
  });
});

describe('normal distribution helpers', () => {
  it('match tabulated values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-3)).toBeCloseTo(0.0013499, 6);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 5);
    expect(normalQuantile(0.0025)).toBeCloseTo(-2.807034, 5);
    expect(normalQuantile(0.5)).toBe(0);
    for (const p of [0.001, 0.02, 0.3, 0.7, 0.99]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 6);
  });
});

describe('Wilcoxon signed-rank test', () => {
  it("gives the exact p-value of Darwin's maize data (n = 15, T- = 24: p = 1352/32768)", () => {
    const d = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75];
    const t = signedRankTest(d);
    expect(t.n).toBe(15);
    expect(t.tPlus).toBe(120 - 24);
    expect(t.exact).toBe(true);
    expect(t.p * 2 ** 15).toBeCloseTo(1352, 6);
  });

  it('agrees with exhaustive enumeration, with ties and zeros', () => {
    const rand = prng(11);
    for (let trial = 0; trial < 30; trial++) {
      const n = 3 + (trial % 10);
      // Rounded values make ties and zeros common.
      const d = Array.from({ length: n }, () => Math.round((rand() - 0.4) * 6));
      expect(signedRankTest(d).p, `d = ${d.join(',')}`).toBeCloseTo(bruteForceP(d), 10);
    }
  });

  it('drops zeros (Wilcoxon): three positives alone give p = 2/8', () => {
    expect(signedRankTest([0, 0, 1, 2, 3]).p).toBeCloseTo(0.25, 12);
    expect(signedRankTest([0, 0, 0]).p).toBe(1);
  });

  it('switches to the normal approximation beyond the exact range, with a close p-value', () => {
    const rand = prng(5);
    const d = Array.from({ length: 260 }, () => gaussian(rand) + 0.15);
    const t = signedRankTest(d);
    expect(t.exact).toBe(false);
    expect(t.p).toBeGreaterThan(0);
    expect(t.p).toBeLessThan(0.05);
    // The same data cut to 200 values is exact; both see a shift of 0.15 sd.
    const exact = signedRankTest(d.slice(0, 200));
    expect(exact.exact).toBe(true);
    expect(exact.p).toBeLessThan(0.1);
  });

  it('has the tabulated two-sided critical values (reject when T <= c)', () => {
    const at05: Record<number, number> = {
      6: 0,
      7: 2,
      8: 3,
      9: 5,
      10: 8,
      11: 10,
      12: 13,
      13: 17,
      14: 21,
      15: 25,
      20: 52,
      25: 89,
      30: 137,
    };
    for (const [n, c] of Object.entries(at05)) expect(signedRankCritical(Number(n), 0.05), `n = ${n}`).toBe(c);
    const at01: Record<number, number> = { 8: 0, 9: 1, 10: 3, 12: 7, 15: 15, 20: 37, 25: 68, 30: 109 };
    for (const [n, c] of Object.entries(at01)) expect(signedRankCritical(Number(n), 0.01), `n = ${n}`).toBe(c);
    expect(signedRankCritical(5, 0.05)).toBe(-1); // 2^-5 > 2.5%: no 95% interval from 5 pairs
    expect(signedRankCritical(8, 0.005)).toBe(-1);
    expect(signedRankCritical(9, 0.005)).toBe(0);
    // Normal approximation just above the exact range stays next to the exact value.
    const exact200 = signedRankCritical(200, 0.05);
    const approx201 = signedRankCritical(201, 0.05);
    expect(approx201 - exact200).toBeGreaterThan(80);
    expect(approx201 - exact200).toBeLessThan(120);
  });
});

describe('the interval for the centre', () => {
  it('is [min, max] of the differences for 6 pairs, with coverage 1 - 2/64', () => {
    const d = [0.03, -0.01, 0.02, 0.05, 0.0, 0.04];
    const iv = centreInterval(d, 0.05);
    expect(iv.lo).toBe(-0.01);
    expect(iv.hi).toBe(0.05);
    expect(iv.confidence).toBeCloseTo(1 - 2 / 64, 12);
    expect(iv.centre).toBe(hodgesLehmann(d));
  });

  it('does not exist when too few pairs could ever reach the level', () => {
    const iv = centreInterval([0.1, 0.2, 0.3, 0.4, 0.5], 0.05);
    expect(iv.lo).toBeUndefined();
    expect(iv.hi).toBeUndefined();
    expect(iv.centre).toBe(0.3);
  });

  it('excludes 0 exactly when the test is significant (untied data)', () => {
    const rand = prng(21);
    let significant = 0;
    for (let trial = 0; trial < 300; trial++) {
      const n = 6 + (trial % 25);
      const d = Array.from({ length: n }, () => gaussian(rand) * 0.05 + 0.02);
      const iv = centreInterval(d, 0.05);
      const excludes = iv.lo! > 0 || iv.hi! < 0;
      const p = signedRankTest(d).p;
      expect(excludes, `n = ${n}, p = ${p}`).toBe(p <= 0.05);
      if (excludes) significant++;
    }
    // Both outcomes occurred, so the check above compared something.
    expect(significant).toBeGreaterThan(30);
    expect(significant).toBeLessThan(270);
  });

  it('covers the true centre about 95% of the time, skewed noise included', () => {
    const rand = prng(3);
    let covered = 0;
    const trials = 400;
    for (let t = 0; t < trials; t++) {
      // Symmetric heavy-ish tails: a difference of two log-normal-with-outlier processes.
      const d = Array.from({ length: 15 }, () => {
        const a = 0.04 * gaussian(rand) + (rand() < 0.05 ? 0.3 : 0);
        const b = 0.04 * gaussian(rand) + (rand() < 0.05 ? 0.3 : 0);
        return 0.03 + a - b;
      });
      const iv = centreInterval(d, 0.05);
      if (iv.lo! < 0.03 && 0.03 < iv.hi!) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.92);
    expect(covered / trials).toBeLessThan(0.985);
  });

  it('bootstrap over pairs is deterministic per seed and surrounds the centre', () => {
    const rand = prng(8);
    const d = Array.from({ length: 20 }, () => 0.02 + 0.03 * gaussian(rand));
    const a = bootstrapCentreInterval(d, { seed: 4, iterations: 500 });
    expect(bootstrapCentreInterval(d, { seed: 4, iterations: 500 })).toEqual(a);
    expect(bootstrapCentreInterval(d, { seed: 5, iterations: 500 })).not.toEqual(a);
    expect(a[0]).toBeLessThan(hodgesLehmann(d));
    expect(a[1]).toBeGreaterThan(hodgesLehmann(d));
    const exact = centreInterval(d, 0.05);
    // Same ballpark as the exact interval (within a factor of two in width).
    const ratio = (a[1] - a[0]) / (exact.hi! - exact.lo!);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
    const m = bootstrapCentreInterval(d, { seed: 4, iterations: 500, statistic: 'median' });
    expect(m).not.toEqual(a);
  });
});

describe('the verdict', () => {
  const iv = (centre: number, lo: number, hi: number) => ({
    centre: Math.log1p(centre),
    lo: Math.log1p(lo),
    hi: Math.log1p(hi),
    confidence: 0.95,
  });
  it.each([
    ['a significant 5% slowdown', iv(0.05, 0.03, 0.07), 0.001, 'slower'],
    ['a significant 5% speed-up', iv(-0.05, -0.07, -0.03), 0.001, 'faster'],
    ['an interval inside ±2%', iv(0.001, -0.01, 0.012), 0.8, 'unchanged'],
    ['a significant change below the minimum effect, interval inside ±2%', iv(0.01, 0.005, 0.015), 0.001, 'unchanged'],
    ['a significant 1% change whose interval reaches 3%', iv(0.01, 0.002, 0.03), 0.01, 'inconclusive'],
    ['a wide interval around 0', iv(0.0, -0.05, 0.05), 0.9, 'inconclusive'],
    ['a 5% centre that is not significant', iv(0.05, -0.01, 0.11), 0.2, 'inconclusive'],
  ])('%s: %s', (_label, interval, p, verdict) => {
    expect(classify(interval, p, 0.05, 0.02).verdict).toBe(verdict);
  });

  it('uses the larger calibrated threshold', () => {
    expect(classify(iv(0.05, 0.03, 0.07), 0.001, 0.05, 0.06).verdict).toBe('inconclusive');
    expect(classify(iv(0.05, 0.03, 0.07), 0.001, 0.05, 0.08).verdict).toBe('unchanged');
  });

  it('says why it did not call a change', () => {
    expect(classify(iv(0.01, 0.002, 0.03), 0.01, 0.05, 0.02).note).toMatch(/\+1\.0%: below the 2\.0% minimum effect/);
    expect(classify(iv(0.05, -0.01, 0.11), 0.2, 0.05, 0.02).note).toMatch(/^p = 0\.200/);
    expect(classify({ centre: 0.01, confidence: 0.95 }, 1, 0.05, 0.02).note).toMatch(/too few pairs/);
  });

  it('decides "unchanged" on the equivalence interval when one is given', () => {
    const wide = iv(0.0, -0.03, 0.03);
    const narrow = iv(0.0, -0.015, 0.015);
    expect(classify(wide, 0.9, 0.05, 0.02).verdict).toBe('inconclusive');
    expect(classify(wide, 0.9, 0.05, 0.02, narrow).verdict).toBe('unchanged');
  });
});

/** Pairs of log-normal timings around `centre`, head multiplied by `factor`, in the balanced random order. */
function pairs(n: number, factor: number, cv: number, seed: number, opts: { orderEffect?: number } = {}): Pair[] {
  const rand = prng(seed);
  const sigma = Math.sqrt(Math.log(1 + cv * cv));
  const proc = () => Math.exp(sigma * gaussian(rand));
  return Array.from({ length: n }, (_, i) => {
    const order = pairOrder(seed, i);
    const first = proc();
    const second = proc() * (1 + (opts.orderEffect ?? 0));
    const [base, head] = order === 'AB' ? [first, second] : [second, first];
    return { base: 0.06 * base, head: 0.06 * head * factor, order };
  });
}

describe('comparePaired', () => {
  it('calls a 5% slowdown slower, with the ratio and interval around 1.05', () => {
    const c = comparePairs(pairs(30, 1.05, 0.02, 1), 'smaller');
    expect(c.verdict).toBe('slower');
    expect(c.ratio).toBeGreaterThan(1.035);
    expect(c.ratio).toBeLessThan(1.065);
    expect(c.ci![0]).toBeGreaterThan(1.02);
    expect(c.ci![1]).toBeLessThan(1.08);
    expect(c.p).toBeLessThan(0.001);
    expect(c.exact).toBe(true);
    expect(c.n).toBe(30);
    expect(c.headMedian / c.baseMedian).toBeGreaterThan(1.02);
  });

  it('orients bigger-is-better metrics: less throughput is slower', () => {
    const throughput = pairs(30, 1.05, 0.02, 2).map((p) => ({ ...p, base: 1 / p.base, head: 1 / p.head }));
    const c = comparePairs(throughput, 'bigger');
    expect(c.verdict).toBe('slower');
    expect(c.ratio).toBeGreaterThan(1.03);
  });

  it('calls identical builds with little noise unchanged, and a noisy handful inconclusive', () => {
    expect(comparePairs(pairs(40, 1, 0.01, 3), 'smaller').verdict).toBe('unchanged');
    const few = comparePairs(pairs(8, 1, 0.1, 4), 'smaller');
    expect(few.verdict).toBe('inconclusive');
    const none = comparePairs(pairs(5, 1.5, 0.01, 4), 'smaller');
    expect(none.verdict).toBe('inconclusive');
    expect(none.ci).toBeUndefined();
    expect(none.note).toMatch(/too few pairs/);
  });

  it('estimates an order effect and still calls the change right', () => {
    // The second process of each pair is 8% slower (a cold cache for the first, say).
    const ps = pairs(40, 1.05, 0.01, 5, { orderEffect: 0.08 });
    const c = comparePairs(ps, 'smaller');
    expect(c.orderEffect).toBeGreaterThan(1.06);
    expect(c.orderEffect).toBeLessThan(1.1);
    expect(c.verdict).toBe('slower');
    expect(comparePairs(pairs(40, 1, 0.01, 5), 'smaller').orderEffect).toBeLessThan(1.01);
    expect(
      orderEffect(
        ps.map(({ base, head }) => ({ base, head })),
        'smaller',
      ),
    ).toBeUndefined();
  });
});

describe('pair order', () => {
  it('is deterministic, balanced within every block of two, and random across blocks', () => {
    const orders = Array.from({ length: 200 }, (_, i) => pairOrder(42, i));
    expect(Array.from({ length: 200 }, (_, i) => pairOrder(42, i))).toEqual(orders);
    for (let b = 0; b < 100; b++) expect(new Set([orders[2 * b], orders[2 * b + 1]]).size).toBe(2);
    const abFirst = orders.filter((o, i) => i % 2 === 0 && o === 'AB').length;
    expect(abFirst).toBeGreaterThan(35);
    expect(abFirst).toBeLessThan(65);
    const other = Array.from({ length: 200 }, (_, i) => pairOrder(43, i));
    expect(other).not.toEqual(orders);
  });
});

// ---------------------------------------------------------------------------------------------
// Sequential sampling

/**
 * A point measured on a noisy shared VM: each process is log-normal with coefficient of variation
 * `cv`, times a slow drift shared by neighbouring processes (AR(1) per process, sd `drift`), 2% of
 * processes hit by a 30% stall, the second process of a pair `orderEffect` slower; head = base x
 * `factor`. Returns the log-ratios of `n` pairs in run order, the order balanced per block.
 */
function simulatedLogRatios(
  n: number,
  o: { cv: number; factor?: number; drift?: number; orderEffect?: number; stalls?: number },
  seed: number,
): number[] {
  const rand = prng(seed);
  const sigma = Math.sqrt(Math.log(1 + o.cv * o.cv));
  const drift = o.drift ?? 0.05;
  const rho = 0.99;
  let g = drift * gaussian(rand);
  const proc = () => {
    g = rho * g + Math.sqrt(1 - rho * rho) * drift * gaussian(rand);
    return Math.exp(g + sigma * gaussian(rand)) * (rand() < (o.stalls ?? 0.02) ? 1.3 : 1);
  };
  const out: Pair[] = [];
  for (let i = 0; i < n; i++) {
    const order = pairOrder(seed, i);
    const first = proc();
    const second = proc() * (1 + (o.orderEffect ?? 0.01));
    const [base, head] = order === 'AB' ? [first, second] : [second, first];
    out.push({ base, head: head * (o.factor ?? 1), order });
  }
  return logRatios(out, 'smaller');
}

/** Runs the sequential rule on `trials` simulated points; verdict counts and mean pairs. */
function simulateRule(
  trials: number,
  o: Parameters<typeof simulatedLogRatios>[1],
  plan: SequentialPlan = DEFAULT_PLAN,
  seed0 = 1000,
  budget?: number,
) {
  const counts = { slower: 0, faster: 0, unchanged: 0, inconclusive: 0 };
  let pairsUsed = 0;
  const max = plan.looks[plan.looks.length - 1]!;
  for (let t = 0; t < trials; t++) {
    const d = simulatedLogRatios(max, o, seed0 + t);
    let pos = 0;
    const r = runSequential(
      (k) => {
        const got = d.slice(pos, pos + k);
        pos += got.length;
        return got;
      },
      { affordablePairs: budget ?? max, plan },
    );
    counts[r.verdict]++;
    pairsUsed += r.n;
  }
  return { ...counts, rate: (k: keyof typeof counts) => counts[k] / trials, meanPairs: pairsUsed / trials };
}

describe('sequential plan', () => {
  it('spends the 5% false-positive bound and the 10% equivalence bound over its looks, increasingly', () => {
    expect(DEFAULT_PLAN.looks).toEqual([10, 20, 40, 60]);
    const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(DEFAULT_PLAN.alphas)).toBeCloseTo(0.05, 12);
    expect(sum(DEFAULT_PLAN.betas)).toBeCloseTo(0.1, 12);
    expect(DEFAULT_PLAN.alphas[0]).toBeCloseTo(0.005, 12);
    expect(DEFAULT_PLAN.alphas[3]).toBeCloseTo(0.02, 12);
    expect(makePlan([20, 40], 0.05, [1, 1]).alphas).toEqual([0.025, 0.025]);
    // Every look of the default plan can produce an interval at its level.
    for (const [k, n] of DEFAULT_PLAN.looks.entries())
      expect(signedRankCritical(n, DEFAULT_PLAN.alphas[k]!)).toBeGreaterThanOrEqual(0);
  });

  it('refuses malformed plans', () => {
    expect(() => makePlan([])).toThrow(/at least one look/);
    expect(() => makePlan([10, 10])).toThrow(/increasing/);
    expect(() => makePlan([1, 10])).toThrow(/>= 2/);
    expect(() => makePlan([10, 20], 0.05, [1])).toThrow(/one positive weight/);
  });
});

describe('decideSequential', () => {
  /** A fake analysis returning a fixed interval (log scale), recording the levels asked. */
  function fake(centre: number, lo: number, hi: number, p: number) {
    const calls: [number, number][] = [];
    const analyse: Analyse = (alpha, beta) => {
      calls.push([alpha, beta]);
      const iv = { centre, lo, hi, confidence: 1 - alpha };
      return { change: iv, equivalence: iv, p };
    };
    return { analyse, calls };
  }
  const wide = () => fake(0.0, -0.1, 0.1, 0.9);

  it('asks for the first look without analysing anything', () => {
    const f = wide();
    expect(decideSequential(0, f.analyse, { affordablePairs: 100 })).toEqual({ action: 'continue', more: 10, look: 0 });
    expect(decideSequential(4, f.analyse, { affordablePairs: 100 })).toEqual({ action: 'continue', more: 6, look: 0 });
    expect(f.calls).toEqual([]);
  });

  it('stops at a look that decides, at that look’s level', () => {
    const f = fake(0.06, 0.03, 0.09, 0.0001);
    const d = decideSequential(10, f.analyse, { affordablePairs: 100 });
    expect(d).toMatchObject({ action: 'stop', verdict: 'slower', reason: 'decided' });
    expect(f.calls).toEqual([[DEFAULT_PLAN.alphas[0], DEFAULT_PLAN.betas[0]]]);
    expect(decideSequential(20, fake(0.0, -0.01, 0.01, 0.7).analyse, { affordablePairs: 100 })).toMatchObject({
      action: 'stop',
      verdict: 'unchanged',
    });
  });

  it('goes on to the next look while undecided, and ends at the last one', () => {
    const f = wide();
    expect(decideSequential(10, f.analyse, { affordablePairs: 100 })).toMatchObject({
      action: 'continue',
      more: 10,
      look: 1,
    });
    expect(decideSequential(20, f.analyse, { affordablePairs: 100 })).toMatchObject({
      action: 'continue',
      more: 20,
      look: 2,
    });
    expect(decideSequential(60, f.analyse, { affordablePairs: 100 })).toMatchObject({
      action: 'stop',
      verdict: 'inconclusive',
      reason: 'last-look',
    });
  });

  it('cuts a look short when the budget runs out (whole blocks of two), and ends there', () => {
    const f = wide();
    expect(decideSequential(20, f.analyse, { affordablePairs: 7 })).toMatchObject({
      action: 'continue',
      more: 6,
      look: 2,
    });
    const cut = decideSequential(26, f.analyse, { affordablePairs: 0 });
    expect(cut).toMatchObject({ action: 'stop', verdict: 'inconclusive', reason: 'budget' });
    // The cut look is look 2 (40 pairs) and uses its level: no level is spent twice.
    expect(f.calls.at(-1)).toEqual([DEFAULT_PLAN.alphas[2], DEFAULT_PLAN.betas[2]]);
    expect(decideSequential(20, f.analyse, { affordablePairs: 1 })).toMatchObject({ action: 'continue', more: 1 });
    expect(decideSequential(20, f.analyse, { affordablePairs: 0 })).toMatchObject({ action: 'stop', reason: 'budget' });
    expect(decideSequential(0, f.analyse, { affordablePairs: 0 })).toMatchObject({
      action: 'stop',
      verdict: 'inconclusive',
      reason: 'budget',
    });
  });

  it('never analyses one look twice, so the levels it spends add up to at most 5%', () => {
    const rand = prng(9);
    for (let trial = 0; trial < 200; trial++) {
      const f = wide();
      let n = 0;
      let budget = Math.floor(rand() * 80);
      for (;;) {
        const d = decideSequential(n, f.analyse, { affordablePairs: budget });
        if (d.action === 'stop') break;
        // The runner may deliver fewer pairs than asked (a failed process is dropped).
        const got = Math.max(1, d.more - (rand() < 0.2 ? 1 : 0));
        n += got;
        budget -= got;
      }
      const alphas = f.calls.map(([a]) => a);
      expect(new Set(alphas).size, `looks analysed: ${alphas.join(', ')}`).toBe(alphas.length);
      expect(alphas.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(0.05 + 1e-12);
    }
  });

  it('decidePaired analyses real pairs: a clear 10% slowdown is called at the first look', () => {
    const ps = pairs(10, 1.1, 0.01, 77);
    const d = decidePairs(ps, 'smaller', { affordablePairs: 50 });
    expect(d).toMatchObject({ action: 'stop', verdict: 'slower', reason: 'decided' });
    if (d.action !== 'stop') throw new Error('unreachable');
    expect(d.analysis.ratio).toBeCloseTo(Math.exp(hodgesLehmann(logRatios(ps, 'smaller'))), 12);
    expect(d.analysis.ci![0]).toBeGreaterThan(1.05);
    expect(d.analysis.ci![1]).toBeLessThan(1.15);
    expect(decidePairs([], 'smaller', { affordablePairs: 50 })).toMatchObject({ action: 'continue', more: 10 });
  });
});

describe('sequential rule under simulated noise (seeded)', () => {
  it('keeps the A/A false-positive rate at or below 5%, where peeking at 5% per look does not', () => {
    const noisy = { cv: 0.05 };
    const rule = simulateRule(400, noisy);
    const fp = rule.rate('slower') + rule.rate('faster');
    expect(fp).toBeLessThanOrEqual(0.05);
    const naive: SequentialPlan = {
      looks: DEFAULT_PLAN.looks,
      alphas: [0.05, 0.05, 0.05, 0.05],
      betas: DEFAULT_PLAN.betas,
    };
    const peek = simulateRule(400, noisy, naive);
    const fpPeek = peek.rate('slower') + peek.rate('faster');
    expect(fpPeek).toBeGreaterThan(fp * 1.5);
  });

  it('detects a planted 5% slowdown with high power at 3% and 5% noise, and never calls it faster', () => {
    for (const cv of [0.03, 0.05]) {
      const r = simulateRule(300, { cv, factor: 1.05 });
      expect(r.rate('slower')).toBeGreaterThanOrEqual(0.95);
      expect(r.faster + r.unchanged).toBe(0);
    }
    const speedup = simulateRule(200, { cv: 0.03, factor: 1 / 1.05 });
    expect(speedup.rate('faster')).toBeGreaterThanOrEqual(0.95);
  });

  it('calls quiet identical builds unchanged most of the time, and stops early doing so', () => {
    const r = simulateRule(300, { cv: 0.02 });
    expect(r.rate('unchanged')).toBeGreaterThanOrEqual(0.9);
    expect(r.meanPairs).toBeLessThan(45);
  });

  it('calls a change of exactly the minimum effect "unchanged" rarely (the equivalence bound)', () => {
    const r = simulateRule(300, { cv: 0.03, factor: 1.02 });
    expect(r.rate('unchanged')).toBeLessThanOrEqual(0.1);
  });

  it('answers "inconclusive" when 10% noise and a small budget cannot decide, and uses no more than the budget', () => {
    const r = simulateRule(100, { cv: 0.1, factor: 1.03 }, DEFAULT_PLAN, 5000, 16);
    expect(r.rate('inconclusive')).toBeGreaterThanOrEqual(0.8);
    expect(r.meanPairs).toBeLessThanOrEqual(16);
    expect(r.faster).toBe(0);
  });

  it('analyseLogRatios serves both intervals from one set of Walsh averages', () => {
    const d = simulatedLogRatios(20, { cv: 0.03 }, 1);
    const a = analyseLogRatios(d)(0.01, 0.05);
    expect(a.change.hi! - a.change.lo!).toBeGreaterThan(a.equivalence.hi! - a.equivalence.lo!);
    expect(a.change.centre).toBe(hodgesLehmann(d));
    expect(a.p).toBe(signedRankTest(d).p);
  });
});

// ---------------------------------------------------------------------------------------------
// Fit experiments (wc: time = start-up + reads x cost, two sizes per side per pair)

/** Fit pairs: start-up `startup` s, `cost` s per read at the small/large read counts, head cost x `ratio`. */
function fitPairs(
  n: number,
  o: { startup: number; cost: number; sizes: { small: number; large: number }; cv: number; ratio: number },
  seed: number,
): FitPair[] {
  const rand = prng(seed);
  const sigma = Math.sqrt(Math.log(1 + o.cv * o.cv));
  let g = 0;
  const proc = (mean: number) => {
    g = 0.99 * g + Math.sqrt(1 - 0.99 * 0.99) * 0.05 * gaussian(rand);
    return mean * Math.exp(g + sigma * gaussian(rand));
  };
  return Array.from({ length: n }, () => {
    // The four processes of a pair in a random order; drift moves between them.
    const jobs = [0, 1, 2, 3].sort(() => rand() - 0.5);
    const t: number[] = [];
    for (const j of jobs) {
      const reads = j % 2 ? o.sizes.large : o.sizes.small;
      t[j] = proc(o.startup + reads * o.cost * (j >= 2 ? o.ratio : 1));
    }
    return { base: { small: t[0]!, large: t[1]! }, head: { small: t[2]!, large: t[3]! } };
  });
}
const WC_SIZES = { small: 128, large: 1024 }; // 8 MiB and 64 MiB at bs = 64 KiB

describe('fit experiments', () => {
  it('fit one side: cost per operation and start-up from two sizes', () => {
    const f = fitSide({ small: 0.012, large: 0.082 }, { small: 1000, large: 8000 });
    expect(f.cost).toBeCloseTo(1e-5, 15);
    expect(f.startup).toBeCloseTo(0.002, 15);
  });

  it('the ratio estimate is the median of the Walsh ratios (ratios of summed extra times)', () => {
    const pairs: FitPair[] = [
      { base: { small: 1, large: 3 }, head: { small: 1, large: 4 } }, // extra 2 -> 3
      { base: { small: 1, large: 5 }, head: { small: 1, large: 5 } }, // extra 4 -> 4
    ];
    // Walsh ratios 1, 7/6, 1.5: the median is 7/6.
    expect(ratioInterval(pairs, 0.05).centre).toBeCloseTo(7 / 6, 12);
  });

  it('with every base difference positive the interval is the order statistics of the Walsh ratios', () => {
    const rand = prng(11);
    const pairs: FitPair[] = Array.from({ length: 20 }, () => ({
      base: { small: 1, large: 2 + rand() },
      head: { small: 1, large: 2.1 + rand() },
    }));
    const sb = pairs.map((p) => p.base.large - p.base.small);
    const sh = pairs.map((p) => p.head.large - p.head.small);
    const w: number[] = [];
    for (let i = 0; i < 20; i++) for (let j = i; j < 20; j++) w.push((sh[i]! + sh[j]!) / (sb[i]! + sb[j]!));
    w.sort((a, b) => a - b);
    const c = signedRankCritical(20, 0.05);
    const iv = ratioInterval(pairs, 0.05);
    expect(iv.lo).toBe(w[c]);
    expect(iv.hi).toBe(w[w.length - 1 - c]);
    expect(iv.centre).toBeCloseTo((w[104]! + w[105]!) / 2, 12);
  });

  it('a few base pairs that did not grow (a preempted small run) cost precision, not the point', () => {
    const o = { startup: 0.002, cost: 6e-5, sizes: WC_SIZES, cv: 0.02, ratio: 1.05 };
    const pairs = fitPairs(40, o, 21);
    // Three pairs whose base small run was preempted for longer than the reads take.
    for (const k of [3, 17, 29])
      pairs[k] = { ...pairs[k]!, base: { ...pairs[k]!.base, small: pairs[k]!.base.large + 0.01 } };
    expect(fitProblem(pairs)).toBeUndefined();
    const c = compareFit(pairs, WC_SIZES);
    expect(c.verdict).toBe('slower');
    expect(c.ci![0]).toBeLessThan(1.05);
    expect(c.ci![1]).toBeGreaterThan(1.05);
    expect(c.ci![1]).toBeLessThan(1.2);
  });

  it('recovers an exact ratio whatever drift scales each pair, start-up included', () => {
    const rand = prng(2);
    const pairs: FitPair[] = Array.from({ length: 12 }, () => {
      const g = 0.7 + rand() * 0.6; // the machine 30% faster or slower during this pair
      const side = (cost: number, startup: number) => ({
        small: g * (startup + 128 * cost),
        large: g * (startup + 1024 * cost),
      });
      return { base: side(1e-5, 0.002), head: side(1.05e-5, 0.002 + rand() * 0.01) };
    });
    const { change } = fitRatioIntervals(pairs, 0.05);
    expect(Math.exp(change.centre)).toBeCloseTo(1.05, 10);
    expect(Math.exp(change.lo!)).toBeCloseTo(1.05, 10);
    expect(Math.exp(change.hi!)).toBeCloseTo(1.05, 10);
    // The per-pair log-ratios see the same: start-up changes cancel in the difference.
    for (const d of fitLogRatios(pairs)!) expect(d).toBeCloseTo(Math.log(1.05), 10);
  });

  it('calls a 5% per-read slowdown of wc C at 64 KiB (noisy) slower, and identical builds not slower', () => {
    const o = { startup: 0.002, cost: 6e-5, sizes: WC_SIZES, cv: 0.02, ratio: 1.05 };
    const c = compareFit(fitPairs(30, o, 1), WC_SIZES);
    expect(c.verdict).toBe('slower');
    expect(c.ratio).toBeGreaterThan(1.03);
    expect(c.ratio).toBeLessThan(1.07);
    expect(c.headCost / c.baseCost).toBeGreaterThan(1.02);
    expect(c.baseStartup).toBeGreaterThan(0);
    expect(c.baseStartup).toBeLessThan(0.005);
    const same = compareFit(fitPairs(30, { ...o, ratio: 1 }, 2), WC_SIZES);
    expect(['unchanged', 'inconclusive']).toContain(same.verdict);
  });

  it('ignores a change of start-up: only the per-read cost is compared', () => {
    const pairs = fitPairs(30, { startup: 0.045, cost: 6e-5, sizes: WC_SIZES, cv: 0.01, ratio: 1 }, 3).map((p) => ({
      ...p,
      head: { small: p.head.small + 0.02, large: p.head.large + 0.02 }, // head starts 20 ms slower
    }));
    const c = compareFit(pairs, WC_SIZES);
    expect(c.verdict).toBe('unchanged');
    expect(c.headStartup - c.baseStartup).toBeCloseTo(0.02, 2);
  });

  it('intervals cover the true per-read ratio about 95% of the time (both estimators)', () => {
    let walsh = 0;
    let logs = 0;
    const trials = 300;
    for (let t = 0; t < trials; t++) {
      const pairs = fitPairs(15, { startup: 0.045, cost: 6e-5, sizes: WC_SIZES, cv: 0.04, ratio: 1.05 }, 100 + t);
      const w = fitRatioIntervals(pairs, 0.05).change;
      if (w.lo! < Math.log(1.05) && Math.log(1.05) < w.hi!) walsh++;
      const l = centreInterval(fitLogRatios(pairs)!, 0.05);
      if (l.lo! < Math.log(1.05) && Math.log(1.05) < l.hi!) logs++;
    }
    for (const covered of [walsh, logs]) {
      expect(covered / trials).toBeGreaterThan(0.92);
      expect(covered / trials).toBeLessThan(0.985);
    }
  });

  it('refuses a fit whose sizes are too close for the noise, and the sequential rule stops on it', () => {
    const bad: FitPair[] = [
      { base: { small: 0.05, large: 0.06 }, head: { small: 0.05, large: 0.06 } },
      { base: { small: 0.06, large: 0.055 }, head: { small: 0.05, large: 0.06 } },
    ];
    expect(fitProblem(bad)).toMatch(/^in 1 of 2 pairs base took no longer at the large size/);
    expect(() => compareFit(bad, WC_SIZES)).toThrow(RangeError);
    expect(decideFit(bad, { affordablePairs: 50 })).toMatchObject({
      action: 'stop',
      verdict: 'inconclusive',
      reason: 'unmeasurable',
    });
    // A head that did not grow still has a ratio (of sums) but no log-ratio of its own.
    const headFlat: FitPair[] = [{ base: { small: 0.05, large: 0.1 }, head: { small: 0.05, large: 0.05 } }];
    expect(fitLogRatios(headFlat)).toBeUndefined();
    expect(Number.isFinite(fitRatioIntervals(headFlat).change.centre)).toBe(false);
  });

  it('decideFit runs the sequential rule: a clear slowdown stops at the first look', () => {
    const pairs = fitPairs(10, { startup: 0.002, cost: 6e-5, sizes: WC_SIZES, cv: 0.01, ratio: 1.1 }, 9);
    expect(decideFit(pairs, { affordablePairs: 50 })).toMatchObject({
      action: 'stop',
      verdict: 'slower',
      reason: 'decided',
    });
    expect(decideFit(pairs.slice(0, 4), { affordablePairs: 50 })).toMatchObject({ action: 'continue', more: 6 });
  });
});

// ---------------------------------------------------------------------------------------------
// Counters

describe('counters', () => {
  it('deterministic: any difference is a change, even one call', () => {
    expect(compareCounter([1024, 1024, 1024], [1025, 1025, 1025])).toEqual({
      changed: true,
      kind: 'exact',
      base: 1024,
      head: 1025,
    });
    expect(compareCounter([1024, 1024], [1024, 1024, 1024])).toEqual({
      changed: false,
      kind: 'exact',
      base: 1024,
      head: 1024,
    });
    expect(comparePairsCounter([{ base: 0, head: 1024 }])).toMatchObject({ changed: true, kind: 'exact' });
  });

  it('almost deterministic: separated ranges whose gap is at least the larger spread are a change', () => {
    // futex counts of a threaded runtime: base 40-44, head 60-62 (gap 16 >= spread 4).
    expect(compareCounter([40, 44, 42], [60, 62, 61])).toEqual({
      changed: true,
      kind: 'range',
      base: 42,
      head: 61,
      baseRange: [40, 44],
      headRange: [60, 62],
    });
  });

  it('almost deterministic: overlapping ranges, or a gap smaller than the spread, are not', () => {
    const overlap = compareCounter([40, 50, 45], [48, 55, 52]);
    expect(overlap).toMatchObject({ changed: false, kind: 'range', note: 'the ranges overlap' });
    const close = compareCounter([40, 50], [53, 54]);
    expect(close).toMatchObject({ changed: false, note: "the ranges are 3 apart, less than a side's spread (10)" });
    // One exact side and one noisy side use the range rule too.
    expect(compareCounter([100, 100], [101, 103])).toMatchObject({ changed: false, kind: 'range' });
    expect(compareCounter([100, 100], [104, 105])).toMatchObject({
      changed: true,
      kind: 'range',
      headRange: [104, 105],
    });
  });

  it('refuses empty sides and non-numbers', () => {
    expect(() => compareCounter([], [1])).toThrow(RangeError);
    expect(() => compareCounter([1], [Number.NaN])).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Budget

describe('sharing the time budget between points', () => {
  it('grants every request that fits', () => {
    expect(
      shareBudget(
        [
          { pairs: 10, secondsPerPair: 0.2 },
          { pairs: 20, secondsPerPair: 0.1 },
        ],
        10,
      ),
    ).toEqual([10, 20]);
  });

  it('shares a short budget max-min fairly, in whole blocks of two pairs', () => {
    // 30 s for three points: the cheap one asks for 2 s and gets it all; the two others share 28 s.
    const granted = shareBudget(
      [
        { pairs: 10, secondsPerPair: 0.2 },
        { pairs: 20, secondsPerPair: 1 },
        { pairs: 20, secondsPerPair: 3 },
      ],
      30,
    );
    expect(granted).toEqual([10, 14, 4]);
    const spent = granted[0]! * 0.2 + granted[1]! * 1 + granted[2]! * 3;
    expect(spent).toBeLessThanOrEqual(30);
  });

  it('gives nothing from nothing and refuses nonsense', () => {
    expect(shareBudget([{ pairs: 10, secondsPerPair: 1 }], 0)).toEqual([0]);
    expect(shareBudget([{ pairs: 10, secondsPerPair: 1 }], 1.5)).toEqual([1]);
    expect(() => shareBudget([{ pairs: 1.5, secondsPerPair: 1 }], 10)).toThrow(/request 1/);
    expect(() => shareBudget([{ pairs: 1, secondsPerPair: 0 }], 10)).toThrow(/request 1/);
  });
});

// ---------------------------------------------------------------------------------------------
// Calibration figures

describe('calibration figures', () => {
  it('Wilson intervals match tabulated values', () => {
    const [lo0, hi0] = wilsonInterval(0, 10);
    expect(lo0).toBe(0);
    expect(hi0).toBeCloseTo(0.2775, 4);
    const [lo, hi] = wilsonInterval(5, 10);
    expect(lo).toBeCloseTo(0.2366, 4);
    expect(hi).toBeCloseTo(0.7634, 4);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });

  it('replaying a long A/A record as consecutive experiments gives a false-positive rate within 5%', () => {
    const record = simulatedLogRatios(24000, { cv: 0.04 }, 31);
    const o = replayAA(record);
    expect(o.trials).toBeGreaterThan(400);
    expect(o.slower + o.faster + o.unchanged + o.inconclusive).toBe(o.trials);
    expect((o.slower + o.faster) / o.trials).toBeLessThanOrEqual(0.05);
    expect(o.meanPairs).toBeGreaterThan(10);
    expect(o.meanPairs).toBeLessThanOrEqual(60);
  });

  it('bootstrap replays are deterministic per seed; they count a systematic side difference as false positives', () => {
    const record = simulatedLogRatios(120, { cv: 0.03 }, 32);
    const a = falsePositives(record, { trials: 150, seed: 3 });
    expect(falsePositives(record, { trials: 150, seed: 3 })).toEqual(a);
    expect(a.rate).toBeLessThanOrEqual(0.08);
    expect(a.interval[0]).toBeLessThanOrEqual(a.rate);
    expect(a.interval[1]).toBeGreaterThanOrEqual(a.rate);
    // The head checkout is 4% slower on this machine (another directory, say): an A/A record with
    // that bias must not look clean.
    const biased = record.map((x) => x + Math.log(1.04));
    expect(falsePositives(biased, { trials: 150, seed: 3 }).rate).toBeGreaterThan(0.5);
    expect(bootstrapReplay(record, { trials: 20, seed: 1, block: 1 }).trials).toBe(20);
  });

  it('planted power: a 5% slowdown multiplied into the head samples is found; a planted speed-up is "faster"', () => {
    const record = simulatedLogRatios(120, { cv: 0.03 }, 33);
    const p = plantedPower(record, 1.05, { trials: 150, seed: 4 });
    expect(p.rate).toBeGreaterThanOrEqual(0.9);
    expect(p.outcomes.faster).toBe(0);
    expect(plantedPower(record, 1 / 1.05, { trials: 150, seed: 4 }).rate).toBeGreaterThanOrEqual(0.9);
    expect(plantedPower(record, 1.01, { trials: 150, seed: 4 }).rate).toBeLessThan(0.5);
    expect(() => plantedPower(record, 1)).toThrow(RangeError);
    // A side bias of the record (head 3% faster in A/A) does not hide a planted slowdown: the
    // record is re-centred first, unless asked not to be.
    const biased = record.map((x) => x - Math.log(1.03));
    expect(plantedPower(biased, 1.05, { trials: 150, seed: 4 }).rate).toBe(p.rate);
    expect(plantedPower(biased, 1.05, { trials: 150, seed: 4, recentre: false }).rate).toBeLessThan(0.5);
  });

  it('robust scale is the SD for normal data and ignores stalls', () => {
    const rand = prng(12);
    const d = Array.from({ length: 2000 }, () => 0.04 * gaussian(rand));
    expect(robustScale(d)).toBeGreaterThan(0.037);
    expect(robustScale(d)).toBeLessThan(0.043);
    const stalled = d.map((x, i) => (i % 50 === 0 ? x + 0.3 : x));
    expect(robustScale(stalled)).toBeLessThan(0.045);
    expect(robustScale([])).toBe(0);
  });

  it('analytic MDE: known value, shrinks as 1/sqrt(n), never below the minimum effect', () => {
    // scale 8%, 40 pairs, alpha 2%, 80% power: se = 0.08 / sqrt(40 * 3 / pi) = 0.012944;
    // (2.326348 + 0.841621) * se = 0.041006 -> 4.19%.
    const m = minimalDetectableEffect({ n: 40, scale: 0.08, alpha: 0.02 });
    expect(m).toBeCloseTo(Math.expm1(0.041006), 5);
    // Four times the pairs: half the statistical MDE (the margin term does not bind yet).
    expect(minimalDetectableEffect({ n: 640, scale: 0.32, alpha: 0.02 })).toBeCloseTo(m, 10);
    // scale 5%: ln(1.02) + 0.8416 se = 0.026612 beats (2.326 + 0.842) se = 0.025629.
    expect(minimalDetectableEffect({ n: 40, scale: 0.05, alpha: 0.02 })).toBeCloseTo(Math.expm1(0.026612), 5);
    // Quiet: the minimum effect binds (2% + 0.84 se).
    expect(minimalDetectableEffect({ n: 60, scale: 0.001, alpha: 0.02 })).toBeGreaterThan(0.02);
    expect(minimalDetectableEffect({ n: 60, scale: 0.001, alpha: 0.02 })).toBeLessThan(0.021);
    expect(minimalDetectableEffect({ n: 0, scale: 0.05, alpha: 0.05 })).toBe(Infinity);
  });

  it('empirical MDE of the sequential rule is near the analytic one at the plan’s last look', () => {
    const record = simulatedLogRatios(200, { cv: 0.04, stalls: 0 }, 34);
    const empirical = empiricalMde(record, { trials: 100, seed: 5, tolerance: 0.002 });
    const analytic = minimalDetectableEffect({ n: 60, scale: robustScale(record), alpha: DEFAULT_PLAN.alphas[3]! });
    expect(empirical).toBeGreaterThan(0.02);
    expect(empirical).toBeLessThan(analytic * 1.5);
    expect(empirical).toBeGreaterThan(analytic * 0.5);
    // Noise of 100% per pair: nothing up to 20% is detected four times in five.
    const rand = prng(35);
    const wild = Array.from({ length: 60 }, () => gaussian(rand));
    expect(empiricalMde(wild, { trials: 30, maxEffect: 0.2 })).toBe(Infinity);
  });

  it('calibrated threshold: 2% for a clean point, raised past a side bias until A/A is clean again', () => {
    const record = simulatedLogRatios(120, { cv: 0.03 }, 36);
    expect(calibratedThreshold(record, { trials: 100, seed: 6 })).toBe(0.02);
    const biased = record.map((x) => x + Math.log(1.04));
    const t = calibratedThreshold(biased, { trials: 100, seed: 6, tolerance: 0.004 });
    expect(t).toBeGreaterThan(0.04);
    expect(t).toBeLessThan(0.08);
    expect(falsePositives(biased, { trials: 100, seed: 6, minEffect: t }).rate).toBeLessThanOrEqual(0.05);
  });

  it('calibratePoint gathers every figure of one point', () => {
    const record = simulatedLogRatios(400, { cv: 0.03 }, 37);
    const c = calibratePoint(record, { trials: 100, seed: 7, pairsGot: 20 });
    expect(c.pairs).toBe(400);
    expect(Math.abs(c.aaRatio - 1)).toBeLessThan(0.01);
    expect(c.falsePositives.rate).toBeLessThanOrEqual(0.05);
    expect(c.replay!.trials).toBeGreaterThanOrEqual(6);
    // 20 pairs reach look 1 (alpha 1%); its MDE is larger than at 60 pairs.
    expect(c.mde).toBeCloseTo(minimalDetectableEffect({ n: 20, scale: c.scale, alpha: DEFAULT_PLAN.alphas[1]! }), 12);
    expect(c.mde).toBeGreaterThan(minimalDetectableEffect({ n: 60, scale: c.scale, alpha: DEFAULT_PLAN.alphas[3]! }));
    expect(c.power.factor).toBe(1.05);
    expect(c.power.rate).toBeGreaterThanOrEqual(0.9);
    expect(c.threshold).toBe(0.02);
    expect(calibratePoint(record.slice(0, 100), { trials: 20 }).replay).toBeUndefined();
    expect(() => calibratePoint([])).toThrow(RangeError);
  });
});
