/**
 * The one way to read a JSON file the harness did not just write itself: parse it, refuse a
 * newer schema version, migrate an older one when the caller knows how, validate it with zod,
 * and on any problem throw a UserError naming the file and the field (never a stack trace).
 */
import { readFileSync, statSync } from 'node:fs';
import type { z } from 'zod';
import { UserError } from './errors.js';

export interface JsonFileOptions {
  /** The `schema` number this harness writes: a file with a larger one is refused. */
  version?: number;
  /** Takes an older version forward before validation. */
  migrate?: (raw: unknown) => unknown;
  /** Put in front of every message, e.g. "refusing to touch the store: ". */
  context?: string;
  /** What to do about it, shown under the error. */
  hint?: string;
  /** Refuse larger files without reading them (untrusted artifacts). */
  maxBytes?: number;
}

/** A value as an error message shows it: JSON, but a non-finite number as itself (JSON would say null). */
const shownValue = (v: unknown) =>
  typeof v === 'number' && !Number.isFinite(v) ? String(v) : JSON.stringify(v)?.slice(0, 80);

/** Walks a path into the raw JSON so an error can quote the bad value. */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = raw;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

type Issue = z.ZodError['issues'][number];

/**
 * A union (one list or a list per profile) fails as a whole with "Invalid input": when exactly
 * one alternative has the value's shape, its own issues say what is wrong.
 */
function explainUnion(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union' || !issue.errors?.length) return [issue];
  const shaped = issue.errors.filter((branch) => !branch.some((i) => i.code === 'invalid_type' && i.path.length === 0));
  if (shaped.length !== 1) return [issue];
  return shaped[0]!.flatMap((i) => explainUnion({ ...i, path: [...issue.path, ...i.path] } as Issue));
}

/** "<file> is invalid:" and one line per problem: the field's path, what is wrong, the value seen. */
export function formatIssues(file: string, raw: unknown, error: z.ZodError): string {
  const lines = error.issues.flatMap(explainUnion).flatMap((issue) => {
    // zod reports unknown keys on their parent: name each key by its own path and value.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const path = [...issue.path, key];
        return `  ${path.join('.')}: unknown key (got ${shownValue(valueAt(raw, path))})`;
      });
    }
    const field = issue.path.length ? issue.path.join('.') : '(top level)';
    const value = valueAt(raw, issue.path);
    const shown = value === undefined ? '' : ` (got ${shownValue(value)})`;
    return `  ${field}: ${issue.message}${shown}`;
  });
  return `${file} is invalid:\n${lines.join('\n')}`;
}

/** Parses and validates JSON text that came from `file` (a name for messages). */
export function parseJson<T>(file: string, text: string, schema: z.ZodType<T>, opts: JsonFileOptions = {}): T {
  const fail = (msg: string) => new UserError(`${opts.context ?? ''}${msg}`, opts.hint);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw fail(`${file} is not valid JSON (truncated or corrupt?): ${(e as Error).message}`);
  }
  if (opts.version !== undefined) {
    const v = (raw as { schema?: unknown } | null)?.schema;
    if (typeof v === 'number' && v > opts.version) {
      throw fail(`${file} has schema ${v}, newer than this harness understands (${opts.version}): update the harness`);
    }
  }
  if (opts.migrate) raw = opts.migrate(raw);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw fail(formatIssues(file, raw, parsed.error));
  return parsed.data;
}

/** Reads, parses and validates a JSON file; a missing or unreadable file is a UserError too. */
export function readJsonFile<T>(file: string, schema: z.ZodType<T>, opts: JsonFileOptions = {}): T {
  let text: string;
  try {
    if (opts.maxBytes !== undefined) {
      const size = statSync(file).size;
      if (size > opts.maxBytes)
        throw new UserError(
          `${opts.context ?? ''}${file} is ${size} bytes, over the ${opts.maxBytes}-byte limit: refusing it`,
          opts.hint,
        );
    }
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof UserError) throw e;
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'it does not exist' : err.code === 'EISDIR' ? 'it is a directory' : err.message;
    throw new UserError(`${opts.context ?? ''}cannot read ${file}: ${why}`, opts.hint);
  }
  return parseJson(file, text, schema, opts);
}

/**
 * Checks a value the harness produced against the schema its readers apply: a mismatch is a
 * bug in the harness (an Error, not a UserError), caught before the file is written.
 */
export function assertValid<T>(what: string, value: unknown, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new Error(`${what} does not match its own schema (a bug): ${formatIssues(what, value, parsed.error)}`);
  return parsed.data;
}
