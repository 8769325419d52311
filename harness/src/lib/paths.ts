/**
 * Paths given on the command line, checked before anything runs. Node's recursive mkdir loops
 * forever on procfs (mkdir answers ENOENT for a parent that exists), so directories are created
 * one level at a time here, and every refusal names the path and the reason.
 */
import { accessSync, constants, lstatSync, mkdirSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UserError } from './errors.js';

/** Filesystems no result may be written to (magic numbers from statfs(2)). */
const SPECIAL_FS: Record<number, string> = {
  40864: 'procfs',
  1650812274: 'sysfs',
  4979: 'devfs',
  1684170528: 'debugfs',
  2613483: 'cgroupfs',
  1667723888: 'cgroup2',
  1935894131: 'securityfs',
};

type Kind = 'missing' | 'dangling-link' | 'directory' | 'file' | 'other';

function kindOf(p: string): Kind {
  let l: ReturnType<typeof lstatSync>;
  try {
    l = lstatSync(p);
  } catch {
    return 'missing';
  }
  if (l.isSymbolicLink()) {
    try {
      const s = statSync(p);
      return s.isDirectory() ? 'directory' : s.isFile() ? 'file' : 'other';
    } catch {
      return 'dangling-link';
    }
  }
  return l.isDirectory() ? 'directory' : l.isFile() ? 'file' : 'other';
}

function refuse(flag: string, path: string, why: string): never {
  throw new UserError(`${flag} ${path}: ${why}`, 'choose another path');
}

/** Refuses procfs, sysfs and the like: a path there is a mistake, and mkdir misbehaves there. */
function checkFilesystem(flag: string, path: string, existing: string): void {
  let type: number;
  try {
    type = statfsSync(existing).type;
  } catch {
    return;
  }
  if (SPECIAL_FS[type])
    refuse(flag, path, `${existing} is on ${SPECIAL_FS[type] ?? 'a special filesystem'}, not a place for files`);
}

/**
 * Makes sure `path` is a writable directory, creating missing levels one at a time; returns the
 * absolute path. `flag` names the option in messages ("--out").
 */
export function ensureDirectory(path: string, flag: string): string {
  const abs = resolve(path);
  const missing: string[] = [];
  let p = abs;
  for (;;) {
    const kind = kindOf(p);
    if (kind === 'directory') break;
    if (kind === 'dangling-link') refuse(flag, abs, `${p} is a symbolic link to nothing (a dangling symlink)`);
    if (kind === 'file') refuse(flag, abs, `${p} is a file, and a directory is needed there`);
    if (kind === 'other') refuse(flag, abs, `${p} is not a directory (a device, socket or pipe)`);
    missing.unshift(p);
    const up = dirname(p);
    if (up === p) refuse(flag, abs, 'no part of the path exists');
    p = up;
  }
  checkFilesystem(flag, abs, p);
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === 'EEXIST' && kindOf(dir) === 'directory') continue;
      const why =
        err.code === 'EACCES' || err.code === 'EPERM'
          ? 'no permission'
          : err.code === 'EROFS'
            ? 'a read-only filesystem'
            : `${err.code ?? err.message}`;
      refuse(flag, abs, `cannot create ${dir}: ${why}`);
    }
  }
  try {
    accessSync(abs, constants.W_OK);
    const probe = join(abs, `.write-test-${process.pid}`);
    writeFileSync(probe, 'ok');
    rmSync(probe);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why =
      err.code === 'EACCES' || err.code === 'EPERM'
        ? 'no permission to write there'
        : err.code === 'EROFS'
          ? 'a read-only filesystem'
          : err.code === 'ENOSPC'
            ? 'the disk is full'
            : err.message;
    refuse(flag, abs, `not writable: ${why}`);
  }
  return abs;
}

/** An existing directory to read from (a checkout, a store, an artifact). */
export function existingDirectory(path: string, flag: string): string {
  const abs = resolve(path);
  const kind = kindOf(abs);
  if (kind === 'directory') return abs;
  if (kind === 'missing') refuse(flag, abs, 'it does not exist');
  if (kind === 'dangling-link') refuse(flag, abs, 'a symbolic link to nothing (a dangling symlink)');
  return refuse(flag, abs, 'not a directory');
}

/** The directory a file will be written into exists (or is created) and is writable. */
export function ensureParentDirectory(file: string, flag: string): string {
  const abs = resolve(file);
  const kind = kindOf(abs);
  if (kind === 'directory') refuse(flag, abs, 'a directory, and a file is needed there');
  if (kind === 'dangling-link') refuse(flag, abs, 'a symbolic link to nothing (a dangling symlink)');
  ensureDirectory(dirname(abs), flag);
  return abs;
}

/**
 * mkdir -p without Node's recursive mkdir (which loops on procfs): one level at a time; a
 * level that cannot be created throws the system's error for that level.
 */
export function makeDirectories(dir: string): void {
  const abs = resolve(dir);
  if (kindOf(abs) === 'directory') return;
  const up = dirname(abs);
  if (up !== abs) makeDirectories(up);
  try {
    mkdirSync(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || kindOf(abs) !== 'directory') throw e;
  }
}
