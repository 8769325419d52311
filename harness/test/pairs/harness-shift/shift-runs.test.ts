// How many timed runs each harness makes of a point after its first round: about RUN_SECONDS of
// them, never fewer than the profile's, never more than MAX_SHIFT_RUNS.
import { describe, expect, it } from 'vitest';
import { MAX_SHIFT_RUNS, RUN_SECONDS, shiftRuns } from '../../../src/pairs/harness-shift/shift-runs.js';

describe('shiftRuns', () => {
  it("the profile's runs before a first round, or after an unusable one", () => {
    expect(shiftRuns(undefined)).toBeUndefined();
    expect(shiftRuns({ runs: 5, wallSeconds: 0 })).toBeUndefined();
    expect(shiftRuns({ runs: 5, wallSeconds: Number.NaN })).toBeUndefined();
    expect(shiftRuns({ runs: 0, wallSeconds: 0.1 })).toBeUndefined();
  });

  it('about RUN_SECONDS of runs, within the profile and the cap', () => {
    expect(shiftRuns({ runs: 3, wallSeconds: RUN_SECONDS / 10 })).toBe(10);
    expect(shiftRuns({ runs: 3, wallSeconds: 0.001 })).toBe(MAX_SHIFT_RUNS);
    // A slow program keeps its profile's runs: fewer would make each round noisier, not faster to answer.
    expect(shiftRuns({ runs: 5, wallSeconds: 2 })).toBe(5);
  });
});
