import { readFileSync } from 'node:fs';
import { UserError } from '../lib/errors.js';
import { formatIssues } from '../plan/experiments.js';
import { RESULTS_SCHEMA, Results } from './results.js';

/** Reads a results.json, refusing newer schemas and naming the file and field on errors. */
export function parseResults(file: string, text: string): Results {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${file} is not valid JSON (truncated or corrupt?): ${(e as Error).message}`);
  }
  const schema = (raw as { schema?: unknown } | null)?.schema;
  if (typeof schema === 'number' && schema > RESULTS_SCHEMA) {
    throw new UserError(`${file} has results schema ${schema}, newer than this harness understands (${RESULTS_SCHEMA}): update the harness`);
  }
  const parsed = Results.safeParse(raw);
  if (!parsed.success) throw new UserError(formatIssues(file, raw, parsed.error));
  return parsed.data;
}

export function readResults(file: string): Results {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(`cannot read ${file}: ${(e as Error).message}`);
  }
  return parseResults(file, text);
}
