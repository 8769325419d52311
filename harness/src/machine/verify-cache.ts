/**
 * Cached runtimes are verified before use. A runtime unpacked into a trust level's
 * cache gets a digest of its whole tree, written beside it (`<dir>.sha256`) by the job that
 * unpacked it. A later job uses the cache only when
 *   - the tree, the digest file and the cache directory belong to this account (or root) and are
 *     writable by no one else: a file planted by another account (the pull-request account of
 *     docs/runners.md) is refused even if it recomputed the digest;
 *   - the tree's digest (paths, types, modes, contents, link targets) equals the recorded one: a
 *     binary replaced or a file added since is refused.
 * A refused entry is installed again. Synchronous, small trees (one runtime package).
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  type Stats,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../lib/atomic.js';

const DIGEST_SUFFIX = '.sha256';
const FORMAT = 'jsio-bench tree digest v1';

/** Whether a cached tree is still exactly what was recorded, and if not, why. */
export type TreeCheck = { ok: true } | { ok: false; reason: string };

/** Every entry under `dir` (relative paths, sorted) with its lstat. */
function walk(dir: string, rel = ''): { rel: string; st: Stats }[] {
  const out: { rel: string; st: Stats }[] = [];
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(dir, r));
    out.push({ rel: r, st });
    if (st.isDirectory()) out.push(...walk(dir, r));
  }
  return out;
}

/** The digest of a tree: every path with its type, permission bits and content (or link target). */
function treeDigest(dir: string): string {
  const h = createHash('sha256').update(`${FORMAT}\n`);
  for (const { rel, st } of walk(dir)) {
    const path = join(dir, rel);
    const kind = st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : st.isFile() ? 'f' : 'x';
    const body =
      kind === 'f'
        ? createHash('sha256').update(readFileSync(path)).digest('hex')
        : kind === 'l'
          ? readlinkSync(path)
          : '';
    h.update(`${JSON.stringify(rel)} ${kind} ${(st.mode & 0o7777).toString(8)} ${body}\n`);
  }
  return h.digest('hex');
}

/** Why `st` (of `path`) cannot be trusted by account `uid`, or undefined. */
function untrusted(path: string, st: Stats, uid: number): string | undefined {
  if (st.uid !== uid && st.uid !== 0) return `${path} belongs to uid ${st.uid}, not to this account (${uid}) or root`;
  if (!st.isSymbolicLink() && st.mode & 0o022)
    return `${path} is writable by others (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * Makes `dir` writable by its owner only (tarballs carry group-writable modes) and records its
 * digest beside it; call right after the directory was installed.
 */
export function recordTree(dir: string): void {
  for (const { rel, st } of [{ rel: '', st: lstatSync(dir) }, ...walk(dir)])
    if (!st.isSymbolicLink() && st.mode & 0o022) chmodSync(join(dir, rel), st.mode & 0o7755);
  writeFileAtomic(`${dir}${DIGEST_SUFFIX}`, `${FORMAT}\n${treeDigest(dir)}\n`);
}

/** Whether the cached tree `dir` may be used by this account (see the module comment). */
export function verifyTree(dir: string, uid = process.getuid?.() ?? 0): TreeCheck {
  const record = `${dir}${DIGEST_SUFFIX}`;
  if (!existsSync(record)) return { ok: false, reason: `no recorded digest (${record})` };
  if (lstatSync(dir).isSymbolicLink()) return { ok: false, reason: `${dir} is a symbolic link` };
  const parent = statSync(dirname(dir)); // followed: the runtimes folder may be a link (the tests' is)
  // A directory others may write to lets them swap whole entries (unless sticky, like /tmp).
  const swap = parent.mode & 0o002 && !(parent.mode & 0o1000);
  if (swap || (parent.uid !== uid && parent.uid !== 0))
    return { ok: false, reason: untrusted(dirname(dir), parent, uid) ?? `${dirname(dir)} is writable by others` };
  for (const [path, st] of [
    [record, lstatSync(record)],
    [dir, lstatSync(dir)],
    ...walk(dir).map(({ rel, st }) => [join(dir, rel), st] as const),
  ] as const) {
    const why = untrusted(path, st, uid);
    if (why) return { ok: false, reason: why };
  }
  const [format, recorded] = readFileSync(record, 'utf8').split('\n');
  if (format !== FORMAT) return { ok: false, reason: `${record} is not a tree digest` };
  const now = treeDigest(dir);
  if (now !== recorded)
    return {
      ok: false,
      reason: `changed since it was installed (digest ${now.slice(0, 12)}, recorded ${String(recorded).slice(0, 12)})`,
    };
  return { ok: true };
}
