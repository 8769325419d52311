/**
 * How far a harness change moves an experiment's numbers: the same programs measured by the
 * base's harness and by the head's, alternating in rounds. Pure.
 *
 * The round is the unit, not the point: within a round both harnesses measure every sampled point
 * back to back, so whatever the machine did during that round is shared by its points. A round's
 * shift is the mean over the experiment's points of log(head / base); the pooled shift is the
 * Hodges-Lehmann centre of the rounds' shifts with its exact Wilcoxon signed-rank interval, as a
 * paired diff judges its pairs (analysis/signed-rank.ts): one round that the machine disturbed
 * (a stall that hits one harness's run) moves neither, where it widened a mean's t interval
 * severalfold (docs/paired-design.md).
 */
import { mean } from 'simple-statistics';
import { centreInterval } from '../../analysis/signed-rank.js';

/**
 * The shift a harness change may make before the comment flags it: an interval reaching past
 * ±1.5 % means the change could move every trend of that experiment by more than the run-to-run
 * noise a paired diff resolves.
 */
export const SHIFT_MARGIN = 0.015;

/** One point's lead metric measured once by each harness in one round. */
export interface Observation {
  experiment: string;
  benchmark: string;
  /** The metric compared (one per point for all its rounds). */
  metric: string;
  round: number;
  base: number;
  head: number;
}

export interface PooledShift {
  experiment: string;
  /** The points pooled (every point with at least one usable round). */
  points: string[];
  /** The metrics compared, in name order. */
  metrics: string[];
  /** Rounds with at least one usable point: the interval's sample size. */
  rounds: number;
  /** exp(Hodges-Lehmann centre of the rounds' log(head / base)): > 1 means the head's harness reads higher. */
  ratio: number;
  /** 95% interval of the ratio (exact signed-rank); absent below six rounds, where none reaches 95%. */
  ci?: [number, number];
  /** The interval reaches outside ±SHIFT_MARGIN. */
  flagged: boolean;
  /** Each round's shift as a ratio, in round order. */
  roundRatios: number[];
}

/** A measured pair of positive, finite values: a ratio exists. */
const usable = (o: Observation) => o.base > 0 && o.head > 0 && Number.isFinite(o.base) && Number.isFinite(o.head);

/** Each round's shift of one experiment's observations (the mean of its points' log-ratios), by round. */
export function roundShifts(obs: readonly Observation[]): Map<number, number> {
  const byRound = new Map<number, number[]>();
  for (const o of obs.filter(usable)) {
    const list = byRound.get(o.round) ?? [];
    list.push(Math.log(o.head / o.base));
    byRound.set(o.round, list);
  }
  return new Map([...byRound].sort(([a], [b]) => a - b).map(([r, logs]) => [r, mean(logs)]));
}

/** Whether an interval of ratios leaves ±margin. */
export function leavesMargin(ci: readonly [number, number], margin = SHIFT_MARGIN): boolean {
  return ci[0] < 1 - margin || ci[1] > 1 + margin;
}

/**
 * The level of the interval an early stop looks at. It is looked at after every round, and a shift
 * just at the margin would be called inside by some look far more often than one 95 % interval
 * allows. At this level a shift just at the margin is called inside about as often as one 95 % look
 * at the end would call it, and a no-op still retires early: simulated in
 * harness/test/pairs/harness-shift/early-stop.test.ts, the figures in docs/paired-design.md.
 */
export const EARLY_STOP_ALPHA = 0.01;

/**
 * One experiment's pooled shift, or undefined when no round gave a usable pair. Its interval is
 * the 95 % one (the reported shift), or at `alpha` where asked (an early stop's look).
 */
export function pooledShift(experiment: string, obs: readonly Observation[], alpha?: number): PooledShift | undefined {
  const mine = obs.filter((o) => o.experiment === experiment);
  const shifts = [...roundShifts(mine).values()];
  if (!shifts.length) return undefined;
  const points = [...new Set(mine.filter(usable).map((o) => o.benchmark))].sort();
  const metrics = [...new Set(mine.filter(usable).map((o) => o.metric))].sort();
  // An undefined alpha is centreInterval's default, the 95 % interval.
  const { centre, lo, hi } = centreInterval(shifts, alpha);
  const roundRatios = shifts.map((x) => Number(Math.exp(x).toPrecision(6)));
  const base = { experiment, points, metrics, rounds: shifts.length, ratio: Math.exp(centre), roundRatios };
  if (lo === undefined || hi === undefined) return { ...base, flagged: false };
  const ci: [number, number] = [Math.exp(lo), Math.exp(hi)];
  return { ...base, ci, flagged: leavesMargin(ci) };
}

/**
 * Whether a pooled shift answers its question: its interval lies inside ±margin (the change moves
 * nothing that matters) or wholly beyond it on one side (it does). An interval straddling the
 * margin, or none at all, needs more rounds.
 */
export function settled(shift: Pick<PooledShift, 'ci'>, margin = SHIFT_MARGIN): boolean {
  if (!shift.ci) return false;
  const [lo, hi] = shift.ci;
  return insideMargin(shift, margin) || lo > 1 + margin || hi < 1 - margin;
}

/**
 * Whether the rounds of an experiment may stop before the end: only once its interval (asked at
 * EARLY_STOP_ALPHA) lies inside ±margin. Its interval is looked at after every round, so stopping
 * as soon as it left the margin would raise a false "beyond" at every look: a no-op diff's noisy
 * point can leave it by chance after a few rounds (docs/paired-design.md). Measured on to the end,
 * an excursion is taken back by the later rounds, and "beyond" is one test, at the end.
 */
export function insideMargin(shift: Pick<PooledShift, 'ci'>, margin = SHIFT_MARGIN): boolean {
  return shift.ci !== undefined && shift.ci[0] >= 1 - margin && shift.ci[1] <= 1 + margin;
}

/** Every experiment's pooled shift, in name order (intervals at `alpha` where asked, as pooledShift). */
export function pooledShifts(obs: readonly Observation[], alpha?: number): PooledShift[] {
  const experiments = [...new Set(obs.map((o) => o.experiment))].sort();
  return experiments.flatMap((e) => pooledShift(e, obs, alpha) ?? []);
}
