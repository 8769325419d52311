import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from '../errors.js';

/** Writes via a temp file + fsync + rename: readers see the old file or the new one, never half. */
export function writeFileAtomic(file: string, data: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    const fd = openSync(tmp, 'w');
    try {
      // writeFileSync loops over short writes and throws on ENOSPC; a bare writeSync would not.
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOSPC' ? 'the disk is full' : err.code === 'EACCES' || err.code === 'EROFS' || err.code === 'EPERM' ? 'the location is not writable' : err.message;
    throw new UserError(`cannot write ${file}: ${why} (${err.code ?? 'error'}); nothing was overwritten`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * An exclusive lock file beside the data, so two publishes to one store never interleave their
 * read-modify-write. A lock left by a dead process is taken over.
 */
export async function withLock<T>(lockFile: string, fn: () => T | Promise<T>, timeoutMs = 120_000): Promise<T> {
  mkdirSync(dirname(lockFile), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new UserError(`cannot create lock ${lockFile}: ${(e as Error).message}`);
      let holder = NaN;
      try {
        holder = Number(readFileSync(lockFile, 'utf8'));
      } catch {
        // vanished between open and read: retry
      }
      if (Number.isInteger(holder) && holder > 0 && !alive(holder)) {
        rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new UserError(`store is locked by process ${holder} (${lockFile}); try again when it finishes`);
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockFile, { force: true });
  }
}
