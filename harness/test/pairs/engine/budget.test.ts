// The paired diff's one Budget: every share of its time, in seconds, on a fake clock.
import { describe, expect, it } from 'vitest';
import {
  Budget,
  CONTROL_PREPARE_SECONDS,
  CONTROL_SHARE,
  COUNT_SHARE,
  DEADLINE_MARGIN_SECONDS,
} from '../../../src/pairs/engine/budget.js';

/** A budget on a clock the test moves (milliseconds). */
function budgetAt(askedSeconds: number, deadlineSeconds?: number) {
  const clock = { ms: 1_000 };
  return { clock, budget: new Budget(askedSeconds, deadlineSeconds, () => clock.ms) };
}

describe('Budget', () => {
  it('the affected points share the pairs first; the control gets its reserved share after them', () => {
    const a = { id: 'a', impact: 'control' as const };
    const b = { id: 'b', impact: 'affected' as const };
    const c = { id: 'c', impact: 'control' as const };
    const { budget } = budgetAt(600);
    expect(budget.tiers([a, b, c], 600)).toEqual([
      { points: [b], shareSeconds: 600 * (1 - CONTROL_SHARE) },
      { points: [a, c], shareSeconds: 600 * CONTROL_SHARE },
    ]);
    // A docs-only diff: the control alone, within its share, not the whole budget.
    expect(budget.tiers([a, c], 600)).toEqual([{ points: [a, c], shareSeconds: 600 * CONTROL_SHARE }]);
    // No control (--control 0, --every-point): the affected points get everything.
    expect(budget.tiers([b], 600)).toEqual([{ points: [b], shareSeconds: 600 }]);
    expect(budget.tiers([], 600)).toEqual([]);
    // A deadline cut the pairs to 300 s: a control alone keeps its share of the 600 asked for,
    // as far as the 300 reach; beside affected points it shares what is left.
    expect(budget.tiers([a, c], 300)).toEqual([{ points: [a, c], shareSeconds: 600 * CONTROL_SHARE }]);
    expect(budget.tiers([a, c], 60)).toEqual([{ points: [a, c], shareSeconds: 60 }]);
    expect(budget.tiers([a, b], 300)).toEqual([
      { points: [b], shareSeconds: 300 * (1 - CONTROL_SHARE) },
      { points: [a], shareSeconds: 300 * CONTROL_SHARE },
    ]);
    expect(budget.cutShort([a, c], 300)).toBe(false);
    expect(budget.cutShort([a, c], 60)).toBe(true);
    expect(budget.cutShort([a, b], 300)).toBe(true);
    expect(budget.cutShort([a, b], 600)).toBe(false);
  });

  it('a deadline cuts the pairs to what set-up leaves, less its margin, never below zero', () => {
    expect(budgetAt(720).budget.pairsSeconds(300)).toBe(720);
    const { budget } = budgetAt(720, 1140);
    expect(budget.pairsSeconds(240)).toBe(720);
    expect(budget.pairsSeconds(480)).toBe(1140 - 480 - DEADLINE_MARGIN_SECONDS);
    expect(budget.pairsSeconds(1200)).toBe(0);
    expect(budget.cutText(480, 630)).toBe(
      "set-up (builds, checks, warm-ups) took 8.0 min, so the diff's deadline of 19.0 min left 10.5 of the 12.0 budgeted minutes for pairs",
    );
  });

  it("a harness shift takes a third of the deadline's rest beside affected points, else all but what comes after it", () => {
    const control = 720 * CONTROL_SHARE + CONTROL_PREPARE_SECONDS + DEADLINE_MARGIN_SECONDS;
    const { budget, clock } = budgetAt(720, 1140);
    expect(budget.shiftSeconds(3, false)).toBe(380);
    expect(budget.shiftSeconds(0, false)).toBe(1140 - control);
    expect(1140 - control).toBeGreaterThan(1140 / 2);
    // A deadline too short for the control's needs still leaves the shift its third.
    expect(budgetAt(720, 300).budget.shiftSeconds(0, false)).toBe(100);
    // Counted work comes after the shift: its share is kept too, and what set-up spent is gone.
    clock.ms += 40_000;
    const counted = 720 * (CONTROL_SHARE + COUNT_SHARE) + CONTROL_PREPARE_SECONDS + DEADLINE_MARGIN_SECONDS;
    expect(budget.shiftSeconds(0, true)).toBeCloseTo(1100 - counted, 9);
    expect(budget.shiftSeconds(3, true)).toBeCloseTo(1100 / 3, 9);
    // Without a deadline the shift runs its own rounds.
    expect(budgetAt(720).budget.shiftSeconds(0, true)).toBeUndefined();
  });

  it('states itself in seconds: the counts share, what was spent, and the record comparison.json keeps', () => {
    const { budget, clock } = budgetAt(600, 900);
    expect(budget.countSeconds()).toBe(600 * COUNT_SHARE);
    clock.ms += 125_000;
    expect(budget.spentSeconds()).toBe(125);
    expect(budget.record(50)).toEqual({ seconds: 600, spentSeconds: 125, setupSeconds: 50, deadlineSeconds: 900 });
    expect(budgetAt(600).budget.record(0)).toEqual({ seconds: 600, spentSeconds: 0, setupSeconds: 0 });
  });
});
