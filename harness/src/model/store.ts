/**
 * The trend store, laid out as on the gh-pages branch (and as the local history):
 *   <store>/machines.json                  every machine that has published
 *   <store>/<machine>/index.json           commits with run metadata, for the site
 *   <store>/<machine>/series/<exp>.json    per experiment, columnar values per commit
 *   <store>/<machine>/runs/<sha>.json      the full results.json of that commit
 * Every file carries `schema`; readers refuse newer versions and never overwrite what they
 * cannot read.
 */
import { z } from 'zod';
import { Direction, Machine } from './results.js';

/** 2: series carry a definitions column (benchmark definition hash per commit). */
export const STORE_SCHEMA = 2;

export const MachinesFile = z
  .object({
    schema: z.literal(STORE_SCHEMA),
    machines: z.record(
      z.string(),
      z.object({ machine: Machine, lastRun: z.string(), commits: z.number().int() }).strict(),
    ),
  })
  .strict();
export type MachinesFile = z.infer<typeof MachinesFile>;

export const CommitEntry = z
  .object({
    sha: z.string(),
    date: z.string(),
    subject: z.string(),
    ref: z.string(),
    runId: z.string(),
    profile: z.string(),
    partial: z.boolean(),
    file: z.string(),
    counts: z.object({ ok: z.number().int(), skipped: z.number().int(), failed: z.number().int() }).strict(),
    experiments: z.array(z.string()),
  })
  .strict();
export type CommitEntry = z.infer<typeof CommitEntry>;

export const IndexFile = z
  .object({ schema: z.literal(STORE_SCHEMA), machine: Machine, commits: z.array(CommitEntry) })
  .strict();
export type IndexFile = z.infer<typeof IndexFile>;

const Column = z.array(z.number().nullable());

export const SeriesMetric = z
  .object({ unit: z.string(), direction: Direction, values: Column, ranges: Column })
  .strict();
export type SeriesMetric = z.infer<typeof SeriesMetric>;

export const SeriesFile = z
  .object({
    schema: z.literal(STORE_SCHEMA),
    experiment: z.string(),
    /** Commits this experiment ran in, oldest first; every values/ranges column aligns with it. */
    commits: z.array(z.string()),
    series: z.record(
      z.string(),
      z
        .object({
          variant: z.string(),
          params: z.record(z.string(), z.union([z.number(), z.string()])),
          /** The benchmark's definition hash per commit: a change means a trend must not be drawn across it unmarked. */
          definitions: z.array(z.string().nullable()),
          metrics: z.record(z.string(), SeriesMetric),
        })
        .strict(),
    ),
  })
  .strict();
export type SeriesFile = z.infer<typeof SeriesFile>;
