/**
 * Identifiers that workflows and the store turn into paths, URLs or git arguments, each with one
 * strict pattern. Every value read from a file a pull request or a runner could have written
 * (results.json, comparison.json, noise.json, an artifact, an event payload) goes through one of
 * these before it is used: a commit id, a machine id, an experiment or variant name, a parameter
 * value, a pull-request number, a repository name. Pure functions, no I/O.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { UserError } from './errors.js';
import { PARAM_NAME_RE, PARAM_VALUE_RE, PR_RE, REPO_RE, SEGMENT_RE, SHA_RE } from './id-patterns.js';

/** A value refused by a pattern; the message names the field and shows (a prefix of) the value. */
export class InvalidIdentifier extends UserError {
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly rule: string,
  ) {
    super(
      `${field}: ${show(value)} is not ${rule}`,
      'identifiers that become paths are checked strictly; see lib/ids.ts',
    );
    this.name = 'InvalidIdentifier';
  }
}

function show(v: unknown): string {
  if (typeof v !== 'string') return `a ${v === null ? 'null' : typeof v}`;
  return JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}...` : v);
}

export function isSha(v: unknown): v is string {
  return typeof v === 'string' && SHA_RE.test(v);
}

export function assertSha(field: string, v: unknown): string {
  if (!isSha(v)) throw new InvalidIdentifier(field, v, 'a full 40-character lower-case commit id');
  return v;
}

export function isSegment(v: unknown): v is string {
  return typeof v === 'string' && SEGMENT_RE.test(v) && !v.includes('..');
}

/** A machine id, experiment or variant name that becomes one directory or file name. */
export function assertSegment(field: string, v: unknown): string {
  if (!isSegment(v))
    throw new InvalidIdentifier(
      field,
      v,
      "a plain name (letters, digits, '.', '_', '-'; no '..', no '/'; at most 100 characters)",
    );
  return v;
}

export function assertParamName(field: string, v: unknown): string {
  if (typeof v !== 'string' || !PARAM_NAME_RE.test(v))
    throw new InvalidIdentifier(field, v, 'a parameter name ([a-z_][a-z0-9_]*)');
  return v;
}

export function assertParamValue(field: string, v: unknown): string | number {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new InvalidIdentifier(field, String(v), 'a finite number');
    return v;
  }
  if (typeof v !== 'string' || !PARAM_VALUE_RE.test(v) || v.includes('..'))
    throw new InvalidIdentifier(
      field,
      v,
      "a number or a plain token (letters, digits, '.', '_', '+', '@', '-'; no '..')",
    );
  return v;
}

export function assertPr(field: string, v: unknown): number {
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s !== 'string' || !PR_RE.test(s)) throw new InvalidIdentifier(field, v, 'a pull-request number');
  return Number(s);
}

export function assertRepo(field: string, v: unknown): string {
  if (typeof v !== 'string' || !REPO_RE.test(v) || v.includes('..'))
    throw new InvalidIdentifier(field, v, 'a repository name owner/name');
  return v;
}

/**
 * `root` joined with segments that must each be a plain name, and the result checked to be
 * inside `root` (lexically: symlinks are the caller's business, see insideRealRoot in fs-safety).
 */
export function joinInside(root: string, ...segments: string[]): string {
  for (const [i, s] of segments.entries()) assertSegment(`path segment ${i + 1}`, s);
  const base = resolve(root);
  const out = resolve(base, ...segments);
  assertLexicallyInside(base, out);
  return out;
}

/** Throws unless `path` is `root` itself or below it (after resolving '.' and '..'). */
function assertLexicallyInside(root: string, path: string): void {
  const rel = relative(resolve(root), resolve(path));
  if (rel === '') return;
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    throw new InvalidIdentifier('path', path, `inside ${root}`);
}
