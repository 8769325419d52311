/**
 * What a pull request's harness change does to the numbers, as a pipeline of named stages:
 *
 *   find the changed measuring files -> draw a sample (every experiment, seeded by the head
 *   commit) -> set up both harnesses on the head's programs -> measure in alternating rounds
 *   -> pool each experiment's shift
 *
 * Nothing is measured when the pull request leaves the measuring code alone (undefined). The
 * rounds' measurements are read by ./shift-observations.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NoiseThresholds } from '../../formats/noise-format.js';
import type { HarnessShift } from '../../formats/pairs-format.js';
import {
  measuresTheSame,
  namedPoint,
  needsNoTiming,
  pointsToPair,
  pointsToTime,
  type TranscriptVerdict,
} from '../../formats/transcript-format.js';
import { plural } from '../../lib/format.js';
import { runtimesCache } from '../../machine/cache-root.js';
import { commitInfo } from '../../machine/machine.js';
import { readPins, resolveRuntime } from '../../machine/toolchains.js';
import type { Profile } from '../../model/profiles.js';
import { matchesAt } from '../../model/select.js';
import { onInterrupt } from '../../pipeline/setup.js';
import { loadAllExperiments } from '../../plan/experiments.js';
import { expand, type Filters, type Point } from '../../plan/plan.js';
import { benchProcess } from './bench-process.js';
import { harnessChange } from './harness-change.js';
import { makeShiftSides, type ShiftSides } from './harness-sides.js';
import { EARLY_STOP_ALPHA, insideMargin, pooledShifts, SHIFT_MARGIN, settled } from './pooled-shift.js';
import { keepQuietest } from './quietest.js';
import { type Measurement, type RunBench, runRounds, type Side } from './rounds.js';
import { drawSample, oneOfEachFirst, type SamplePoint, seedOf } from './sample.js';
import { countWithBothHarnesses } from './shift-counts.js';
import { candidatesOf, costText, firstRoundOf, observationsOf } from './shift-observations.js';
import { shiftRuns } from './shift-runs.js';

/**
 * Rounds every experiment gets before its interval may end the measurement: six, the fewest whose
 * signed-rank interval reaches 95 % (pooled-shift.ts).
 */
const MIN_ROUNDS = 6;
/**
 * Rounds at most: with a deadline (a PR diff) the rounds go on until every interval settles or time
 * runs out, so this is a guard, not a plan: high enough that a noisy lead (threadpool's p50) can
 * settle within the margin before the deadline does (docs/paired-design.md).
 */
const MAX_ROUNDS = 160;
const DEFAULT_PER_EXPERIMENT = 1;
/**
 * Points tried per point kept: the candidate rounds measure this many per experiment, and the
 * quietest go on (./analysis/quietest.ts). Without the machine's calibration nothing says
 * beforehand which points are steady, and two rounds of a few more cost less than rounds that
 * never settle.
 */
const CANDIDATES_PER_POINT = 3;
/**
 * Rounds every candidate is measured before the quietest are kept: they show how far a point's
 * ratio moves between bench invocations, the spread the pooled interval is made of. Two agree by
 * luck too often where invocations land in modes; a third costs little, as candidate rounds time
 * the profile's runs (a mode shows in a few runs as in thirty). They count among the kept points'
 * rounds.
 */
export const CANDIDATE_ROUNDS = 3;
const MAX_POINTS = 100;
/** comparison.json's caps on the file list: a pull request names its files, not the schema. */
const MAX_FILES = 2000;
const MAX_PATH = 500;

export interface HarnessShiftOptions {
  /** The two checkouts (the paired diff's --base and --head). */
  base: string;
  head: string;
  /** The profile both harnesses measure with (default quick). */
  profile?: Profile;
  /** Rounds at most (default: MAX_ROUNDS with a deadline, else MIN_ROUNDS); they stop once every experiment's interval settles. */
  rounds?: number;
  /** Points drawn per experiment (at least one each). */
  perExperiment?: number;
  /** The diff's selection (experiments, variants, parameter values) the sample is drawn from (default: everything). */
  filters?: Filters;
  /** The sample's seed (default: from the head commit, so a re-run draws the same). */
  seed?: number;
  /** Seconds the rounds may take; the rounds measured by then are pooled. */
  deadlineSeconds?: number;
  log?: (m: string) => void;
  /** Runs one side's bench (default: its own bootstrap as a process). */
  runBench?: RunBench;
  /** The machine's calibrated thresholds ("<id> <metric>" -> ratio): the sample takes each experiment's quietest points. */
  noise?: NoiseThresholds;
}

/** What the base's harness found before this measurement, which it honours. */
export interface BaseFindings {
  /** The base's own analysis of the harness change (a trusted plan): a change it sees is measured whatever this one finds. */
  trusted?: { changed: boolean; files: readonly string[] };
  /**
   * What both harnesses ran and computed (harness-transcripts.ts): when they measure the same, no
   * round is timed; otherwise the rounds are, and the differences go into the answer.
   */
  transcripts?: TranscriptVerdict;
  /**
   * The points the diff times in pairs with each side's recorded commands (pr-diff.ts): by default
   * every point the transcripts list so (pointsToPair); the diff leaves out those a program change
   * of the pull request affects, whose own pairs answer it.
   */
  paired?: readonly string[];
}

/** Whether a point's runtime is here (resolved as the head's harness would, installing npm-published ones). */
function runtimeAvailable(head: string, log: (m: string) => void): (p: Point) => Promise<boolean> {
  const pins = readPins(join(head, 'harness', 'toolchains.json'));
  const known = new Map<string, Promise<boolean>>();
  return (p) => {
    if (!known.has(p.runtime))
      known.set(
        p.runtime,
        resolveRuntime(p.runtime, pins, runtimesCache(), log).then((r) => r.ok),
      );
    return known.get(p.runtime)!;
  };
}

/** Whether a side's bench takes --runs (a base from before it does not: then neither side gets it). */
async function takesRuns(run: RunBench, side: Side, root: string): Promise<boolean> {
  const r = await run(side, root, ['bench', '--help']);
  return r.code === 0 && /--runs\b/.test(r.stdout ?? '');
}

/** A noise per point from the machine's calibrated thresholds: the smallest of the point's metrics'. */
function noiseOfPoints(noise: NoiseThresholds | undefined): (p: SamplePoint) => number | undefined {
  if (!noise) return () => undefined;
  const best = new Map<string, number>();
  for (const [key, t] of Object.entries(noise)) {
    const id = key.slice(0, key.lastIndexOf(' '));
    if (Number.isFinite(t)) best.set(id, Math.min(best.get(id) ?? Number.POSITIVE_INFINITY, t));
  }
  return (p) => best.get(p.id);
}

/**
 * The rounds every candidate is measured before the quietest are kept: CANDIDATE_ROUNDS when some
 * experiment has more candidates than it keeps (never more than the rounds), else one, since
 * there is nothing to choose and the kept points' longer rounds may start at once.
 */
export function candidateRounds(sample: readonly SamplePoint[], per: number, rounds: number): number {
  const count = new Map<string, number>();
  for (const p of sample) count.set(p.experiment.id, (count.get(p.experiment.id) ?? 0) + 1);
  const choosing = [...count.values()].some((n) => n > per);
  return choosing ? Math.max(1, Math.min(CANDIDATE_ROUNDS, rounds)) : 1;
}

/**
 * Whether a point's cache is emptied before every run (manifest `evict`): its rounds carry the
 * eviction's own variance (how much, in quiet no-op diffs: docs/paired-design.md), so it is a
 * candidate only when its experiment has too few others.
 */
export function evictsBeforeEveryRun(p: Point): boolean {
  const evict = p.experiment.manifest.evict;
  return evict !== undefined && matchesAt(p, evict.when);
}

/** The harness change's files, and the answer when nothing needs measuring (undefined: measure). */
async function changedMeasuringCode(
  opts: HarnessShiftOptions,
  trusted: BaseFindings['trusted'],
  log: (m: string) => void,
) {
  // A base without this project's entry point has no harness to measure with.
  if (!existsSync(join(opts.base, 'harness', 'bootstrap.mjs'))) {
    log('harness shift: the base has no harness/bootstrap.mjs, so its harness cannot be compared');
    return undefined;
  }
  const own = await harnessChange(opts.base, opts.head);
  // The trusted side's finding holds where this harness's own finds less.
  const overruled = trusted?.changed === true && (own.sameCode || own.files.length === 0);
  const change = overruled ? { files: [...new Set([...own.files, ...trusted.files])].sort(), sameCode: false } : own;
  if (overruled) log("harness shift: the base's analysis finds a harness change this one does not: measuring it");
  const files = change.files.slice(0, MAX_FILES).map((f) => f.slice(0, MAX_PATH));
  if (!files.length) return undefined;
  log(`harness shift: the pull request changes ${files.length} measuring file(s): ${files.join(', ')}`);
  return { files, sameCode: change.sameCode };
}

/**
 * The points the timed shift draws from: where the recordings put every difference in named
 * points, those alone (a difference in the harness's own work may move any point: all of them).
 */
function onlyNamed(points: Point[], named: readonly string[] | undefined, log: (m: string) => void): Point[] {
  if (!named) return points;
  const kept = points.filter((p) => namedPoint(named, p.id));
  // Names that match no point of this profile (a renamed point, a label of the head's own): all.
  if (!kept.length) return points;
  log(
    `harness shift: the recordings put every difference in ${named.length} named point(s) or builds: timing only those ${kept.length} of ${points.length}`,
  );
  return kept;
}

/**
 * Measures the harness change, or undefined when the pull request changes no measuring file; what
 * the base's harness already found (`found`) is honoured.
 */
export async function measureHarnessShift(
  opts: HarnessShiftOptions,
  found: BaseFindings = {},
): Promise<HarnessShift | undefined> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const change = await changedMeasuringCode(opts, found.trusted, log);
  if (!change) return undefined;
  const { files } = change;
  const profile = opts.profile ?? 'quick';
  const seed = opts.seed ?? seedOf(commitInfo(opts.head).sha);
  if (change.sameCode) {
    log('harness shift: both harnesses compile to the same runner code: nothing to measure');
    return { files, profile, rounds: 0, seed, margin: SHIFT_MARGIN, experiments: [], notMeasured: [], sameCode: true };
  }
  const transcript = found.transcripts ? { transcript: found.transcripts } : {};
  if (found.transcripts && needsNoTiming(found.transcripts)) {
    log(
      measuresTheSame(found.transcripts)
        ? 'harness shift: both harnesses run the same commands and compute the same numbers (transcripts): nothing to time'
        : 'harness shift: both harnesses run the same commands (transcripts); the numbers they make differently are listed exactly: nothing to time',
    );
    return { files, profile, rounds: 0, seed, margin: SHIFT_MARGIN, experiments: [], notMeasured: [], ...transcript };
  }
  const rounds = opts.rounds ?? (opts.deadlineSeconds !== undefined ? MAX_ROUNDS : MIN_ROUNDS);
  const experiments = loadAllExperiments(join(opts.head, 'programs'));
  const named = found.transcripts ? pointsToTime(found.transcripts) : undefined;
  const all = expand(experiments, profile, opts.filters ?? {});
  // Points whose difference is in their own timed commands are timed in pairs (pr-diff.ts); their
  // work is counted here, by both harnesses, with the timed shift's points.
  const pairedIds = new Set(
    found.paired ?? (found.transcripts ? pointsToPair(found.transcripts).map((r) => r.point) : []),
  );
  // Counted one of each program first (their first MAX_COUNTED are).
  const paired = all.filter((p) => pairedIds.has(p.id));
  const toCount = oneOfEachFirst(paired);
  const inPairs = paired.length ? { paired: paired.map((p) => p.id) } : {};
  if (paired.length && named?.length === 0) {
    log(
      `harness shift: every difference is in ${plural(paired.length, 'point')}' own timed commands or their environment: timed in pairs, as a program change is; counted here by both harnesses`,
    );
    const work = await countPaired(opts, toCount, profile, log);
    return {
      files,
      profile,
      rounds: 0,
      seed,
      margin: SHIFT_MARGIN,
      experiments: [],
      notMeasured: [],
      ...inPairs,
      ...(work.length ? { work } : {}),
      ...transcript,
    };
  }
  const points = onlyNamed(all, named, log);
  // comparison.json holds at most MAX_POINTS per experiment.
  const per = Math.min(MAX_POINTS, Math.max(1, opts.perExperiment ?? DEFAULT_PER_EXPERIMENT));
  const candidates = per * CANDIDATES_PER_POINT;
  const sample = await drawSample(points, seed, candidates, runtimeAvailable(opts.head, log), {
    noiseOf: noiseOfPoints(opts.noise),
    last: evictsBeforeEveryRun,
  });
  const narrowAfter = candidateRounds(sample, per, rounds);
  log(
    `harness shift: ${sample.length} candidate point(s), the quietest ${per} per experiment kept after ${plural(narrowAfter, 'round')}, at most ${rounds} round(s): ${sample.map((p) => p.id).join(', ')}`,
  );
  const measured = await measureRounds({
    opts,
    sample,
    per,
    rounds,
    narrowAfter,
    profile,
    experiments,
    named,
    paired: toCount,
    log,
  });
  return { files, profile, rounds, seed, margin: SHIFT_MARGIN, candidates, ...measured, ...inPairs, ...transcript };
}

/** Both harnesses set up side by side for a stage of the shift, and when that stage must stop. */
interface ShiftSession {
  sides: ShiftSides;
  run: RunBench;
  /** Interrupted (SIGINT/SIGTERM) or past the deadline: start nothing more. */
  stop: () => boolean;
  overDeadline: () => boolean;
  interrupted: () => boolean;
}

/**
 * `body` with both harnesses set up, within the shift's share of the diff's time
 * (`opts.deadlineSeconds`) and stopping cleanly on an interrupt (saying `stopping`); the sides are
 * removed after, whatever happens.
 */
async function withShiftSides<T>(
  opts: HarnessShiftOptions,
  log: (m: string) => void,
  stopping: string,
  body: (s: ShiftSession) => Promise<T>,
): Promise<T> {
  const sides = makeShiftSides(opts.base, opts.head);
  const started = performance.now();
  const overDeadline = () =>
    opts.deadlineSeconds !== undefined && (performance.now() - started) / 1000 > opts.deadlineSeconds;
  const interrupt = onInterrupt(log, stopping);
  try {
    return await body({
      sides,
      run: opts.runBench ?? benchProcess,
      stop: () => interrupt.interrupted || overDeadline(),
      overDeadline,
      interrupted: () => interrupt.interrupted,
    });
  } finally {
    interrupt.dispose();
    sides.dispose();
  }
}

/** The work of points timed in pairs, counted by both harnesses (nothing else of theirs is run here). */
const countPaired = (
  opts: HarnessShiftOptions,
  paired: readonly SamplePoint[],
  profile: Profile,
  log: (m: string) => void,
) =>
  withShiftSides(opts, log, 'stopping the count of the points timed in pairs', ({ sides, run, stop }) =>
    countWithBothHarnesses({ sample: paired, profile, sides, run, stop, log }),
  );

interface RoundsJob {
  opts: HarnessShiftOptions;
  sample: SamplePoint[];
  /** Points kept per experiment after the candidate rounds. */
  per: number;
  /** The candidate rounds (candidateRounds). */
  narrowAfter: number;
  rounds: number;
  profile: Profile;
  experiments: ReturnType<typeof loadAllExperiments>;
  /** The points or builds the recordings put every difference in (their work is counted by both harnesses). */
  named: readonly string[] | undefined;
  /** Points timed in pairs instead (pr-diff.ts): counted by both harnesses with the sample. */
  paired: readonly SamplePoint[];
  log: (m: string) => void;
}

/**
 * Both harnesses set up side by side; when the transcripts put every difference in points, those
 * points' work counted by each (exact); then the rounds measured, and each experiment's shift pooled.
 */
async function measureRounds(
  job: RoundsJob,
): Promise<Pick<HarnessShift, 'experiments' | 'notMeasured' | 'note' | 'work'>> {
  const { opts, sample, rounds, profile, log } = job;
  const stopping = 'stopping the harness shift; the rounds measured so far are pooled';
  return withShiftSides(opts, log, stopping, async ({ sides, run, stop, overDeadline, interrupted }) => {
    const manifests = new Map(job.experiments.map((e) => [e.id, e.manifest]));
    const manifestOf = (id: string) => manifests.get(id);
    let kept: ReadonlySet<string> | undefined;
    const narrow = (measured: readonly Measurement[]) => {
      const candidates = candidatesOf(sample, measured, manifestOf);
      kept = keepQuietest(candidates, job.per);
      const said = candidates.filter((c) => kept!.has(c.id)).map((c) => `${c.id}${costText(c)}`);
      log(`harness shift: going on with ${said.join(', ')}`);
      return kept;
    };
    const mine = (measured: readonly Measurement[]) =>
      kept ? measured.filter((m) => kept!.has(m.point.id)) : measured;
    const enough = (measured: readonly Measurement[], done: number) =>
      done >= Math.min(MIN_ROUNDS, rounds) &&
      pooledShifts(observationsOf(mine(measured), manifestOf).observations, EARLY_STOP_ALPHA).every((s) =>
        insideMargin(s),
      );
    // An experiment whose interval (at 99 %: EARLY_STOP_ALPHA) lies inside the margin is measured no
    // more: its rounds' time goes to the others. One that left it is measured on to the end
    // (../analysis/pooled-shift.ts).
    const answered = (measured: readonly Measurement[], done: number) => {
      if (done < Math.min(MIN_ROUNDS, rounds)) return new Set<string>();
      const shifts = pooledShifts(observationsOf(mine(measured), manifestOf).observations, EARLY_STOP_ALPHA);
      const ok = new Set(shifts.filter((s) => insideMargin(s)).map((s) => s.experiment));
      return new Set(sample.filter((p) => ok.has(p.experiment.id)).map((p) => p.id));
    };
    const work =
      job.named?.length || job.paired.length
        ? await countWithBothHarnesses({ sample: [...job.paired, ...sample], profile, sides, run, stop, log })
        : undefined;
    // Asked only when a round can still start (a spent deadline measures nothing at all).
    const runs = !stop() && (await takesRuns(run, 'base', sides.base)) && (await takesRuns(run, 'head', sides.head));
    if (!runs && !stop())
      log("harness shift: the base's bench takes no --runs, so both time each point the profile's runs");
    // The candidate rounds time the profile's runs; the kept points' rounds about RUN_SECONDS.
    const runsFor = runs
      ? (p: SamplePoint, ms: readonly Measurement[]) => (kept ? shiftRuns(firstRoundOf(p, ms)) : undefined)
      : undefined;
    const plan = {
      sample,
      rounds,
      profile,
      sides,
      stop,
      enough,
      answered,
      narrow,
      narrowAfter: job.narrowAfter,
      log,
      ...(runsFor ? { runsFor } : {}),
    };
    const ms = mine(await runRounds(plan, run));
    const { observations, notMeasured } = observationsOf(ms, manifestOf);
    const shifts = pooledShifts(observations);
    const unsettled = [...new Set(sample.map((p) => p.experiment.id))].some((id) => {
      const e = shifts.find((x) => x.experiment === id);
      return !e || !settled(e);
    });
    const cut = interrupted() ? 'interrupted' : overDeadline() && unsettled ? 'its time ran out' : undefined;
    const note = cut
      ? `the measurement was ${cut === 'interrupted' ? cut : `stopped when ${cut}`} before every experiment's interval settled (inside ±${SHIFT_MARGIN * 100} % or wholly beyond it)`
      : undefined;
    return { experiments: shifts, notMeasured, ...(note ? { note } : {}), ...(work ? { work } : {}) };
  });
}
