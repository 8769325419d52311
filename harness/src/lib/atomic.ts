import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from './errors.js';
import { makeDirectories } from './paths.js';

function writeError(file: string, e: unknown): UserError {
  const err = e as NodeJS.ErrnoException;
  const why =
    err.code === 'ENOSPC'
      ? 'the disk is full'
      : err.code === 'EACCES' || err.code === 'EROFS' || err.code === 'EPERM'
        ? 'the location is not writable'
        : err.message;
  return new UserError(`cannot write ${file}: ${why} (${err.code ?? 'error'}); nothing was overwritten`);
}

/** Writes data to a fresh temp file beside `file`, synced to disk; returns its path. */
function stage(file: string, data: string | Uint8Array): string {
  const tmp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    makeDirectories(dirname(file));
    const fd = openSync(tmp, 'w');
    try {
      // writeFileSync loops over short writes and throws on ENOSPC; a bare writeSync would not.
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return tmp;
  } catch (e) {
    rmSync(tmp, { force: true });
    throw writeError(file, e);
  }
}

/** Writes via a temp file + fsync + rename: readers see the old file or the new one, never half. */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const tmp = stage(file, data);
  try {
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw writeError(file, e);
  }
}

/**
 * Several files, each atomically, and all or nothing for what usually fails (a full disk, an
 * unwritable place): every file is staged and synced first, and only then renamed into place,
 * in the order given. If staging any of them fails, none is touched.
 */
export function writeFilesAtomic(files: readonly { file: string; data: string | Uint8Array }[]): void {
  const staged: { tmp: string; file: string }[] = [];
  // Directories that staging is about to create: a failed write removes them again, so it leaves
  // the tree exactly as it was (no empty runs/<sha>/ behind).
  const created = new Set<string>();
  for (const f of files) for (const d of missingDirectories(dirname(f.file))) created.add(d);
  try {
    for (const f of files) staged.push({ tmp: stage(f.file, f.data), file: f.file });
  } catch (e) {
    for (const s of staged) rmSync(s.tmp, { force: true });
    removeEmptyDirectories(created);
    throw e;
  }
  for (const [i, s] of staged.entries()) {
    try {
      renameSync(s.tmp, s.file);
    } catch (e) {
      for (const rest of staged.slice(i)) rmSync(rest.tmp, { force: true });
      throw writeError(s.file, e);
    }
  }
}

/** `dir` and its ancestors that do not exist yet, deepest first. */
function missingDirectories(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) out.push(d);
  return out;
}

/** Removes the given directories, deepest first, where they exist and are empty. */
function removeEmptyDirectories(dirs: Iterable<string>): void {
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(d);
    } catch {
      // not empty (someone else's file) or already gone: leave it
    }
  }
}

/** Whether a process of that pid exists (ours or another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to another user; it still holds the lock.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What this tool writes into a lock: a marker, the holder's pid and a random token. Only a lock
 * of this form whose process is gone is ever taken over; any other text (someone else's file, a
 * bare number) is never removed.
 */
export function lockText(pid: number, token = randomBytes(8).toString('hex')): string {
  return `jsio-bench lock pid=${pid} token=${token}\n`;
}
const LOCK_RE = /^jsio-bench lock pid=([1-9]\d{0,9}) token=[0-9a-f]{16}\n$/;

/** A lock file's content, or undefined if it is gone. */
function readLock(lockFile: string): string | undefined {
  try {
    return readFileSync(lockFile, 'utf8');
  } catch {
    return undefined;
  }
}

/** The holder's pid when this tool wrote the lock, else undefined. */
const holderOf = (text: string) => {
  const m = LOCK_RE.exec(text);
  return m ? Number(m[1]) : undefined;
};

/**
 * Creates `file` holding `text` only if it does not exist, whole: the text is written to a file
 * of its own first and hard-linked into place, so no one ever reads a half-written lock.
 */
function createWhole(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, text, { flag: 'wx' });
  try {
    linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Removes `file` only while it still holds `text` (a lock someone else took since is kept). */
function removeIfStill(file: string, text: string): void {
  if (readLock(file) === text) rmSync(file, { force: true });
}

/**
 * Removes a stale lock, unless someone else already did and took the lock. Two waiters can
 * both see the same dead holder; without this, the second would delete the lock the first had
 * just created and both would go ahead. Takeovers are serialised by their own lock (of the same
 * form, taken over the same way), inside which the lock is read again and removed only if it is
 * still the stale one.
 */
function takeOver(lockFile: string, seen: string): void {
  const takeover = `${lockFile}.takeover`;
  const mine = lockText(process.pid);
  if (!createWhole(takeover, mine)) {
    const t = readLock(takeover);
    const pid = t === undefined ? undefined : holderOf(t);
    if (t !== undefined && pid !== undefined && !processAlive(pid)) removeIfStill(takeover, t);
    return; // another waiter is taking over: look again shortly
  }
  try {
    const now = readLock(lockFile);
    const pid = now === seen ? holderOf(seen) : undefined;
    if (pid !== undefined && !processAlive(pid)) removeIfStill(lockFile, seen);
  } finally {
    removeIfStill(takeover, mine);
  }
}

/**
 * An exclusive lock file beside the data, so two publishes to one store (or two installs of one
 * runtime) never interleave their read-modify-write. A lock this tool wrote, left by a dead process, is taken over; a lock
 * holding anything else is refused in one line and left alone.
 */
export async function withLock<T>(
  lockFile: string,
  fn: () => T | Promise<T>,
  timeoutMs = 120_000,
  what = 'store',
): Promise<T> {
  makeDirectories(dirname(lockFile));
  const deadline = Date.now() + timeoutMs;
  const mine = lockText(process.pid);
  for (;;) {
    try {
      if (createWhole(lockFile, mine)) break;
    } catch (e) {
      throw new UserError(`cannot create lock ${lockFile}: ${(e as Error).message}`);
    }
    const text = readLock(lockFile);
    if (text === undefined) continue; // released in between
    const pid = holderOf(text);
    if (pid === undefined)
      throw new UserError(
        `lock ${lockFile} was not written by jsio-bench: refusing to remove it`,
        'remove it by hand once no jsio-bench command is using this directory',
      );
    if (!processAlive(pid)) {
      takeOver(lockFile, text);
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
      continue;
    }
    if (Date.now() > deadline)
      throw new UserError(`${what} is locked by process ${pid} (${lockFile}); try again when it finishes`);
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
  }
  try {
    return await fn();
  } finally {
    removeIfStill(lockFile, mine);
  }
}
