/**
 * comparison.json of `npm run pairs`: the paired diff (docs/paired-design.md), the only document
 * the PR-comment workflow accepts from an (untrusted) artifact, after validating it against this
 * schema. Schemas 2 to 4 (formats/comparison-format.ts): 4 says `"kind": "pairs"`, 2 and 3 did not.
 * One row per benchmark point, led by its headline metric; the point's other metrics are folded
 * into it; counters are compared exactly over untimed traces of each side. 3 and 4 only add
 * optional fields, so a reader of 4 reads 2 and 3 as they are.
 */
import { z } from 'zod';
import { DIRECTIONS } from '../model/metrics.js';
import { PAIRS_VERDICTS, WORK_VERDICTS } from '../model/verdicts.js';
import { type ComparisonKind, PAIRS_COMPARISON_OLDEST, PAIRS_COMPARISON_SCHEMA } from './comparison-format.js';
import { COMPARISON_LISTS, COUNTER_SIDES, ComparisonSide, Params, short } from './parts/comparison-parts.js';
import { DiffSummary } from './parts/diff-summary.js';
import { Num } from './parts/fields.js';
import { WorkBreakdown } from './parts/work-breakdown-fields.js';
import { TranscriptVerdict } from './transcript-format.js';

/** One metric of a point compared over its pairs. */
export const PairsMetric = z
  .object({
    metric: short(100),
    unit: short(20),
    direction: z.enum(DIRECTIONS),
    baseMedian: Num,
    headMedian: Num,
    /** Centre of head/base (Hodges-Lehmann of the paired log-ratios, or of the Walsh ratios for a fit): > 1 = head worse. */
    ratio: Num,
    /** The interval the verdict stands on (its level is the look's, see `confidence`); absent with too few pairs. */
    ci: z.tuple([Num, Num]).optional(),
    confidence: Num,
    p: Num,
    verdict: z.enum(PAIRS_VERDICTS),
    note: short(300).optional(),
    /**
     * A folded metric that repeats another's evidence (a rate over that metric's time): judged
     * with it, never a verdict of its own (schema 3).
     */
    of: short(100).optional(),
  })
  .strict();
export type PairsMetric = z.infer<typeof PairsMetric>;

export const PairsCounter = z.object(COUNTER_SIDES).strict();
export type PairsCounter = z.infer<typeof PairsCounter>;

/**
 * A point's work counted on both sides (pairs/engine/count-sides.ts, schema 3): user-space
 * instructions under Valgrind with each runtime's deterministic settings, per operation for a fit
 * (start-up cancelled), else per run. `changed` beyond the tolerance is the point's "work changed",
 * decided at once whatever the timing says; a point whose counts are evidence (threads, the
 * kernel, a runtime without deterministic settings) is shown, never called.
 */
const CountedWork = z
  .object({
    status: z.literal('counted'),
    metric: z.enum(['instructions_per_op', 'instructions']),
    /** What one operation is, for a fit ("read"). */
    per: short(40).optional(),
    unit: short(20),
    /** Each side's counts, one per repeat. */
    base: z.array(Num).min(1).max(20),
    head: z.array(Num).min(1).max(20),
    verdict: z.enum(WORK_VERDICTS),
    /** (head - base) / base of the medians; absent when not deterministic. */
    change: Num.optional(),
    /** The larger side's relative spread of its repeats. */
    spread: Num,
    tolerance: Num,
    role: z.enum(['decides', 'evidence']),
    because: short(300).optional(),
    /** What the count covers: the runtime's deterministic settings, in words. */
    settings: short(300),
    /** Where the instructions went, for a changed count (callgrind, evidence), or why it is missing. */
    breakdown: z.union([WorkBreakdown, z.object({ unavailable: short(600) }).strict()]).optional(),
    /**
     * The base's count was taken from the trend store, where main's run of this commit kept it under
     * the same key (schema 5; absent: counted live in this diff).
     */
    baseStored: z
      .object({ commit: short(40) })
      .strict()
      .optional(),
  })
  .strict();
const NotCountedWork = z.object({ status: z.literal('not-counted'), reason: short(600) }).strict();
export const PairsWork = z.discriminatedUnion('status', [CountedWork, NotCountedWork]);
export type PairsWork = z.infer<typeof PairsWork>;

export const PairsPoint = z
  .object({
    benchmark: short(300),
    experiment: short(100),
    variant: short(100),
    params: Params,
    placement: short(300),
    /** The measured-input identity (program, imports, input generator, manifest entry, runtime pin) differs between base and head. */
    changed: z.boolean().optional(),
    /**
     * What the pull request changed in the point's workload (derived values, parameters, the
     * generated input's bytes, checks, runner, placement): measured in pairs all the same, its
     * change is the workload's, never a regression of the program (schema 3).
     */
    workloadChanged: short(300).optional(),
    /** Why the point was measured: the PR may have changed it, or it is one of the diff's A/A controls (absent in older files). */
    impact: z.enum(['affected', 'control']).optional(),
    /** How the pairs were made: whole processes timed by the harness, the program's own clock, or a fit over two sizes. */
    kind: z.enum(['process', 'self', 'fit']),
    /** Pairs measured (each: one base and one head process, or four for a fit), and how many ran base first. */
    pairs: z.number().int().nonnegative(),
    baseFirst: z.number().int().nonnegative(),
    /** Why sampling stopped: the interval decided; the plan's last look; the time budget; the data cannot be compared. */
    stop: z.enum(['decided', 'last-look', 'budget', 'unmeasurable']),
    /** Minimum effect used for this point (the larger of 2% and its calibrated threshold). */
    minEffect: Num,
    /** Seconds one pair took (both sides, timer included). */
    secondsPerPair: Num,
    lead: PairsMetric,
    /**
     * The point's other metrics over the same pairs. From schema 3, each timed one is judged at its
     * share of the diff-wide false-positive level (pairs/decide/multiplicity.ts); in schema 2 they
     * were fixed-size comparisons at 5 %, no verdict of a change.
     */
    folded: z.array(PairsMetric).max(50),
    /** The folded metrics called slower or faster at their share of the diff-wide level (schema 3). */
    also: z.array(short(100)).max(50).optional(),
    counters: z.array(PairsCounter).max(500),
    /** How much worse the second process of a pair is than the first (> 1: worse), when measurable. */
    orderEffect: Num.optional(),
    /** This point's share of the diff-wide false-positive level (pairs/decide/multiplicity.ts): its change test's level. */
    alpha: Num.optional(),
    /** Its work counted on both sides, before the pairs (schema 3). */
    work: PairsWork.optional(),
  })
  .strict();
export type PairsPoint = z.infer<typeof PairsPoint>;

/**
 * What a harness change did to the numbers (pairs/harness-shift/): the measuring files the pull
 * request changed and, per experiment, the pooled shift of a sample of its points measured by the
 * base's harness against the head's, on the head's programs, in alternating rounds.
 */
export const HarnessShift = z
  .object({
    /** The harness's measuring files (repository paths) whose bytes differ. */
    files: z.array(short(500)).max(2000),
    profile: short(20),
    /** Rounds at most: they stop once every experiment's interval settles (an experiment's own count says how many it got). */
    rounds: z.number().int().nonnegative(),
    /** Seed of the sample (from the head commit). */
    seed: z.number().int(),
    /** Points per experiment measured in the candidate rounds, of which the quietest were kept (absent in older files: all kept). */
    candidates: z.number().int().nonnegative().optional(),
    /** The shift the comment flags when an interval leaves ±margin (0.015 = 1.5 %). */
    margin: Num,
    experiments: z
      .array(
        z
          .object({
            experiment: short(100),
            points: z.array(short(300)).max(100),
            /** The metrics compared (each point's lead, one for all its rounds). */
            metrics: z.array(short(100)).max(100),
            rounds: z.number().int().nonnegative(),
            /** exp(mean of the rounds' log(head / base)): > 1 means the head's harness reads higher. */
            ratio: Num,
            ci: z.tuple([Num, Num]).optional(),
            flagged: z.boolean(),
            /** Each round's shift as a ratio, in round order: what the interval was computed from. */
            roundRatios: z.array(Num).max(1000).optional(),
          })
          .strict(),
      )
      .max(500),
    /** Sampled points without a shift, and why (a side failed, skipped, or its results were unreadable). */
    notMeasured: z.array(z.object({ benchmark: short(300), reason: short(500) }).strict()).max(1000),
    /** Why fewer rounds than planned were measured (interrupted, out of time). */
    note: short(300).optional(),
    /**
     * The changed files are sources that compile to the same runner code as the base's (and no
     * tool, pin or package differs): nothing can measure differently, so nothing was measured.
     */
    sameCode: z.boolean().optional(),
    /**
     * What both harnesses ran and computed, recorded from outside (transcripts). When they measure
     * the same, nothing was timed (rounds 0, no experiments).
     */
    transcript: TranscriptVerdict.optional(),
    /**
     * Points whose every difference is in their own timed commands (the transcripts' `replay`):
     * timed in pairs with each harness's recorded commands, as a program change is, among the
     * comparison's points; not in the rounds.
     */
    paired: z.array(short(300)).max(1000).optional(),
    /**
     * When the transcripts put every difference in points: those points' work counted under
     * Valgrind by each side's own harness and compared (pairs/harness-shift/shift-counts.ts).
     */
    work: z
      .array(
        z
          .object({
            benchmark: short(300),
            metric: short(40).optional(),
            verdict: z.enum(['same', 'changed', 'not-deterministic', 'not-counted']),
            base: Num.optional(),
            head: Num.optional(),
            change: Num.optional(),
            spread: Num.optional(),
            reason: short(500).optional(),
            /** Why this point's counts do not decide (its runtime's, a cold cache): shown, never a warning. */
            evidence: short(300).optional(),
          })
          .strict(),
      )
      .max(100)
      .optional(),
  })
  .strict();
export type HarnessShift = z.infer<typeof HarnessShift>;

export const PairsComparison = z
  .object({
    schema: z.union([
      z.literal(PAIRS_COMPARISON_OLDEST),
      z.literal(3),
      z.literal(4),
      z.literal(PAIRS_COMPARISON_SCHEMA),
    ]),
    /** Which document this is; absent from schemas 2 and 3, which their number told apart (formats/comparison-format.ts). */
    kind: z.literal('pairs' satisfies ComparisonKind).optional(),
    method: short(800),
    /** Seed of the pair orders (pairs/decide/pair-statistics.ts pairOrder): the schedule can be recomputed. */
    seed: z.number().int(),
    budget: z
      .object({
        /** The pairs' time budget. */
        seconds: Num,
        /** The whole diff, set-up included. */
        spentSeconds: Num,
        /** Builds, checks, counters and warm-ups before the first pair (absent in older files). */
        setupSeconds: Num.optional(),
        /** The whole diff's deadline, when one was given (--deadline). */
        deadlineSeconds: Num.optional(),
      })
      .strict(),
    base: ComparisonSide,
    head: ComparisonSide,
    points: z.array(PairsPoint).max(10_000),
    ...COMPARISON_LISTS,
    /**
     * Points both sides have whose measured inputs are byte-identical, left unmeasured, each with
     * the reason (absent in older files and where every point was measured).
     */
    notAffected: z
      .array(z.object({ benchmark: short(300), reason: short(300) }).strict())
      .max(10_000)
      .optional(),
    /** Why each affected point is affected (what changed), by benchmark id. */
    affectedBecause: z
      .array(z.object({ benchmark: short(300), reason: short(600) }).strict())
      .max(10_000)
      .optional(),
    /** The profile both sides were planned with (for the commands that reproduce a point). */
    profile: short(20).optional(),
    /** What leads the comment: broken points, failures on both sides, exact counter changes, the merge check. */
    summary: DiffSummary.optional(),
    /** When the pull request changes the harness's measuring code: what that did to the numbers. */
    harnessShift: HarnessShift.optional(),
    /**
     * Nothing in this diff needed timing: no point affected, and the harness unchanged or its change
     * answered exactly. No control was measured (trusted-coverage.ts accepts that only where the
     * trusted plan and the recordings say the same).
     */
    untimed: z.literal(true).optional(),
    /**
     * The counting stage (schema 3): how many points were counted and how long it took; whether
     * this diff's counts can be trusted (a control point deterministic on each side yet differing
     * between them says they cannot: every work verdict is then evidence), and the tools' versions.
     */
    counts: z
      .object({
        counted: z.number().int().nonnegative(),
        notCounted: z.number().int().nonnegative(),
        seconds: Num,
        trusted: z.boolean(),
        untrustedBecause: short(600).optional(),
        tolerance: Num,
        /**
         * The base's counts taken from the trend store (schema 5): whether the store was used (or
         * why not), how many bases were taken from it, and the live re-checks that let them be.
         */
        storedBase: z
          .object({
            store: short(200),
            taken: z.number().int().nonnegative(),
            rechecked: z
              .array(
                z
                  .object({
                    benchmark: short(300),
                    family: short(40),
                    by: z.enum(['head', 'base']),
                    agreed: z.boolean(),
                  })
                  .strict(),
              )
              .max(100),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type PairsComparison = z.infer<typeof PairsComparison>;

/**
 * Schema 4 as its readers check it: schema 5 without what 5 added (a base count taken from the
 * trend store, per point and in the counting stage's summary).
 */
const PairsWorkV4 = z.discriminatedUnion('status', [CountedWork.omit({ baseStored: true }), NotCountedWork]);
const CountsV4 = PairsComparison.shape.counts.unwrap().omit({ storedBase: true });
export const PairsComparisonV4 = PairsComparison.extend({
  schema: z.literal(4),
  points: z.array(PairsPoint.extend({ work: PairsWorkV4.optional() }).strict()).max(10_000),
  counts: CountsV4.strict().optional(),
});
export type PairsComparisonV4 = z.infer<typeof PairsComparisonV4>;

/**
 * Schema 3 as its readers check it: schema 4 without `kind`, the one field 4 added. A pull
 * request's harness writes this for a default branch whose reader knows 3 at most
 * (pairs/comment/down-level.ts).
 */
export const PairsComparisonV3 = PairsComparisonV4.omit({ kind: true }).extend({ schema: z.literal(3) });
export type PairsComparisonV3 = z.infer<typeof PairsComparisonV3>;

/**
 * Schema 2 as its readers check it: schema 3 without the fields 3 added (and without a summary,
 * which they compute again). A pull request's harness writes this for a default branch whose
 * reader knows no newer schema (pairs/comment/down-level.ts): the PR-comment workflow runs that
 * reader on the pull request's artifact.
 */
const PairsMetricV2 = PairsMetric.omit({ of: true });
const PairsPointV2 = PairsPoint.omit({ workloadChanged: true, also: true, work: true }).extend({
  lead: PairsMetricV2,
  folded: z.array(PairsMetricV2).max(50),
});
export const PairsComparisonV2 = PairsComparison.omit({ kind: true, summary: true, counts: true }).extend({
  schema: z.literal(PAIRS_COMPARISON_OLDEST),
  points: z.array(PairsPointV2).max(10_000),
});
export type PairsComparisonV2 = z.infer<typeof PairsComparisonV2>;
