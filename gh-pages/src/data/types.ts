/**
 * The files the site reads, as the harness writes them: the store's (store v3 and v4, schemas in
 * harness/src/formats/trend-store-format.ts) and each run's results (formats/results-format.ts). Imported, never
 * re-declared, so the site's view of a file cannot drift from what the harness writes.
 */
/** A commit's run file: results.json as written, merged per commit and profile by publish-run. */

export type { MarksFile } from '../../../harness/src/formats/marks-format.js';
export type {
  Benchmark,
  ExperimentInfo,
  WrittenResults as RunFile,
} from '../../../harness/src/formats/results-format.js';
export type {
  CatalogFile,
  CommitsFile,
  MachinesFile,
  Moment,
  NewestPairFile,
  RegressionsFile,
  ShardFile,
  TrendChange,
  TrendWindow,
  WindowCommit,
} from '../../../harness/src/formats/trend-store-format.js';
