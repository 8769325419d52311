/**
 * A machine's stored counts (`<machine>/counts.json` in the trend store): each count under its key
 * (counts/count-key.ts: everything it depends on), with the counted runs it was made of, so a run
 * whose point has the same key takes the count instead of paying for it again
 * (counts/count-reuse.ts). Versioned on its own: the trend's files (STORE_SCHEMA) do not change.
 */
import { z } from 'zod';
import { BenchmarkId, CommitSha, Count, Num, SafeRecord, Text, Token } from './parts/fields.js';

/** 1: counts by key, with their runs, family and when they were last re-checked. */
export const COUNT_STORE_SCHEMA = 1;

/** The file's name inside a machine's folder. */
export const COUNT_STORE_FILE = 'counts.json';

const StoredRun = z
  .object({
    size: z.enum(['own', 'small', 'large']),
    instructions: Num.nonnegative(),
    x: Num.nonnegative().optional(),
  })
  .strict();

export const StoredCount = z
  .object({
    id: BenchmarkId,
    /** The deciding family the count belongs to (a re-check that disagrees drops the family's counts). */
    family: Token,
    runs: z.array(StoredRun).min(1).max(20),
    /** The commit whose run counted it, and when. */
    commit: CommitSha,
    counted: Text('short'),
    /** How many runs have re-checked it live and agreed: the re-check takes the least checked first. */
    checks: Count.default(0),
  })
  .strict();
export type StoredCount = z.infer<typeof StoredCount>;

export const CountStoreFile = z
  .object({
    schema: z.literal(COUNT_STORE_SCHEMA),
    counts: SafeRecord(Token, StoredCount),
  })
  .strict();
export type CountStoreFile = z.infer<typeof CountStoreFile>;
