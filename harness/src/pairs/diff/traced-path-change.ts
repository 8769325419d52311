/**
 * Whether a traced path differs between two checkouts, as the traced process could tell: a file's
 * bytes, a link's target, a folder's names where it was listed (else only that it is a folder),
 * and whether it exists at all. A path in node_modules is compared by its package's lockfile entry
 * (npm's own files there, and the node_modules folder itself, by the whole lockfile): the head's
 * packages are not installed where the plan runs (pr.yml installs the base's only), its lockfile
 * says what they would be.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { hashFile } from '../../plan/input-digest.js';
import { lockKeyOf } from '../decide/traced-changes.js';

/** What a path is on one side, in a form two sides can compare. */
function stateOf(root: string, path: string, listed: boolean): string {
  const full = join(root, path);
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(full);
  } catch {
    return 'absent';
  }
  if (st.isSymbolicLink()) return `link ${readlinkSync(full)}`;
  if (st.isDirectory()) return listed ? `folder ${readdirSync(full).sort().join('\0')}` : 'folder';
  if (st.isFile()) {
    // By digest, in chunks: the head is data, and a file there may be of any size.
    const h = createHash('sha256');
    hashFile(h, full);
    return `file ${st.mode & 0o111 ? 'x' : '-'} ${h.digest('hex')}`;
  }
  return 'other';
}

/** A package's entry in a checkout's package-lock.json (undefined when it has none); `key` undefined: all of them. */
function lockEntry(
  root: string,
  key: string | undefined,
  cache: Map<string, Record<string, unknown>>,
): string | undefined {
  let packages = cache.get(root);
  if (!packages) {
    try {
      packages = (JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {}) as Record<
        string,
        unknown
      >;
    } catch {
      packages = {};
    }
    cache.set(root, packages);
  }
  const entry = key === undefined ? packages : packages[key];
  return entry === undefined ? undefined : JSON.stringify(entry);
}

/** A comparison of traced paths between `base` and `head` (`listed`: a folder whose names the trace read). */
export function tracedPathChange(base: string, head: string) {
  const locks = new Map<string, Record<string, unknown>>();
  const memo = new Map<string, boolean>();
  return (path: string, listed: boolean): boolean => {
    const key = `${listed ? 'l' : '-'}${path}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    // The folder itself too: the head has none where the plan runs, which says nothing of what npm ci would make.
    const differs =
      path === 'node_modules' || path.startsWith('node_modules/')
        ? lockEntry(base, lockKeyOf(path), locks) !== lockEntry(head, lockKeyOf(path), locks)
        : stateOf(base, path, listed) !== stateOf(head, path, listed);
    memo.set(key, differs);
    return differs;
  };
}
