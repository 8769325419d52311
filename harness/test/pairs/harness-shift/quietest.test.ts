// The harness shift goes on with each experiment's quietest candidates: how far a point's ratio
// moves between rounds (which a constant shift cancels), never below what its runs imply.
import { describe, expect, it } from 'vitest';
import {
  candidateSpread,
  keepQuietest,
  relativeSpread,
  roundToRoundSpread,
  runsFloor,
  settleCost,
} from '../../../src/pairs/harness-shift/quietest.js';

describe('relativeSpread', () => {
  it('is 1.4826 MAD / median, robust to one wild run', () => {
    expect(relativeSpread([10, 10, 10, 10])).toBe(0);
    // median 10, absolute deviations 1,0,0,1,90: MAD 1.
    expect(relativeSpread([9, 10, 10, 11, 100])).toBeCloseTo(0.14826, 10);
  });

  it('needs three finite runs and a non-zero median', () => {
    expect(relativeSpread([1, 2])).toBeUndefined();
    expect(relativeSpread([1, Number.NaN, 2])).toBeUndefined();
    expect(relativeSpread([0, 0, 0])).toBeUndefined();
  });
});

describe('keepQuietest', () => {
  it("keeps each experiment's quietest, candidates without a spread last, the given order among equals", () => {
    const keep = keepQuietest(
      [
        { id: 'wc/a', experiment: 'wc', spread: 0.3 },
        { id: 'wc/b', experiment: 'wc', spread: 0.02 },
        { id: 'wc/c', experiment: 'wc', spread: undefined },
        { id: 'scan/a', experiment: 'scan', spread: undefined },
        { id: 'scan/b', experiment: 'scan', spread: undefined },
        { id: 'tp/a', experiment: 'tp', spread: 0.1 },
        { id: 'tp/b', experiment: 'tp', spread: 0.1 },
      ],
      1,
    );
    expect([...keep].sort()).toEqual(['scan/a', 'tp/a', 'wc/b']);
  });

  it('weighs a spread by what a round costs: rounds needed grow with its square, rounds that fit shrink with its seconds', () => {
    // A C point: rounds move 3 %, 4 s a round (36e-4). A slow runtime's point: 2.5 %, 12 s (75e-4).
    const c = { id: 'scan/c', experiment: 'scan', spread: 0.03, seconds: 4 };
    const slow = { id: 'scan/slow', experiment: 'scan', spread: 0.025, seconds: 12 };
    expect(settleCost(c, true)).toBeCloseTo(0.0036, 12);
    expect(keepQuietest([slow, c], 1)).toEqual(new Set(['scan/c']));
    // Twice as steady makes up for three times the cost (4 × less variance).
    expect(keepQuietest([{ ...slow, spread: 0.015 }, c], 1)).toEqual(new Set(['scan/slow']));
    // A candidate whose cost is unknown leaves its experiment to the spread alone.
    expect(keepQuietest([slow, { ...c, seconds: undefined }], 1)).toEqual(new Set(['scan/slow']));
    expect(settleCost({ ...c, spread: undefined }, true)).toBe(Number.POSITIVE_INFINITY);
  });

  it('keeps as many per experiment as asked', () => {
    const c = [0.5, 0.1, 0.2].map((spread, i) => ({ id: `wc/${i}`, experiment: 'wc', spread }));
    expect([...keepQuietest(c, 2)].sort()).toEqual(['wc/1', 'wc/2']);
  });
});

describe('candidateSpread', () => {
  it("reads the rounds' spread of log-ratios, which a constant shift cancels", () => {
    const a = [Math.log(1.02), Math.log(0.98)];
    const shifted = a.map((x) => x + Math.log(1.3));
    expect(roundToRoundSpread(a)).toBeCloseTo(roundToRoundSpread(shifted)!, 12);
    expect(roundToRoundSpread([0.1])).toBeUndefined();
    // Two values 0.04 apart: sample sd 0.04 / sqrt(2).
    expect(roundToRoundSpread([0.02, -0.02])).toBeCloseTo(0.04 / Math.SQRT2, 12);
  });

  it('ranks a point whose invocations land in different states below one whose runs scatter more within a round', () => {
    // Steady runs (0.5 %) but rounds 10 % apart: the within-round spread alone would have kept it.
    const moody = candidateSpread(
      [0, Math.log(1.1)],
      [
        { spread: 0.005, runs: 30 },
        { spread: 0.005, runs: 30 },
      ],
    )!;
    // Runs scatter by 5 %, rounds agree within 1 %.
    const busy = candidateSpread(
      [0, Math.log(1.01)],
      [
        { spread: 0.05, runs: 30 },
        { spread: 0.05, runs: 30 },
      ],
    )!;
    expect(busy).toBeLessThan(moody);
    expect(
      keepQuietest(
        [
          { id: 'wc/moody', experiment: 'wc', spread: moody },
          { id: 'wc/busy', experiment: 'wc', spread: busy },
        ],
        1,
      ),
    ).toEqual(new Set(['wc/busy']));
  });

  it("never goes below what the runs imply (two rounds can agree by luck), and uses the runs' floor alone with one round", () => {
    const sides = [
      { spread: 0.2, runs: 5 },
      { spread: 0.2, runs: 5 },
    ];
    const floor = runsFloor(sides)!;
    expect(floor).toBeCloseTo(Math.sqrt((2 * (1.2533 * 0.2) ** 2) / 5), 12);
    expect(candidateSpread([0.01, 0.01], sides)).toBe(floor);
    expect(candidateSpread([0.01], sides)).toBe(floor);
    expect(candidateSpread([0.01], [])).toBeUndefined();
    expect(runsFloor([{ spread: Number.NaN, runs: 3 }])).toBeUndefined();
  });
});
