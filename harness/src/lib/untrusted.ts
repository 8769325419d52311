/**
 * The one reader of files an untrusted party may have written: workflow artifacts (a pull
 * request's diff, runs and calibrations handed from a self-hosted job to a publishing one) and
 * what the workflows' checks read beside them. The file is opened without following a symlink
 * (a link in an artifact could point anywhere on the runner), must be a regular file no larger
 * than a bound (checked on the open file, before reading), and its JSON goes through the one JSON
 * reader (schema version, migration, validation with the file and field named).
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import type { z } from 'zod';
import { UserError } from './errors.js';
import { type JsonFileOptions, parseJson } from './json-file.js';

/** Reads an untrusted file as text; `what` names it in messages ("artifact file", "results"). */
export const readUntrusted = (file: string, maxBytes: number, what = 'file'): string =>
  readUntrustedBytes(file, maxBytes, what).toString('utf8');

/** Reads an untrusted file's bytes (a compressed one), with the same refusals as readUntrusted. */
export function readUntrustedBytes(file: string, maxBytes: number, what = 'file'): Buffer {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`cannot read ${file}: it does not exist (${what})`);
    if (code === 'ELOOP') throw new UserError(`${what} ${file} is a symlink: refusing it`);
    throw new UserError(`${what} ${file} cannot be read: ${(e as Error).message}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UserError(`${what} ${file} is not a regular file: refusing it`);
    if (st.size > maxBytes)
      throw new UserError(`${what} ${file} is ${st.size} bytes, over the ${maxBytes}-byte limit: refusing it`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Reads, parses and validates an untrusted JSON file (see readUntrusted and lib/json-file.ts). */
export function readUntrustedJson<T>(
  file: string,
  schema: z.ZodType<T>,
  opts: JsonFileOptions & { maxBytes: number; what?: string },
): T {
  return parseJson(file, readUntrusted(file, opts.maxBytes, opts.what), schema, opts);
}
