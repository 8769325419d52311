/**
 * The site's copy of the releases part, checked before the page reads it (the browser does not
 * validate): every machine's index.json and changes.json rewritten with their valid records only,
 * each bad record skipped with one line. A bad record never stops the build; a file that is not
 * the releases format at all is replaced by an empty one in the copy, with one line. The store
 * itself is not touched (the build works on its copy; in place, the copy is the gh-pages checkout).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { paths, RELEASES_DIR, RELEASES_SCHEMA } from '../formats/parts/store-layout.js';
import { writeFilesAtomic } from '../lib/atomic.js';
import { UserError } from '../lib/errors.js';
import { isSegment } from '../lib/ids.js';
import { readReleaseChanges, readReleaseIndex, type Warn } from './release-files.js';

function orEmpty<T>(read: () => T, empty: T, file: string, warn: Warn): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    warn(`${file}: not shown: ${e.message.split('\n')[0]}`);
    return empty;
  }
}

/** Checks the releases of a store copy (the site's data/ folder); returns the machines seen. */
export function checkReleaseCopy(data: string, warn: Warn): string[] {
  const dir = join(data, RELEASES_DIR);
  if (!existsSync(dir)) return [];
  const machines = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && isSegment(e.name))
    .map((e) => e.name)
    .sort();
  for (const machine of machines) {
    const files: { file: string; data: string }[] = [];
    const index = join(data, paths.releaseIndex(machine));
    if (existsSync(index)) {
      const empty = { schema: RELEASES_SCHEMA, machine, releases: [] };
      const v = orEmpty(() => readReleaseIndex(data, machine, warn), empty, index, warn);
      files.push({ file: index, data: `${JSON.stringify(v)}\n` });
    }
    const changes = join(data, paths.releaseChanges(machine));
    if (existsSync(changes)) {
      const empty = { schema: RELEASES_SCHEMA, machine, changes: [], candidates: [] };
      const v = orEmpty(() => readReleaseChanges(data, machine, warn), empty, changes, warn);
      files.push({ file: changes, data: `${JSON.stringify(v)}\n` });
    }
    writeFilesAtomic(files);
  }
  return machines;
}
