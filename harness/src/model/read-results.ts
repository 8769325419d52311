/** results.json through the one JSON reader: newer schemas refused, file and field named on errors. */
import { parseJson, readJsonFile } from '../lib/json-file.js';
import { readUntrustedJson } from '../lib/untrusted.js';
import { RESULTS_SCHEMA, type Results, Results as ResultsSchema } from './results.js';

export function parseResults(file: string, text: string): Results {
  return parseJson(file, text, ResultsSchema, { version: RESULTS_SCHEMA });
}

export function readResults(file: string): Results {
  return readJsonFile(file, ResultsSchema, { version: RESULTS_SCHEMA });
}

/** Results handed between workflow jobs (an artifact): read as untrusted (lib/untrusted.ts), up to 256 MiB. */
export function readResultsArtifact(file: string): Results {
  return readUntrustedJson(file, ResultsSchema, { version: RESULTS_SCHEMA, maxBytes: 256 * 2 ** 20, what: 'results' });
}
