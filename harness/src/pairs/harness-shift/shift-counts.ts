/**
 * Counts for a harness change whose differences lie in points' own processes: each sampled point
 * counted under Valgrind by each side's own `bench` (its own harness running the head's programs, as
 * it would after the merge), and the two counts compared by the rule of counted work. A count does
 * not depend on the load, so this is exact where the rounds' timing cannot be: "work the same" means
 * the two harnesses make the program do the same work, whatever else they change about its run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compareCounts } from '../../counts/count-verdict.js';
import type { HarnessShift } from '../../formats/pairs-format.js';
import { readResults } from '../../formats/read-results.js';
import type { Benchmark } from '../../formats/results-format.js';
import { firstErrorLine } from '../../lib/first-error-line.js';
import type { Profile } from '../../model/profiles.js';
import type { RunBench, Side } from './rounds.js';
import { benchArgs, type SamplePoint } from './sample.js';

/** Points counted at most: each is a Valgrind run of the program on both sides. */
const MAX_COUNTED = 8;

export type ShiftWork = NonNullable<HarnessShift['work']>[number];

/**
 * The counted quantity of a benchmark: per operation for a fit, else per run; each repeat's value;
 * and why its counts do not decide, when they do not. Counts that decide only for one program's
 * code (Node 20's) do not decide here either: the two sides run it from other folders, with other
 * arguments, which moves them as a change of code that adds no work does.
 */
export function countedValues(
  b: Benchmark | undefined,
): { metric: string; values: number[]; evidence?: string } | { reason: string } {
  if (!b) return { reason: 'the point is missing from its results' };
  if (b.status !== 'ok') return { reason: `${b.status}: ${b.reason ?? ''}`.trim() };
  if (b.counts?.status === 'unavailable') return { reason: b.counts.reason };
  const evidence = b.counts?.role === 'evidence' ? (b.counts.because ?? 'its counts do not decide') : undefined;
  for (const metric of ['instructions_per_op', 'instructions']) {
    const m = b.metrics[metric];
    if (m) return { metric, values: m.samples?.length ? m.samples : [m.value], ...(evidence ? { evidence } : {}) };
  }
  return { reason: b.counts?.unmeasurable ? 'no cost per operation at the counted sizes' : 'not counted' };
}

/** Two sides' counts of one point compared (pure). */
export function shiftWork(
  id: string,
  base: ReturnType<typeof countedValues>,
  head: ReturnType<typeof countedValues>,
): ShiftWork {
  if ('reason' in base) return { benchmark: id, verdict: 'not-counted', reason: `base: ${base.reason}`.slice(0, 500) };
  if ('reason' in head) return { benchmark: id, verdict: 'not-counted', reason: `head: ${head.reason}`.slice(0, 500) };
  if (base.metric !== head.metric)
    return { benchmark: id, verdict: 'not-counted', reason: `the sides counted ${base.metric} and ${head.metric}` };
  const v = compareCounts(base.values, head.values);
  const because = base.evidence ?? head.evidence;
  const evidence = because ? { evidence: because.slice(0, 300) } : {};
  return v.kind === 'not-deterministic'
    ? { benchmark: id, metric: base.metric, verdict: v.kind, spread: v.spread, ...evidence }
    : {
        benchmark: id,
        metric: base.metric,
        verdict: v.kind,
        base: v.base,
        head: v.head,
        change: v.change,
        ...evidence,
      };
}

async function countOn(
  run: RunBench,
  side: Side,
  root: string,
  p: SamplePoint,
  profile: Profile,
  out: string,
): Promise<ReturnType<typeof countedValues>> {
  // One timed run (bench needs one), then the count of every chosen point: this one.
  const r = await run(side, root, [...benchArgs(p, profile, out, 1), '--counts', 'all']);
  const file = join(out, 'results.json');
  if (!existsSync(file)) return { reason: `bench exited ${r.code}: ${firstErrorLine(r.stderr) || 'no results'}` };
  try {
    return countedValues(readResults(file).benchmarks.find((b) => b.id === p.id));
  } catch (e) {
    return { reason: `its results cannot be read: ${(e as Error).message}` };
  }
}

/** Each point (MAX_COUNTED at most) counted by both sides' harnesses, one after the other. */
export async function countWithBothHarnesses(job: {
  sample: readonly SamplePoint[];
  profile: Profile;
  sides: { base: string; head: string; dir: string };
  run: RunBench;
  stop: () => boolean;
  log: (m: string) => void;
}): Promise<ShiftWork[]> {
  const work: ShiftWork[] = [];
  for (const [i, p] of job.sample.slice(0, MAX_COUNTED).entries()) {
    if (job.stop()) break;
    const out = (side: Side) => join(job.sides.dir, 'counts', `p${i}-${side}`);
    const base = await countOn(job.run, 'base', job.sides.base, p, job.profile, out('base'));
    const head = await countOn(job.run, 'head', job.sides.head, p, job.profile, out('head'));
    const w = shiftWork(p.id, base, head);
    job.log(`harness shift: ${p.id} counted by both harnesses: ${w.verdict}${w.reason ? ` (${w.reason})` : ''}`);
    work.push(w);
  }
  return work;
}
