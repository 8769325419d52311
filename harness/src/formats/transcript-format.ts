/**
 * transcript.json: what a checkout's harness ran in one recorded `bench` (pairs/harness-shift/transcript-record.ts) —
 * every program started, with its arguments, environment, working directory, CPUs and limits,
 * the places that legitimately differ between recordings named (`<side>`, `<tmp>`…).
 */
import { z } from 'zod';
import { readUntrustedJson } from '../lib/untrusted.js';

const TRANSCRIPT_SCHEMA = 1;

const text = z.string().max(70_000);

const NormalRunSchema = z
  .object({
    exe: text,
    argv: z.array(text).max(100_000),
    env: z.array(text).max(10_000),
    cwd: text,
    affinity: z.string().max(1000).optional(),
    limits: z.record(z.string().max(100), z.string().max(1000)),
    /** The point whose sandbox it ran in (its harness's label), or `experiment/variant/` for a build. */
    point: z.string().max(1000).optional(),
    /** It fills an entry of the shared cache (not compared: either side may be first). */
    fill: z.literal(true).optional(),
    /** Standard input, output and error, when the recording wired them (a file's path, `pipe`, `/dev/null`). */
    stdio: z.tuple([text, text, text]).optional(),
    /** A sandbox's other inherited descriptors (`3 pipe`, `4 <path>`), as the sandbox player showed them. */
    fds: z.array(text).max(1000).optional(),
    /** What a sandbox's command names in its read-only binds, by content (`<path> <digest>`, `folder` or `missing`). */
    reads: z.array(text).max(10_000).optional(),
  })
  .strict();
/** One run as the transcript keeps it: no pid, no order number; the places named. */
export type NormalRun = z.infer<typeof NormalRunSchema>;

export const Transcript = z
  .object({
    schema: z.literal(TRANSCRIPT_SCHEMA),
    kind: z.literal('transcript'),
    side: z.object({ root: z.string().max(1000), commit: z.string().max(64) }).strict(),
    /** The bench arguments recorded (after the recording's own --out and --store). */
    bench: z.array(z.string().max(1000)).max(200),
    runs: z.array(NormalRunSchema).max(1_000_000),
  })
  .strict();
export type Transcript = z.infer<typeof Transcript>;

const line = z.string().max(600);
/** A sandbox's environment as name and value pairs (a variable's name as POSIX spells it). */
const EnvPairs = z.array(z.tuple([z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/), z.string().max(4000)])).max(100);

/**
 * What two recordings say about a harness change (pairs/harness-shift/harness-transcripts.ts):
 * whether both harnesses started the same programs the same way, and whether both made the same
 * numbers from the same raw output, with each difference named.
 */
/** A profile's name (it becomes a bench argument: no flag, no space). */
const ProfileName = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/);

/** Values two analyses made differently from the same raw output, by what moved. */
const Moves = z
  .array(
    z
      .object({
        what: line,
        benchmarks: z.number().int().nonnegative(),
        range: z.tuple([z.number(), z.number()]).optional(),
      })
      .strict(),
  )
  .max(50);

export const TranscriptVerdict = z
  .object({
    /** The bench arguments both sides were recorded with (the PR's profile and filters). */
    bench: z.array(z.string().max(1000)).max(200),
    runs: z
      .object({
        same: z.boolean(),
        alike: z.number().int().nonnegative(),
        differences: z
          .array(
            z
              .object({
                what: line,
                runs: z.number().int().nonnegative(),
                /** Where it is (pairs/harness-shift/transcript-compare.ts DifferenceKind); absent: the harness's. */
                kind: z.enum(['driver', 'program', 'harness']).optional(),
                /** How many points' runs differ that way. */
                points: z.number().int().nonnegative().optional(),
              })
              .strict(),
          )
          .max(50),
        /** Differences beyond the fifty kept. */
        more: z.number().int().nonnegative(),
        /**
         * Every point (id, or `experiment/variant/` for a build) some difference is in, when every
         * difference is in points; absent when one is in the harness's own work (every point).
         */
        inPoints: z.array(z.string().max(300)).max(5000).optional(),
        /**
         * The points whose every difference is in their own timed commands or their sandbox's
         * environment, with each side's commands as hyperfine ran them, and environment where they
         * differ (pairs/harness-shift/transcript-replay.ts): the diff times them in pairs, as a
         * program change is, and not in the timed shift. Absent from verdicts made before it.
         */
        replay: z
          .array(
            z
              .object({
                point: z.string().max(300),
                base: z.array(z.string().max(4000)).min(1).max(8),
                head: z.array(z.string().max(4000)).min(1).max(8),
                /** Each side's sandbox environment, when they differ. */
                env: z.object({ base: EnvPairs, head: EnvPairs }).strict().optional(),
              })
              .strict(),
          )
          .max(1000)
          .optional(),
      })
      .strict(),
    numbers: z
      .object({
        same: z.boolean(),
        compared: z.number().int().nonnegative(),
        notReplayed: z.number().int().nonnegative(),
        /**
         * Benchmarks whose every number both analyses made from the base's raw samples (`bench
         * --reduce`: self-timed ones included); absent when the head's harness could not, or the
         * base kept none.
         */
        reduced: z.number().int().nonnegative().optional(),
        /**
         * The base kept raw samples and the head's harness could not make numbers from them: what
         * its analysis does to the benchmarks only they cover (self-timed ones) is unknown, so the
         * diff is timed (fail closed).
         */
        unreduced: z.literal(true).optional(),
        moves: Moves,
        /**
         * How far the values move on real runs: both analyses handed the raw samples of the base
         * commit's timed run on main (its trend's profile), so each range is what the trend will
         * show after the merge. Absent when main kept none, or either analysis could not reduce them.
         */
        trend: z
          .object({ profile: ProfileName, benchmarks: z.number().int().nonnegative(), moves: Moves })
          .strict()
          .optional(),
      })
      .strict(),
    /**
     * The CPU seconds of each side's harness process in its recording (its own threads, not the
     * programs it starts), and whether their difference stays inside `bound` (measured A/A:
     * pairs/harness-shift/harness-load.ts). Absent from verdicts made before it was measured.
     */
    harnessLoad: z
      .object({
        base: z.number().nonnegative().nullable(),
        head: z.number().nonnegative().nullable(),
        bound: z.number().nonnegative(),
        within: z.boolean(),
      })
      .strict()
      .optional(),
    /** Each recorded bench's exit status (a side whose bench failed decides nothing). */
    exits: z.object({ base: z.number().int().nullable(), head: z.number().int().nullable() }).strict(),
    seconds: z.number().nonnegative(),
    /** The base's recording was main's, from the trend store: only the head was recorded, in `seconds`. */
    baseStored: z.literal(true).optional(),
  })
  .strict();
export type TranscriptVerdict = z.infer<typeof TranscriptVerdict>;

/** transcripts.json: the verdict as the recording step writes it for the diff and the comment. */
export const TranscriptVerdictFile = z
  .object({
    schema: z.literal(1),
    kind: z.literal('transcript-verdict'),
    base: z
      .object({
        commit: z.string().max(64),
        /** The base's recording came from the trend store (main recorded it on its push), not this job. */
        stored: z.literal(true).optional(),
      })
      .strict(),
    head: z.object({ commit: z.string().max(64) }).strict(),
    verdict: TranscriptVerdict,
  })
  .strict();
export type TranscriptVerdictFile = z.infer<typeof TranscriptVerdictFile>;

/**
 * Both harnesses run the same programs the same way, with their own work alike, and make the same
 * numbers: measures the same.
 */
export const measuresTheSame = (v: TranscriptVerdict): boolean => v.numbers.same && needsNoTiming(v);

/**
 * Both harnesses run the same programs the same way, and neither does more work of its own while
 * they run (harnessLoad): nothing needs timing. Numbers made
 * differently from the same raw output are listed exactly (what the trend shows after the merge).
 */
export const needsNoTiming = (v: TranscriptVerdict): boolean =>
  v.runs.same &&
  v.exits.base === 0 &&
  v.exits.head === 0 &&
  v.harnessLoad?.within !== false &&
  v.numbers.unreduced !== true;

/**
 * The points a timed shift must measure: none when nothing needs timing, those the differences
 * are in when every one is in points (`experiment/variant/` stands for each point it starts),
 * and undefined (every point) otherwise.
 */
export function pointsToTime(v: TranscriptVerdict): readonly string[] | undefined {
  if (needsNoTiming(v)) return [];
  // The harness's own extra work weighs on every point it measures.
  if (v.exits.base !== 0 || v.exits.head !== 0 || v.harnessLoad?.within === false) return undefined;
  // Numbers the head would not make from the base's raw samples may be any point's.
  if (v.numbers.unreduced) return undefined;
  const paired = new Set(pointsToPair(v).map((r) => r.point));
  return v.runs.inPoints?.filter((p) => !paired.has(p));
}

/**
 * The points timed in pairs with each side's recorded commands (`runs.replay`): only where every
 * difference is in named points (a difference in the harness's own work may move any point, and
 * the timed shift samples them all).
 */
export function pointsToPair(v: TranscriptVerdict): NonNullable<TranscriptVerdict['runs']['replay']> {
  if (needsNoTiming(v) || v.exits.base !== 0 || v.exits.head !== 0 || v.harnessLoad?.within === false) return [];
  if (v.numbers.unreduced || !v.runs.inPoints) return [];
  return v.runs.replay ?? [];
}

/** Whether a point id is one of `named` (an id, or an `experiment/variant/` prefix). */
export const namedPoint = (named: readonly string[], id: string): boolean =>
  named.some((n) => (n.endsWith('/') ? id.startsWith(n) : id === n));

/** Reads transcripts.json as untrusted input (an artifact of another job). */
export const readVerdictFile = (file: string): TranscriptVerdictFile =>
  readUntrustedJson(file, TranscriptVerdictFile, { maxBytes: 2 * 2 ** 20, what: 'transcript verdict' });

const RECORDING_SCHEMA = 1;

/**
 * What a recording was made with, beyond the bench arguments: two recordings are compared only
 * when all of it is equal (the recorder's code, and so its player and its normalization; the
 * machine's hyperfine, which the player impersonates; the Node.js the recorded harness runs on).
 */
export const RecorderContext = z
  .object({
    /** The commit of the recorder's own checkout (for a pull request: the merge base's). */
    recorder: z.string().max(64),
    player: z.boolean(),
    hyperfine: z.string().max(200),
    node: z.string().max(40),
  })
  .strict();
export type RecorderContext = z.infer<typeof RecorderContext>;

/**
 * recording.json, and `<machine>/recordings/<sha>.json.gz` in the trend store: one side's whole
 * recording (store/recording-store.ts) — main records each pushed commit at the pull requests'
 * profile, so a pull request based on it records only its head.
 */
export const StoredRecording = z
  .object({
    schema: z.literal(RECORDING_SCHEMA),
    kind: z.literal('recording'),
    commit: z.string().regex(/^[0-9a-f]{40}$/),
    machine: z.string().max(200),
    /** When it was recorded (ISO 8601): what the store's pruning orders by. */
    recorded: z.string().max(40),
    context: RecorderContext,
    exit: z.number().int().nullable(),
    said: z.string().max(4000),
    harnessCpu: z.number().nonnegative().optional(),
    /** The recorded bench's results.json as it wrote it (its numbers are compared, not trusted). */
    results: z
      .string()
      .max(256 * 2 ** 20)
      .optional(),
    /** The recorded bench's raw-samples.json (what a head's analysis is handed: `bench --reduce`). */
    raw: z
      .string()
      .max(256 * 2 ** 20)
      .optional(),
    /**
     * The raw samples of the commit's timed run (main's push, at its trend's profile): a pull
     * request's two analyses are both handed them, so a move's size is the trend's, not the
     * recording's made-up timings.
     */
    measured: z
      .object({
        profile: ProfileName,
        raw: z.string().max(256 * 2 ** 20),
      })
      .strict()
      .optional(),
    transcript: Transcript,
  })
  .strict();
export type StoredRecording = z.infer<typeof StoredRecording>;
export { RECORDING_SCHEMA };
