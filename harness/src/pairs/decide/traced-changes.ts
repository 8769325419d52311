/**
 * What a point's traced paths add to its identity: a path its processes touched that differs
 * between the sides makes it affected; one the static identity does not name is said as "seen
 * only by tracing". Pure: the paths, the identity's parts and a comparison in; the reasons out.
 */
import type { MeasuredInputs } from '../../model/measured-inputs.js';

/** The prefix of the reason a traced path gives: the comment and `pairs --plan` name the path after it. */
export const SEEN_ONLY_BY_TRACING = 'seen only by tracing: ';

/**
 * The lockfile key of the installed package a path belongs to, the innermost copy
 * ("node_modules/a/node_modules/@b/c/x.js" -> "node_modules/a/node_modules/@b/c"), or undefined
 * outside any (npm's own files in node_modules, such as .bin and .package-lock.json, included).
 */
export function lockKeyOf(path: string): string | undefined {
  const parts = path.split('/');
  let key: string | undefined;
  let i = 0;
  while (parts[i] === 'node_modules' && parts[i + 1] && !parts[i + 1]!.startsWith('.')) {
    const n = parts[i + 1]!.startsWith('@') ? 3 : 2;
    if (parts.length < i + n) break;
    key = parts.slice(0, i + n).join('/');
    i += n;
  }
  return key;
}

/**
 * Whether the static identity already names a path: as a file of its own, a package.json by the
 * fields a runtime reads, through its package's lockfile pin, or as a folder holding a file it names (that the folder is there; its names count
 * only where a trace did not list it).
 */
function namedStatically(path: string, identity: MeasuredInputs, listed: ReadonlySet<string>): boolean {
  if (!identity.ok) return false;
  if (identity.parts[`file ${path}`] !== undefined) return true;
  // A package.json counts by the fields a runtime reads from it (plan/identity/runtime-files.ts).
  if (identity.parts[`package.json fields ${path}`] !== undefined) return true;
  if (!listed.has(path) && Object.keys(identity.parts).some((k) => k.startsWith(`file ${path}/`))) return true;
  const key = lockKeyOf(path);
  return key !== undefined && identity.parts[`package ${key.slice('node_modules/'.length)}`] !== undefined;
}

/** The paths a trace saw that the static identity does not name; `listed`: the folders it listed. */
export function onlyTraced(
  paths: readonly string[],
  identity: MeasuredInputs,
  listed: ReadonlySet<string> = new Set(),
): string[] {
  return paths.filter((p) => !namedStatically(p, identity, listed));
}

/**
 * The reasons a point's traced paths make it affected: each changed path the static identity does
 * not name ("seen only by tracing: programs/wc/x.json"). A changed path it names is its own reason
 * already (impact.ts).
 */
export function tracedReasons(
  paths: readonly string[],
  identity: MeasuredInputs,
  changed: (path: string) => boolean,
  listed: ReadonlySet<string> = new Set(),
): string[] {
  return onlyTraced(paths, identity, listed)
    .filter(changed)
    .map((p) => `${SEEN_ONLY_BY_TRACING}${p}`);
}
