/** results.json through the one JSON reader: newer schemas refused, file and field named on errors. */

import { UserError } from '../lib/errors.js';
import { parseJson, readJsonFile } from '../lib/json-file.js';
import { readUntrustedJson } from '../lib/untrusted.js';
import { RESULTS_SCHEMA, type Results, Results as ResultsSchema } from './results-format.js';

/**
 * The largest results.json any reader accepts. A full run of every experiment is a few MB (every
 * sample kept); anything far beyond that is not a run but a file built to bloat the store, the
 * site and every visitor's download (and over 100 MB GitHub refuses the push).
 */
export const RESULTS_MAX_BYTES = 32 * 2 ** 20;

export function parseResults(file: string, text: string): Results {
  if (text.length > RESULTS_MAX_BYTES)
    throw new UserError(`${file} is ${text.length} characters, over the ${RESULTS_MAX_BYTES}-byte limit: refusing it`);
  return parseJson(file, text, ResultsSchema, { version: RESULTS_SCHEMA });
}

export function readResults(file: string): Results {
  return readJsonFile(file, ResultsSchema, { version: RESULTS_SCHEMA, maxBytes: RESULTS_MAX_BYTES });
}

/** Results handed between workflow jobs (an artifact): read as untrusted (lib/untrusted.ts), same size limit. */
export function readResultsArtifact(file: string): Results {
  return readUntrustedJson(file, ResultsSchema, {
    version: RESULTS_SCHEMA,
    maxBytes: RESULTS_MAX_BYTES,
    what: 'results',
  });
}
