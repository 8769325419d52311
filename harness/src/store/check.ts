/**
 * A store checked before anything relies on it: before a bench measures for minutes and then
 * cannot publish, and before the site copies it. Every JSON file but the run files must parse,
 * and the files that describe the store (machines.json, each machine's index.json) must be a
 * version this harness reads. Read-only; the first problem is a UserError naming the file.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../lib/errors.js';
import { readJsonFile } from '../lib/json-file.js';
import { RELEASES_DIR, RELEASES_SCHEMA } from '../model/store-layout.js';
import { STORE_SCHEMA } from '../model/store-schema.js';
import { migrate } from './migrate.js';

const HINT = 'repair or remove the file by hand, or update the harness if it is newer';
const context = 'refusing to touch the store: ';

/**
 * Every .json file under dir that the site build and publishing read (symlinks are not followed:
 * the writers refuse them). Run files (<machine>/runs/) are left out: the build only copies them,
 * publishing reads the one it merges into with its own checks, and on a long history they are
 * most of the bytes.
 */
function jsonFiles(dir: string, depth = 0): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && !(depth === 1 && e.name === 'runs')) out.push(...jsonFiles(p, depth + 1));
    else if (e.isFile() && e.name.endsWith('.json')) out.push(p);
  }
  return out.sort();
}

/**
 * A directory that is neither empty nor a store (`--store /`, a home directory) is refused by
 * its top level alone, before any walk: the walk below would read a whole file system.
 */
function assertStoreShaped(root: string): void {
  const entries = readdirSync(root).filter((e) => !e.startsWith('.'));
  if (!entries.length || entries.includes('machines.json') || entries.every((e) => e === RELEASES_DIR)) return;
  throw new UserError(
    `--store ${root}: not a store (no machines.json) and not empty (it holds ${entries.sort()[0]}${entries.length > 1 ? ` and ${entries.length - 1} more` : ''})`,
    'give a store, or a new or empty directory',
  );
}

export function checkStore(root: string): void {
  if (!existsSync(root) || !lstatSync(root).isDirectory()) return;
  assertStoreShaped(root);
  const machines = join(root, 'machines.json');
  if (existsSync(machines))
    readJsonFile(machines, z.object({ machines: z.record(z.string(), z.unknown()) }).loose(), {
      version: STORE_SCHEMA,
      context,
      hint: HINT,
      migrate: (raw) => migrate('machines', raw, STORE_SCHEMA),
    });
  for (const file of jsonFiles(root))
    readJsonFile(file, z.unknown(), {
      // The releases part (releases/<machine>/index.json) is versioned on its own.
      version: file.endsWith('/index.json')
        ? file.startsWith(join(root, RELEASES_DIR, '/'))
          ? RELEASES_SCHEMA
          : STORE_SCHEMA
        : undefined,
      context,
      hint: HINT,
    });
}
