/**
 * What results.json carries of each experiment, so its readers (the summary, the site) need no
 * manifest: pipeline/results-file.ts writes it, the site reads it. The results schema checks the
 * title and question and passes the rest through, so a reader finds the rest as written here.
 */
import type { Manifest } from '../manifest-format.js';
import type { Results } from '../results-format.js';

// A type, not an interface: it must fit the schema's pass-through record.
export type ExperimentInfo = {
  title: string;
  question: string;
  parameters?: Record<string, { description: string; unit?: string }>;
  summary?: Manifest['summary'];
  headline?: Manifest['headline'];
  /** Not written any more; an older file may carry the Overview's picture here. */
  overview?: unknown;
};

/** results.json as written, its experiments' copies typed. */
export type WrittenResults = Omit<Results, 'experiments'> & { experiments: Record<string, ExperimentInfo> };
