/**
 * A bench run's raw samples (`raw-samples.json` beside its results.json): per benchmark, what its
 * runner measured before any unit was converted or statistic taken (run/runner.ts RawSamples) —
 * hyperfine's runs, a self-timed program's report lines and the harness's clock around them, GNU
 * time's peak, strace's counts. `bench --reduce FILE` makes every benchmark from such a file
 * without running anything, so two harnesses' analyses can be handed the same raw output
 * (pairs/harness-shift/harness-transcripts.ts). Read as another harness's output: validated.
 */
import { z } from 'zod';
import { BenchmarkId, CommitSha, Count, Num, SafeRecord, Text } from './parts/fields.js';
import { Validation } from './results-format.js';

export const RAW_SAMPLES_SCHEMA = 1;
/** The file's name in a run's folder. */
export const RAW_SAMPLES_FILE = 'raw-samples.json';
/** What a raw-samples file may take on disk (the quick profile's is a few MB). */
export const RAW_SAMPLES_MAX_BYTES = 200 * 2 ** 20;

const FieldName = z.string().min(1).max(200);
const Values = z.array(Num).max(1_000_000);

const RawRun = z
  .object({
    wall: Num.nonnegative(),
    memoryBytes: Num.nonnegative().optional(),
    report: SafeRecord(FieldName, Num).optional(),
    items: SafeRecord(FieldName, Values).optional(),
    /** What the program printed (a self-timed run's report line), read again by a reducing harness. */
    output: z
      .string()
      .max(16 * 2 ** 20)
      .optional(),
    /** GNU time's report of the run, as written. */
    time: z.string().max(10_000).optional(),
  })
  .strict();

const Syscalls = z
  .object({ calls: SafeRecord(FieldName, Count), errors: SafeRecord(FieldName, Count), total: Count })
  .strict();

const RawSamples = z
  .object({
    status: z.enum(['ok', 'failed', 'skipped']),
    reason: Text('long').optional(),
    command: z.string().max(20_000),
    timer: z.enum(['hyperfine', 'harness']),
    validation: Validation.optional(),
    report: SafeRecord(FieldName, Num),
    runs: z.array(RawRun).max(100_000),
    sizes: z
      .array(
        z
          .object({
            scale: Num,
            x: Num,
            bytes: Num.nonnegative().optional(),
            runs: z.array(RawRun).max(100_000),
          })
          .strict(),
      )
      .max(100)
      .optional(),
    maxRssBytes: Num.nonnegative().optional(),
    syscalls: Syscalls.optional(),
    notes: z.array(Text('long')).max(1000),
    measuredSeconds: Num.nonnegative(),
  })
  .strict();

export const RawSamplesFile = z
  .object({
    schema: z.literal(RAW_SAMPLES_SCHEMA),
    kind: z.literal('raw-samples'),
    commit: CommitSha,
    benchmarks: SafeRecord(BenchmarkId, RawSamples),
  })
  .strict();
export type RawSamplesFile = z.infer<typeof RawSamplesFile>;
