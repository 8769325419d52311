/**
 * An strace file trace (`strace -f -qq -y -s 65535 -e trace=<FILE_TRACE_CALLS> -o FILE`) -> every
 * path the traced processes opened, executed, stat'ed, listed or looked for and did not find, and
 * what a trace cannot follow. Pure: the text in, the paths out.
 *
 * With `-y` strace names the folder behind every descriptor (`AT_FDCWD</jsio/side>`, `3</x>`),
 * so a relative path is resolved against the folder the call itself names; only the calls that
 * take no descriptor (access, stat, chdir, execve) need the process's folder, which is the last
 * one its own calls named (a child starts in its parent's).
 */
import { posix } from 'node:path';
import { readStraceLog } from './strace-log.js';

/** The calls a file trace asks for: the file and process classes, directory listings, and what a trace cannot see through. */
export const FILE_TRACE_CALLS = '%file,%process,getdents64,getdents,fchdir,io_uring_setup';

/** How a path was touched. */
type TouchKind = 'open' | 'exec' | 'stat' | 'list' | 'missing';

export interface FileTrace {
  /** Each absolute path (normalized) and how it was touched, sorted by path. */
  paths: Map<string, Set<TouchKind>>;
  /** Why some reads cannot be seen (a runtime doing its file operations through io_uring), when so. */
  blind?: string;
  /** Paths a process tried to write and was refused (a read-only file system, no permission). */
  refusedWrites: string[];
}

const EXEC_CALLS = new Set(['execve', 'execveat']);
const OPEN_CALLS = new Set(['open', 'openat', 'openat2', 'creat']);
const LIST_CALLS = new Set(['getdents64', 'getdents']);
/** Calls that change something at a path: refused with EROFS or EACCES, they are writes the sandbox stopped. */
const WRITE_CALLS = new Set([
  'mkdir',
  'mkdirat',
  'unlink',
  'unlinkat',
  'rmdir',
  'rename',
  'renameat',
  'renameat2',
  'link',
  'linkat',
  'symlink',
  'symlinkat',
  'truncate',
  'chmod',
  'fchmodat',
  'chown',
  'fchownat',
  'lchown',
  'utimensat',
  'mknod',
  'mknodat',
]);
/** Calls whose paths carry no read of the file's bytes, only whether and what it is. */
const NOT_PATHS = new Set(['umount2', 'mount', 'pivot_root', 'swapon', 'swapoff', 'chroot', 'acct']);

/** An strace string's bytes as text: its C escapes undone. */
function undoEscapes(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)/g, (_m, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(Number.parseInt(e, 8));
    return ({ n: '\n', t: '\t', r: '\r', v: '\v', f: '\f' } as Record<string, string>)[e] ?? e;
  });
}

/** A call's arguments in order: each a string ("..."), a descriptor with its folder (`3</x>`, `AT_FDCWD</x>`), or other text. */
type Arg = { string: string } | { fd: string } | { other: string };

function splitArgs(args: string): Arg[] {
  const out: Arg[] = [];
  let i = 0;
  while (i < args.length) {
    while (args[i] === ' ' || args[i] === ',') i++;
    if (i >= args.length) break;
    if (args[i] === '"') {
      let j = i + 1;
      while (j < args.length && args[j] !== '"') j += args[j] === '\\' ? 2 : 1;
      out.push({ string: undoEscapes(args.slice(i + 1, j)) });
      // A string strace cut short ends in "..." after the quote: taken as it is.
      i = j + 1;
      while (i < args.length && args[i] !== ',') i++;
      continue;
    }
    // Anything else runs to the next comma outside brackets.
    let depth = 0;
    let j = i;
    for (; j < args.length; j++) {
      const ch = args[j];
      if (ch === '"') {
        j++;
        while (j < args.length && args[j] !== '"') j += args[j] === '\\' ? 2 : 1;
      } else if (ch === '[' || ch === '{' || ch === '(') depth++;
      else if (ch === ']' || ch === '}' || ch === ')') depth--;
      else if (ch === ',' && depth === 0) break;
    }
    const text = args.slice(i, j).trim();
    const fd = /^(?:-?\d+|AT_FDCWD)<(.*)>$/.exec(text);
    out.push(fd ? { fd: fd[1]! } : { other: text });
    i = j;
  }
  return out;
}

const failedWith = (result: string, ...errors: string[]) =>
  result.startsWith('-1 ') && errors.some((e) => result.startsWith(`-1 ${e} `) || result === `-1 ${e}`);

/**
 * Whether an open asks to write: `creat` always does; the others by their flags, which openat2
 * gives inside its struct (`{flags=O_WRONLY|O_CREAT, ...}`).
 */
const opensToWrite = (call: string, args: Arg[]) =>
  call === 'creat' ||
  args.some((a) => 'other' in a && /(^|[|{=])(O_WRONLY|O_RDWR|O_CREAT|O_TRUNC)([|},]|$)/.test(a.other));

/** Calls whose first path is what the link points to, not where it is made: the path is the last one. */
const LINK_TARGET_FIRST = new Set(['symlink', 'symlinkat']);

/**
 * Every path a trace touched, how, and what it cannot see. `cwd` is where the first process started
 * (a relative path before any call names a folder is resolved against it).
 */
export function parseFileTrace(text: string, cwd = '/'): FileTrace {
  const paths = new Map<string, Set<TouchKind>>();
  const refused = new Set<string>();
  const cwdOf = new Map<number, string>();
  let blind: string | undefined;
  const touch = (path: string, kind: TouchKind) => {
    // "a/b/" and "a/b" are one folder.
    const p = posix.normalize(path).replace(/(.)\/+$/, '$1');
    const kinds = paths.get(p) ?? new Set<TouchKind>();
    kinds.add(kind);
    paths.set(p, kinds);
  };
  for (const c of readStraceLog(text)) {
    const here = cwdOf.get(c.pid) ?? cwd;
    if (c.name === 'io_uring_setup' && !c.result.startsWith('-1')) {
      blind ??= 'a traced process set up io_uring, whose file operations a trace of system calls cannot see';
      continue;
    }
    if (NOT_PATHS.has(c.name)) continue;
    const args = splitArgs(c.args);
    // A child (clone, fork, vfork) starts in its parent's folder.
    if (/^(clone3?|v?fork)$/.test(c.name) && /^\d+$/.test(c.result)) {
      cwdOf.set(Number(c.result), here);
      continue;
    }
    const firstFd = args[0] && 'fd' in args[0] ? args[0].fd : undefined;
    // Every call given AT_FDCWD names the process's folder: the latest one is where it is now.
    for (const m of c.args.matchAll(/AT_FDCWD<([^>]*)>/g)) cwdOf.set(c.pid, m[1]!);
    const failed = c.result.startsWith('-1 ');
    if (LIST_CALLS.has(c.name)) {
      if (firstFd && !failed) touch(firstFd, 'list');
      continue;
    }
    if (c.name === 'fchdir') {
      if (firstFd && !failed) cwdOf.set(c.pid, firstFd);
      continue;
    }
    const strings = args.flatMap((a, i) => ('string' in a ? [i] : []));
    const str = (LINK_TARGET_FIRST.has(c.name) ? strings.at(-1) : strings[0]) ?? -1;
    if (str < 0) continue;
    const name = (args[str] as { string: string }).string;
    // An empty path with AT_EMPTY_PATH is the descriptor itself: already counted where it was opened.
    if (!name) continue;
    const before = args[str - 1];
    const dir = name.startsWith('/') ? '' : before && 'fd' in before ? before.fd : here;
    const path = dir ? posix.join(dir, name) : name;
    if (c.name === 'chdir') {
      if (!failed) cwdOf.set(c.pid, posix.normalize(path));
      touch(path, failed ? 'missing' : 'stat');
      continue;
    }
    const isWrite = WRITE_CALLS.has(c.name) || (OPEN_CALLS.has(c.name) && opensToWrite(c.name, args));
    if (isWrite && failedWith(c.result, 'EROFS', 'EACCES', 'EPERM')) refused.add(posix.normalize(path));
    if (failedWith(c.result, 'ENOENT', 'ENOTDIR')) touch(path, 'missing');
    else if (EXEC_CALLS.has(c.name)) touch(path, 'exec');
    else if (OPEN_CALLS.has(c.name)) touch(path, 'open');
    else touch(path, 'stat');
  }
  const sorted = new Map([...paths].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { paths: sorted, refusedWrites: [...refused].sort(), ...(blind ? { blind } : {}) };
}

/** A folder of the trace's paths and the checkout-relative path it stands for ("" for the checkout itself). */
export interface TreeRoot {
  inside: string;
  relative: string;
}

/**
 * The traced paths that fall in a side's tree, relative to it ("programs/wc/x.json"), sorted; the
 * folders under it where only the harness keeps things (`skip`: its caches, results) left out.
 */
export function pathsInTree(
  trace: Pick<FileTrace, 'paths'>,
  roots: readonly TreeRoot[],
  skip: readonly string[] = ['.cache', 'results'],
): string[] {
  const out = new Set<string>();
  const sorted = [...roots].sort((a, b) => b.inside.length - a.inside.length);
  for (const path of trace.paths.keys()) {
    const root = sorted.find((r) => path === r.inside || path.startsWith(`${r.inside}/`));
    if (!root) continue;
    const rest = path.slice(root.inside.length + 1);
    const rel = root.relative ? (rest ? `${root.relative}/${rest}` : root.relative) : rest;
    if (!rel || skip.some((s) => rel === s || rel.startsWith(`${s}/`))) continue;
    out.add(rel);
  }
  return [...out].sort();
}
