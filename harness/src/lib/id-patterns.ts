/**
 * The patterns of identifiers the harness turns into paths, URLs or git arguments (checked by
 * ./ids.ts). Free of Node imports: the site checks names with them too.
 */

/** A full git commit id (SHA-1, lower-case hex). Abbreviations are refused. */
export const SHA_RE = /^[0-9a-f]{40}$/;

/**
 * One path segment the harness creates: starts with a letter or digit, then letters, digits,
 * '.', '_' or '-'; at most 100 characters; never '..' anywhere (so no '..' segment can be formed
 * by concatenation either). Machine ids, experiment and variant names use it.
 */
export const SEGMENT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A parameter name: what manifests declare (lower-case, digits, underscore). */
export const PARAM_NAME_RE = /^[a-z_][a-z0-9_]{0,49}$/;

/**
 * A parameter value as it appears in names and file names: a number, or a plain token ('@' for a
 * runtime release such as node@22.4.1).
 */
export const PARAM_VALUE_RE = /^-?[0-9]+(\.[0-9]+)?$|^[A-Za-z0-9][A-Za-z0-9._+@-]{0,99}$/;

/** A pull-request number as GitHub issues them. */
export const PR_RE = /^[1-9][0-9]{0,9}$/;

/** owner/name, as GitHub allows them. */
export const REPO_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;
