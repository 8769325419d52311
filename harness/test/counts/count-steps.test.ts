// Steps in a trend of counted work: exact, beyond the one tolerance, and only between counts that
// may be acted on (they decide, and their repeats agreed).
import { describe, expect, it } from 'vitest';
import { actionable, countSteps } from '../../src/counts/count-steps.js';
import type { CountFacts } from '../../src/formats/parts/store-layout.js';

const decides: CountFacts = { role: 'decides', deterministic: true, settings: 'as compiled' };
const unsteady: CountFacts = { ...decides, deterministic: false };
const evidence: CountFacts = { ...decides, role: 'evidence', because: 'a cold-cache point' };
const all = (n: number, f: CountFacts | null = decides) => Array.from({ length: n }, () => f);

describe('countSteps', () => {
  it('calls any change beyond the tolerance at once, with the exact ratio', () => {
    expect(countSteps([100, 100, 101, 101], all(4))).toEqual([{ index: 2, ratio: 1.01 }]);
  });

  it('calls nothing within the tolerance (0.5%)', () => {
    expect(countSteps([1000, 1004, 1000, 996], all(4))).toEqual([]);
  });

  it('holds a count after one that did not repeat against the last that did', () => {
    // The blip at 1 is no step; 2 is compared with 0, not with the blip.
    expect(countSteps([100, 150, 100, 120], [decides, unsteady, decides, decides])).toEqual([{ index: 3, ratio: 1.2 }]);
  });

  it('calls no step on evidence, nor on counts whose facts are unknown', () => {
    expect(countSteps([100, 200, 300], all(3, evidence))).toEqual([]);
    expect(countSteps([100, 200, 300], undefined)).toEqual([]);
    expect(countSteps([100, 200, 300], all(3, null))).toEqual([]);
  });

  it('skips gaps', () => {
    expect(countSteps([100, null, 100, null, 110], all(5))).toEqual([{ index: 4, ratio: 1.1 }]);
  });

  it('actionable: decides and repeated', () => {
    expect([decides, unsteady, evidence, null, undefined].map(actionable)).toEqual([true, false, false, false, false]);
  });
});
