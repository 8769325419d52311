/**
 * The PR diff (`npm run pairs`, docs/paired-design.md): the engine's stages (pairs/engine/pair-engine.ts)
 * with what a pull request needs between them —
 *
 *   link both checkouts -> set up the machine -> load both sides -> what the PR affects (widened by
 *   the base's trusted plan) -> what its harness change does -> prepare and match the points it
 *   measures -> count their work -> measure in pairs -> comparison.json and pairs.json
 *
 * Only the affected points and a small control are measured; exact counts decide first, the pairs
 * go on as the budget allows; a harness change is answered by comparing what each harness ran. A
 * diff with nothing to time (no point affected, the harness unchanged or measuring the same) draws
 * no control.
 */
import type { DiffPlan } from '../../formats/diff-plan-format.js';
import type { HarnessShift } from '../../formats/pairs-format.js';
import { needsNoTiming, type TranscriptVerdict } from '../../formats/transcript-format.js';
import { UserError } from '../../lib/errors.js';
import type { Host } from '../../pipeline/setup.js';
import { DEFAULT_CONTROL_POINTS, dropControl, type ImpactPlan } from '../decide/impact.js';
import { matchPoints } from '../engine/diff-sides.js';
import {
  type DiffSides,
  type Engine,
  type EngineStart,
  loadSides,
  measureInPairs,
  prepareSides,
  startEngine,
  withLinkedSides,
} from '../engine/pair-engine.js';
import { type PairsResult, pairsOutcome } from '../engine/pairs-outcome.js';
import { measureHarnessShift } from '../harness-shift/measure-harness-shift.js';
import { type CountStoreOnDisk, countStage, storedCountsOf } from './count-stage.js';
import { takeRecorded, withRecordedPlans } from './recorded-pairs.js';
import { impactPlan } from './what-to-measure.js';

/** What a pull request's diff adds to the engine's: the control, the base's plan and transcripts, the counts. */
export interface PrChoices {
  /** Unaffected points measured as the control (default DEFAULT_CONTROL_POINTS). */
  controlPoints?: number;
  /** Measure the control even when nothing else is timed (asked for by hand: an A/A diff). */
  keepControl?: boolean;
  /** The plan the base's harness computed (`pairs --plan --json`): measured at least. */
  trusted?: DiffPlan;
  /** What both harnesses ran and computed, recorded before the diff (transcript --base-side). */
  transcripts?: TranscriptVerdict;
  /** Count each measured point's work on both sides before the pairs (JSIO_COUNTS=none turns it off). */
  counts: boolean;
  /** This machine's counts in the trend store: a base whose key it holds is not counted again (./stored-base.ts). */
  countStore?: CountStoreOnDisk;
}

/** `--require counts` without Valgrind is refused before anything is measured. */
function refuseMissingCounter(require: readonly string[], host: Host): void {
  if (require.includes('counts') && !host.tools.valgrind)
    throw new UserError(
      '--require counts: valgrind is not installed, so no work can be counted',
      'apt-get install valgrind',
    );
}

/**
 * What the PR's harness change does, measured before the pairs (its time counts as set-up, so the
 * deadline still holds), within the budget's share for it.
 */
function shiftOf(
  sides: DiffSides,
  engine: Engine,
  pr: PrChoices,
  affected: number,
  counting: boolean,
  paired: readonly string[],
) {
  const seconds = engine.budget.shiftSeconds(affected, counting);
  return measureHarnessShift(
    {
      base: sides.base.root,
      head: sides.head.root,
      filters: sides.head.filters,
      log: engine.log,
      ...(engine.noise ? { noise: engine.noise } : {}),
      ...(seconds !== undefined ? { deadlineSeconds: seconds } : {}),
    },
    {
      ...(pr.trusted ? { trusted: pr.trusted.harnessChange } : {}),
      ...(pr.transcripts ? { transcripts: pr.transcripts, paired } : {}),
    },
  );
}

/**
 * Whether the diff times nothing: no point is affected, and the harness is unchanged or its change
 * was answered exactly (the same code, or recordings of both harnesses that need no timing). The
 * control is an A/A check of the machine for timed answers; here it would vouch for none.
 */
function timesNothing(impact: ImpactPlan, shift: HarnessShift | undefined, pr: PrChoices): boolean {
  if (impact.affected.size) return false;
  if (!shift) return pr.trusted?.harnessChange.changed !== true;
  return shift.sameCode === true || (shift.rounds === 0 && !!shift.transcript && needsNoTiming(shift.transcript));
}

/** The PR diff of `sides`, measured by an engine started from `start`, with what the pull request adds (`pr`). */
export async function runPrDiff(sides: DiffSides, start: EngineStart, pr: PrChoices): Promise<PairsResult> {
  return withLinkedSides(sides.base.root, sides.head.root, async (baseRoot, headRoot) => {
    const engine = await startEngine(start);
    refuseMissingCounter(sides.setup.require, engine.host);
    const loaded = loadSides(sides, baseRoot, headRoot);
    const impact = impactPlan(loaded, pr.controlPoints ?? DEFAULT_CONTROL_POINTS, pr.trusted, engine.log);
    const counting = pr.counts && Boolean(engine.host.tools.valgrind);
    const planned = (s: { points: { id: string }[] }) => new Set(s.points.map((p) => p.id));
    const recorded = takeRecorded(
      pr.transcripts,
      { base: planned(loaded.base), head: planned(loaded.head) },
      impact,
      engine.log,
    );
    const harnessShift = await shiftOf(sides, engine, pr, impact.affected.size, counting, [...recorded.keys()]);
    const untimed = !pr.keepControl && timesNothing(impact, harnessShift, pr);
    if (untimed && dropControl(impact))
      engine.log(
        'impact: nothing in this diff needs timing, so the control (an A/A check of the machine) is not measured',
      );
    const prepared = await prepareSides(engine, loaded, sides.setup, new Set(impact.measure.keys()));
    const matched = withRecordedPlans(
      matchPoints(prepared.base, prepared.head, undefined, (id) => impact.measure.get(id) ?? 'affected'),
      recorded,
    );
    // Exact counts first, on every core: they decide at once; the pairs go on as the budget allows.
    // A point timed with the recorded commands was counted by each harness in the shift.
    const stored = storedCountsOf(pr.countStore, engine.host, prepared.base);
    const counts = await countStage(
      pr.counts ? matched.plans.filter((p) => !p.recordedCommands) : [],
      engine.host,
      engine.budget.countSeconds(),
      engine.log,
      stored,
    );
    const measured = await measureInPairs(engine, matched);
    const result = pairsOutcome(engine, prepared, matched, measured, { impact, work: counts.work });
    if (harnessShift) result.comparison.harnessShift = harnessShift;
    if (untimed) {
      result.comparison.untimed = true;
      // The pairs' method would describe a timing that did not happen.
      result.comparison.method =
        'nothing was timed: no point is affected, and the harness is unchanged or measures the same (decided from what each harness runs), so every answer here is exact';
    }
    if (counts.summary.counted + counts.summary.notCounted) result.comparison.counts = counts.summary;
    return result;
  });
}
