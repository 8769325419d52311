import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
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
function stage(file: string, data: string): string {
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
export function writeFileAtomic(file: string, data: string): void {
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
export function writeFilesAtomic(files: readonly { file: string; data: string }[]): void {
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

/** A lock file's content (the holder's pid), or undefined if it is gone. */
function readLock(lockFile: string): { text: string; ageMs: number } | undefined {
  try {
    return { text: readFileSync(lockFile, 'utf8'), ageMs: Date.now() - statSync(lockFile).mtimeMs };
  } catch {
    return undefined;
  }
}

/** A takeover (or an empty lock) left by a process that died inside it is this old, at most. */
const STALE_MS = 10_000;

/** True when the lock's holder is dead, or it was never written and is old. */
function isStale(lock: { text: string; ageMs: number }): boolean {
  const pid = Number(lock.text);
  if (lock.text !== '' && Number.isInteger(pid) && pid > 0) return !processAlive(pid);
  return lock.ageMs > STALE_MS;
}

/**
 * Removes a stale lock, unless someone else already did and took the lock. Two waiters can
 * both see the same dead holder; without this, the second would delete the lock the first had
 * just created and both would go ahead. Takeovers are serialised by their own short-lived
 * lock, inside which the lock is read again and removed only if it is still the stale one.
 */
function takeOver(lockFile: string, seen: string): void {
  const takeover = `${lockFile}.takeover`;
  let fd: number;
  try {
    fd = openSync(takeover, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const t = readLock(takeover);
    if (t && t.ageMs > STALE_MS) rmSync(takeover, { force: true });
    return; // another waiter is taking over: look again shortly
  }
  try {
    const now = readLock(lockFile);
    if (now && now.text === seen && isStale(now)) rmSync(lockFile, { force: true });
  } finally {
    closeSync(fd);
    rmSync(takeover, { force: true });
  }
}

/**
 * An exclusive lock file beside the data, so two publishes to one store never interleave their
 * read-modify-write. A lock left by a dead process is taken over.
 */
export async function withLock<T>(lockFile: string, fn: () => T | Promise<T>, timeoutMs = 120_000): Promise<T> {
  makeDirectories(dirname(lockFile));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new UserError(`cannot create lock ${lockFile}: ${(e as Error).message}`);
      const lock = readLock(lockFile);
      if (lock && isStale(lock)) {
        takeOver(lockFile, lock.text);
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
        continue;
      }
      if (Date.now() > deadline)
        throw new UserError(
          `store is locked by process ${lock?.text || '(unknown)'} (${lockFile}); try again when it finishes`,
        );
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockFile, { force: true });
  }
}
