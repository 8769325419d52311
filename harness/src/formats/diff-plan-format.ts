/**
 * What a paired diff will measure, before it measures anything (`npm run pairs -- --plan --json`):
 * the affected points with every reason, the control, the points left out as not affected, and
 * whether the harness's measuring code changed. pr.yml computes it with the base's own harness
 * (the trusted side) and hands it to the diff (`--trusted-plan`), which measures at least that set;
 * the comment workflow checks the diff answered every point it names.
 */
import { z } from 'zod';

/**
 * 2 added `unreadable`, 3 `traced`, 4 `traced.fromStore` and `traced.refusedWrites`; older plans
 * are read as having none.
 */
export const DIFF_PLAN_SCHEMA = 4;

const short = (max: number) => z.string().max(max);

export const DiffPlan = z
  .object({
    schema: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(DIFF_PLAN_SCHEMA)]),
    kind: z.literal('pairs-plan'),
    base: z.object({ root: short(1000), commit: short(64) }).strict(),
    head: z.object({ root: short(1000), commit: short(64) }).strict(),
    profile: short(20),
    /** Points the pull request may have changed, each with every reason (what changed, or why it cannot be known). */
    affected: z
      .array(z.object({ benchmark: short(300), reasons: z.array(short(600)).min(1).max(2000) }).strict())
      .max(10_000),
    /** Unaffected points measured all the same, as the diff's A/A control. */
    control: z.array(short(300)).max(1000),
    /** Points both sides have that nothing could have changed, in comparison.json's shape. */
    notAffected: z.array(z.object({ benchmark: short(300), reason: short(300) }).strict()).max(10_000),
    /** Whether the measuring code changed (compiled code identical on both sides is no change), and the files that differ. */
    harnessChange: z.object({ changed: z.boolean(), files: z.array(short(300)).max(2000), why: short(600) }).strict(),
    /**
     * Experiments the planning harness could not read on a side (an unknown manifest field, a
     * folder too large to identify): every point of theirs is affected, and the merge check
     * requires each such point measured to be decided (a fallback, not a free pass).
     */
    unreadable: z
      .array(z.object({ experiment: short(200), side: z.enum(['base', 'head']), reason: short(600) }).strict())
      .max(1000)
      .optional(),
    /**
     * The trace of the base's processes (pairs/diff/trace-base.ts): how many points ran under
     * it and how long it took, the paths it saw that no static identity names (with how many points
     * saw each, and in which experiments), and the points it could not trace fully or at all, with why.
     */
    traced: z
      .object({
        points: z.number().int().min(0),
        /** Base points whose traces came from the trend store (main's runs of the base commit), not traced here. */
        fromStore: z.number().int().min(0).optional(),
        seconds: z.number().min(0),
        seenOnlyByTracing: z
          .array(
            z
              .object({
                path: short(1000),
                points: z.number().int().min(1),
                experiments: z.array(short(200)).max(1000),
              })
              .strict(),
          )
          .max(10_000),
        notFullyTraced: z.array(z.object({ benchmark: short(300), reason: short(600) }).strict()).max(10_000),
        /** Base points whose processes tried to write outside their scratch folder (broken), with the paths. */
        refusedWrites: z
          .array(z.object({ benchmark: short(300), paths: z.array(short(1000)).min(1).max(100) }).strict())
          .max(10_000)
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type DiffPlan = z.infer<typeof DiffPlan>;
