// The harness shift's early stop looks at an experiment's interval after every round and retires
// it once the interval lies inside ±1.5 %. A shift just at the margin must rarely be retired as
// "inside" by one of those looks: simulated rounds (seeded, so the rates are exact numbers of this
// test, not a chance), looked at from round 6 to 44 as a PR diff does, then one 95 % look at the end.
import { describe, expect, it } from 'vitest';
import { prng } from '../../../src/analysis/prng.js';
import { centreInterval } from '../../../src/analysis/signed-rank.js';
import { EARLY_STOP_ALPHA, insideMargin, SHIFT_MARGIN } from '../../../src/pairs/harness-shift/pooled-shift.js';

const ROUNDS = 44;
const TRIALS = 300;

function draws(seed: number, tails: 'normal' | 't3') {
  const rand = prng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
  if (tails === 'normal') return gauss;
  // Student's t with 3 degrees of freedom, scaled to unit variance: a stall now and then.
  return () => gauss() / Math.sqrt((gauss() ** 2 + gauss() ** 2 + gauss() ** 2) / 3) / Math.sqrt(3);
}

const inside = (d: readonly number[], alpha: number) => {
  const { lo, hi } = centreInterval(d, alpha);
  return lo !== undefined && hi !== undefined && insideMargin({ ci: [Math.exp(lo), Math.exp(hi)] }, SHIFT_MARGIN);
};

/** Share of diffs whose experiment ends "inside", and the mean rounds it was measured. */
function judgedInside(shift: number, sd: number, tails: 'normal' | 't3', earlyAlpha: number) {
  const draw = draws(7, tails);
  let hits = 0;
  let rounds = 0;
  for (let t = 0; t < TRIALS; t++) {
    const d: number[] = [];
    let stopped = false;
    for (let r = 1; r <= ROUNDS && !stopped; r++) {
      d.push(Math.log(1 + shift) + sd * draw());
      stopped = r >= 6 && inside(d, earlyAlpha);
    }
    rounds += d.length;
    if (stopped || inside(d, 0.05)) hits++;
  }
  return { rate: hits / TRIALS, rounds: rounds / TRIALS };
}

describe('the early stop of a harness shift', () => {
  it('looks at a 99 % interval: a shift at the margin is called inside about as rarely as by one 95 % look', () => {
    expect(EARLY_STOP_ALPHA).toBe(0.01);
    for (const [sd, tails] of [
      [0.01, 'normal'],
      [0.03, 't3'],
    ] as const) {
      const at95 = judgedInside(0.015, sd, tails, 0.05);
      const at99 = judgedInside(0.015, sd, tails, EARLY_STOP_ALPHA);
      // Every round's look at 95 %: several times the 2.5 % one look allows.
      expect(at95.rate, `${tails} ${sd}`).toBeGreaterThan(0.06);
      expect(at99.rate, `${tails} ${sd}`).toBeLessThan(0.05);
      expect(at99.rate).toBeLessThan(at95.rate);
    }
  });

  it('still retires a no-op early, a few rounds later than at 95 %', () => {
    const at95 = judgedInside(0, 0.01, 'normal', 0.05);
    const at99 = judgedInside(0, 0.01, 'normal', EARLY_STOP_ALPHA);
    expect(at99.rate).toBe(1);
    expect(at99.rounds).toBeGreaterThan(at95.rounds);
    expect(at99.rounds).toBeLessThan(15);
  });
});
