/**
 * The summary at the top of a paired comparison.json (pairs/decide/summarize.ts computes it from the
 * points and the not-measured list): what the pull request broke, what failed on both sides,
 * which programs it changed, the exact counter changes, the counts of verdicts (JSON `calls`), and
 * the merge gate's result under the repository's rule (JSON `outcome`). Those two keys keep the names
 * readers already parse (docs/reading-results.md). Derived data: the PR comment computes it again
 * from the validated lists and never trusts an artifact's copy.
 */
import { z } from 'zod';

const finite = z.number().finite();
const count = z.number().int().nonnegative();
const short = (max: number) => z.string().max(max);

/** Points that pass on base and fail (or answer wrongly) on head, one group per variant, runtime and error. */
export const BrokenGroup = z
  .object({
    experiment: short(100),
    variant: short(100),
    runtime: short(50).optional(),
    points: count,
    benchmarks: z.array(short(300)).max(1000),
    /** The error's first meaningful line: the `Error:`/`error:` line or the failed validation. */
    error: short(300),
    /** One command that reproduces the first of these points on a checkout of head. */
    reproduce: short(500),
  })
  .strict();
export type BrokenGroup = z.infer<typeof BrokenGroup>;

/** Points not measured for one reason, on both sides or on one: a harness or machine matter, or a fix. */
export const NotMeasuredGroup = z
  .object({
    sides: z.enum(['both', 'base', 'head']),
    status: z.enum(['skipped', 'failed']),
    reason: short(300),
    points: count,
    experiments: z.array(short(100)).max(100),
  })
  .strict();
export type NotMeasuredGroup = z.infer<typeof NotMeasuredGroup>;

/** A counter that changed exactly (the same on every traced run of each side), over the points of one variant. */
export const CounterFinding = z
  .object({
    experiment: short(100),
    variant: short(100),
    metric: short(100),
    unit: short(20),
    /** The change of the point where it is largest. */
    base: finite,
    head: finite,
    /** Points of this variant where the counter changed exactly, of those whose counters were compared. */
    points: count,
    of: count,
  })
  .strict();
export type CounterFinding = z.infer<typeof CounterFinding>;

/** The merge gate's result (pairs/decide/merge-gate.ts): the comment's "Merge check" line, pr.yml's last step. */
export const GateResult = z
  .object({
    /** The rule as given (`PR_FAIL_ON`): broken, slower, slower>N%, none, comma-separated. */
    rule: short(100),
    fail: z.boolean(),
    because: short(300),
  })
  .strict();
export type GateResult = z.infer<typeof GateResult>;

export const DiffSummary = z
  .object({
    broken: z.array(BrokenGroup).max(1000),
    brokenPoints: count,
    notMeasured: z.array(NotMeasuredGroup).max(1000),
    /** `<experiment>/<variant>` of every program whose definition (sources, build, runtime) differs, measured or not. */
    changedPrograms: z.array(short(200)).max(1000),
    counters: z.array(CounterFinding).max(200),
    /**
     * The affected points' answers (pairs/decide/point-answers.ts): with the broken points they add
     * up to the affected points. `unmeasured`: points that got no pairs; `notMeasured` (schema 3):
     * every affected point not measured, for any reason (those included); `unanswered`: points
     * with no answer at all (a bug, said in the comment).
     */
    calls: z
      .object({
        slower: count,
        faster: count,
        unchanged: count,
        inconclusive: count,
        unmeasured: count,
        workloadChanged: count.optional(),
        added: count.optional(),
        removed: count.optional(),
        notMeasured: count.optional(),
        unanswered: count.optional(),
        /** Measured affected points (a changed workload apart) with another timed metric called slower or faster (schema 3). */
        alsoMoved: count.optional(),
        /** Affected points whose exact counts decided "work changed": grew, and shrank (schema 3). */
        workGrew: count.optional(),
        workShrank: count.optional(),
      })
      .strict(),
    outcome: GateResult,
    /**
     * What the PR could have changed (absent where every point was measured): points affected
     * (points only one side has included), not affected (byte-identical measured inputs, not
     * measured), and the control sample of unaffected points measured like the affected ones — how
     * many it called, at which level.
     */
    impact: z
      .object({
        affected: count,
        notAffected: count,
        control: count,
        controlCalled: count,
        controlLevel: z.number().min(0).max(1).optional(),
        /** Nothing was timed, so no control was drawn (comparison `untimed`). */
        untimed: z.literal(true).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type DiffSummary = z.infer<typeof DiffSummary>;
