/**
 * A commit's traced paths (`<machine>/traces/<sha>.json` in the trend store, and `traces.json` in a
 * bench run's folder): per profile and point, the checkout-relative paths its processes touched
 * in one traced run (run/trace-files.ts), so the trusted plan of a pull request whose merge base
 * is that commit takes them instead of tracing the base again (pairs/diff/stored-traces.ts).
 * One file per commit: a plan reads only its base's, and pr.yml fetches only that one.
 * Versioned on its own: the trend's files (STORE_SCHEMA) do not change.
 */
import { z } from 'zod';
import { PROFILES } from '../model/profiles.js';
import { BenchmarkId, CommitSha, SafeRecord, Text } from './parts/fields.js';

/**
 * 1: paths, listed folders, refused writes and io_uring per profile and point, of the program's run
 * only; 2: of its input generator's and build's processes too. A file of schema 1 is read as one
 * with no points (./migrateTraceFile): what it holds misses the builds' reads, and a plan traces
 * such a base again rather than take it.
 */
export const TRACE_STORE_SCHEMA = 2;

/** A trace file of an older schema taken forward: its points dropped (see TRACE_STORE_SCHEMA). */
export function migrateTraceFile(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || (raw as { schema?: unknown }).schema !== 1) return raw;
  return { ...(raw as object), schema: TRACE_STORE_SCHEMA, profiles: {} };
}

/** The folder of a machine's trace files. */
export const TRACE_STORE_DIR = 'traces';

/**
 * A checkout-relative path as a trace names it: never absolute and never through `..`, since the
 * plan reads each one in both checkouts.
 */
const TracedPath = z
  .string()
  .min(1)
  .max(1000)
  .refine(
    (p) => !p.startsWith('/') && !p.split('/').includes('..'),
    'a path inside the checkout (no leading "/", no "..")',
  );

/** A path a process was refused writing: in the checkout as above, or elsewhere as the sandbox showed it. */
const WrittenPath = z.string().min(1).max(1000);

export const StoredTrace = z
  .object({
    /** Paths in the checkout the processes opened, executed, stat'ed, listed or looked for. */
    paths: z.array(TracedPath).max(100_000),
    /** The folders among them whose names a process read. */
    listed: z.array(TracedPath).max(100_000),
    /** Why the trace cannot be complete (io_uring), when so. */
    notFullyTraced: Text('line').optional(),
    /** Paths outside the scratch folder a process tried to write (the sandbox refused them). */
    refusedWrites: z.array(WrittenPath).max(1000),
    /** When it was traced (ISO 8601). */
    traced: Text('short'),
  })
  .strict();
export type StoredTrace = z.infer<typeof StoredTrace>;

const ProfileKey = z.enum(PROFILES);

export const TraceStoreFile = z
  .object({
    schema: z.literal(TRACE_STORE_SCHEMA),
    commit: CommitSha,
    profiles: z.partialRecord(ProfileKey, SafeRecord(BenchmarkId, StoredTrace)),
  })
  .strict();
export type TraceStoreFile = z.infer<typeof TraceStoreFile>;

/** Why a point whose processes tried to write outside their scratch folder is broken (one line). */
export function refusedWritesReason(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(', ');
  const more = paths.length > 3 ? ` and ${paths.length - 3} more` : '';
  return `broken: its processes tried to write outside their scratch folder, and the sandbox refused it (the trace saw ${shown}${more})`;
}
