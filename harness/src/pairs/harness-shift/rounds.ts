/**
 * Measures the sample with both harnesses in rounds: in every round each point is measured once
 * by each harness's own `bench` command, back to back, the side that goes first alternating with
 * the round and the point, so drift is shared by both. A point that fails on either side is
 * dropped at once, from this round's other side and the later rounds (its reason is kept).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readResults } from '../../formats/read-results.js';
import type { Results } from '../../formats/results-format.js';
import { firstErrorLine } from '../../lib/first-error-line.js';
import type { Profile } from '../../model/profiles.js';
import { benchArgs, type SamplePoint } from './sample.js';

export type Side = 'base' | 'head';

/** Runs one side's `bench` with these arguments in that side's directory; resolves to its exit status and stderr. */
export type RunBench = (
  side: Side,
  root: string,
  args: string[],
) => Promise<{ code: number; stderr: string; stdout?: string }>;

export interface RoundsPlan {
  sample: readonly SamplePoint[];
  rounds: number;
  profile: Profile;
  sides: { base: string; head: string; dir: string };
  /** Whether to stop before the next bench (a deadline); rounds measured so far are kept. */
  stop?: () => boolean;
  /** Whether the rounds measured so far answer the question, asked after each round: no more rounds then. */
  enough?: (measured: readonly Measurement[], roundsDone: number) => boolean;
  /**
   * The points whose question is answered, asked after each round: they are not measured again,
   * so the rounds left go faster for the others (an experiment whose interval has settled).
   */
  answered?: (measured: readonly Measurement[], roundsDone: number) => ReadonlySet<string>;
  /**
   * Timed runs both harnesses make of a point in a round, from what was measured before it
   * (undefined: the profile's). The same for both sides of a round, so their numbers are alike.
   */
  runsFor?: (point: SamplePoint, measured: readonly Measurement[]) => number | undefined;
  /** After `narrowAfter` rounds, the points to go on with (the rest were candidates); default all. */
  narrow?: (measured: readonly Measurement[]) => ReadonlySet<string>;
  /** Rounds every candidate is measured before `narrow` is asked (default 1). */
  narrowAfter?: number;
  log?: (m: string) => void;
}

/** One bench of one point on one side: its results, or why there are none. */
export interface Measurement {
  round: number;
  side: Side;
  point: SamplePoint;
  /** Timed runs asked for (undefined: the profile's). */
  runs?: number;
  /** Wall seconds the bench took, start-up included: what a round of this point costs. */
  seconds?: number;
  results?: Results;
  reason?: string;
}

/** The side that goes first for this round and point: alternating over both. */
export const baseFirst = (round: number, index: number) => (round + index) % 2 === 0;

interface BenchOne {
  round: number;
  side: Side;
  point: SamplePoint;
  index: number;
  runs: number | undefined;
}

async function benchOnce(plan: RoundsPlan, run: RunBench, b: BenchOne): Promise<Measurement> {
  const { round, side, point: p, runs } = b;
  const out = join(plan.sides.dir, 'out', `r${round}-p${b.index}-${side}`);
  const t0 = performance.now();
  const r = await run(side, plan.sides[side], benchArgs(p, plan.profile, out, runs));
  const seconds = (performance.now() - t0) / 1000;
  const file = join(out, 'results.json');
  const m: Measurement = { round, side, point: p, seconds, ...(runs !== undefined ? { runs } : {}) };
  if (!existsSync(file)) return { ...m, reason: `bench exited ${r.code}: ${firstErrorLine(r.stderr) || 'no results'}` };
  try {
    return { ...m, results: readResults(file) };
  } catch (e) {
    return { ...m, reason: `its results cannot be read by the head's harness: ${(e as Error).message}` };
  }
}

/** Every round's measurements, in the order they ran. */
export async function runRounds(plan: RoundsPlan, run: RunBench): Promise<Measurement[]> {
  const out: Measurement[] = [];
  const dropped = new Set<string>();
  for (let round = 0; round < plan.rounds; round++) {
    for (const [i, p] of plan.sample.entries()) {
      if (dropped.has(p.id)) continue;
      if (plan.stop?.()) return out;
      const order: Side[] = baseFirst(round, i) ? ['base', 'head'] : ['head', 'base'];
      const runs = plan.runsFor?.(p, out);
      for (const side of order) {
        const m = await benchOnce(plan, run, { round, side, point: p, index: i, runs });
        out.push(m);
        const b = m.results?.benchmarks.find((x) => x.id === p.id);
        if (b?.status !== 'ok') {
          // Nothing to pair it with: the other side is not run.
          dropped.add(p.id);
          break;
        }
      }
      plan.log?.(
        `harness shift: round ${round + 1} of at most ${plan.rounds}, ${p.id}${runs ? ` (${runs} runs)` : ''}`,
      );
    }
    if (round + 1 === Math.max(1, plan.narrowAfter ?? 1) && plan.narrow) {
      const keep = plan.narrow(out);
      for (const p of plan.sample) if (!keep.has(p.id)) dropped.add(p.id);
    }
    if (plan.enough?.(out, round + 1)) return out;
    for (const id of plan.answered?.(out, round + 1) ?? []) dropped.add(id);
  }
  return out;
}
