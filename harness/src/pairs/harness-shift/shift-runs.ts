/**
 * How many timed runs each harness makes of a point in a round. A bench's own work (start-up,
 * planning, the checked and traced runs) costs seconds whatever the runs, while a quick profile
 * times a program only 3-5 times: the median of so few runs is what makes a round's ratio noisy.
 * So once the candidate rounds (the profile's runs) have chosen a point, both harnesses time it for
 * about RUN_SECONDS, never fewer runs than its profile's and never more than MAX_SHIFT_RUNS. Pure.
 */

/** Seconds of timed runs a bench of one point aims at, about what its own work costs. */
export const RUN_SECONDS = 3;
export const MAX_SHIFT_RUNS = 30;

/** What the point's first round showed: its runs (the profile's) and a run's median wall time. */
export interface FirstRound {
  runs: number;
  wallSeconds: number;
}

/** The runs for the point's later rounds, or undefined (the profile's) before any round or on an unusable one. */
export function shiftRuns(first: FirstRound | undefined): number | undefined {
  if (!first || !(first.runs >= 1) || !(first.wallSeconds > 0) || !Number.isFinite(first.wallSeconds)) return undefined;
  const wanted = Math.ceil(RUN_SECONDS / first.wallSeconds);
  return Math.max(first.runs, Math.min(MAX_SHIFT_RUNS, wanted));
}
