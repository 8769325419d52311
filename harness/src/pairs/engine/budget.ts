/**
 * A paired diff's time, owned by one value in one unit (seconds; minutes exist only at the
 * command line): the seconds asked for the pairs, the whole diff's deadline, the clock both are
 * measured on, and each stage's share — the counts', the control's, a harness shift's, and what
 * set-up leaves the pairs. Pure but for the clock it is given, so every share is tested with a fake one.
 */
import type { PairsComparison } from '../../formats/pairs-format.js';

/**
 * The share of the pairs' budget reserved for the control sample when a diff has one. The control
 * is a check of the machine, not a question of the PR: a fixed share keeps a docs-only diff short
 * (the control alone would otherwise sample its noisiest point to the end of the budget), and a
 * PR whose own points need the whole budget cannot starve it.
 */
export const CONTROL_SHARE = 0.2;

/** The share of the pairs' budget the counts may take before the pairs start. */
export const COUNT_SHARE = 1 / 3;

/** Seconds left for the last batches of a diff whose pairs must end by its deadline (a batch granted at the end runs to its end). */
export const DEADLINE_MARGIN_SECONDS = 30;

/** Seconds kept for preparing the control's points (builds, checks, warm-ups) after a harness shift. */
export const CONTROL_PREPARE_SECONDS = 90;

/** One stage of a diff's sampling: these points share these seconds (the tier's share of the budget). */
export interface BudgetTier<T> {
  points: T[];
  shareSeconds: number;
}

type Impacted = { impact: 'affected' | 'control' };

const minutes = (s: number) => (s / 60).toFixed(1);

export class Budget {
  /** When the diff started, on the clock's scale (milliseconds): set-up and spent time count from here. */
  readonly startedAt: number;

  /**
   * `askedSeconds`: what the pairs may take (set-up, builds and validation excluded);
   * `deadlineSeconds`: what the whole diff may take, set-up included, so a slow set-up on a busy
   * machine cannot push it past a CI job's time; `now`: the clock, in milliseconds.
   */
  constructor(
    readonly askedSeconds: number,
    readonly deadlineSeconds?: number,
    readonly now: () => number = () => performance.now(),
  ) {
    this.startedAt = now();
  }

  /** Seconds since the diff started. */
  spentSeconds(): number {
    return (this.now() - this.startedAt) / 1000;
  }

  /** The seconds the pairs may take once set-up took `setupSeconds`: the budget, cut to what the deadline leaves (less its margin). */
  pairsSeconds(setupSeconds: number): number {
    if (this.deadlineSeconds === undefined) return this.askedSeconds;
    return Math.max(0, Math.min(this.askedSeconds, this.deadlineSeconds - setupSeconds - DEADLINE_MARGIN_SECONDS));
  }

  /** The seconds the counts may take, from their start. */
  countSeconds(): number {
    return this.askedSeconds * COUNT_SHARE;
  }

  /**
   * The seconds a harness shift may take from now (undefined without a deadline). With points
   * affected, a third of what the deadline has left: their pairs need the remainder. With none, all
   * but what comes after it: the counts' share when work is counted, the control's share, its
   * preparation and the deadline's margin. The shift is then the PR's one question, and a fixed
   * half left no-op harness diffs ending early with shifts still too wide to tell.
   */
  shiftSeconds(affected: number | undefined, counting: boolean): number | undefined {
    if (this.deadlineSeconds === undefined) return undefined;
    const left = Math.max(0, this.deadlineSeconds - this.spentSeconds());
    const third = left / 3;
    if (affected !== 0) return third;
    const shares = CONTROL_SHARE + (counting ? COUNT_SHARE : 0);
    const control = this.askedSeconds * shares + CONTROL_PREPARE_SECONDS + DEADLINE_MARGIN_SECONDS;
    return Math.max(third, left - control);
  }

  /**
   * How the pairs' `leftSeconds` are spent: first the points the PR affects, with all of it but the
   * control's reserved share, then the control sample with its share. The control is measured
   * exactly as the affected points are; only its time is bounded. Without a control the affected
   * points get everything; a tier without points is left out. A control alone (nothing affected)
   * has its share of the budget as asked for, not of what the deadline left: a harness PR's shift
   * takes the deadline's rest (shiftSeconds), and its control is the same check as anyone's.
   */
  tiers<T extends Impacted>(points: readonly T[], leftSeconds: number): BudgetTier<T>[] {
    const affected = points.filter((p) => p.impact === 'affected');
    const control = points.filter((p) => p.impact === 'control');
    const share = (affected.length ? leftSeconds : this.askedSeconds) * CONTROL_SHARE;
    const reserve = control.length ? Math.min(leftSeconds, share) : 0;
    const tiers: BudgetTier<T>[] = [
      { points: affected, shareSeconds: leftSeconds - reserve },
      { points: control, shareSeconds: reserve },
    ];
    return tiers.filter((t) => t.points.length);
  }

  /** Whether the deadline's cut left some tier less than the budget asked for would have given it (a control alone keeps its share). */
  cutShort(points: readonly Impacted[], leftSeconds: number): boolean {
    const asked = this.tiers(points, this.askedSeconds);
    return this.tiers(points, leftSeconds).some((t, i) => t.shareSeconds < asked[i]!.shareSeconds);
  }

  /** What the log and the comment say when the deadline cut the pairs' budget. */
  cutText(setupSeconds: number, leftSeconds: number): string {
    return `set-up (builds, checks, warm-ups) took ${minutes(setupSeconds)} min, so the diff's deadline of ${minutes(this.deadlineSeconds ?? 0)} min left ${minutes(leftSeconds)} of the ${minutes(this.askedSeconds)} budgeted minutes for pairs`;
  }

  /** The budget as comparison.json states it, now. */
  record(setupSeconds: number): PairsComparison['budget'] {
    return {
      seconds: this.askedSeconds,
      spentSeconds: this.spentSeconds(),
      setupSeconds,
      ...(this.deadlineSeconds ? { deadlineSeconds: this.deadlineSeconds } : {}),
    };
  }
}
