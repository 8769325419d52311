// The harness shift goes on with each experiment's quietest candidates: spreads of runs, not ratios.
import { describe, expect, it } from 'vitest';
import { keepQuietest, relativeSpread } from '../../../../src/pr-diff/harness-shift/analysis/quietest.js';

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

  it('keeps as many per experiment as asked', () => {
    const c = [0.5, 0.1, 0.2].map((spread, i) => ({ id: `wc/${i}`, experiment: 'wc', spread }));
    expect([...keepQuietest(c, 2)].sort()).toEqual(['wc/1', 'wc/2']);
  });
});
