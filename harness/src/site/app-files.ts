/**
 * The app files an in-place build (`npm run pages`) writes beside a gh-pages checkout's data: the
 * build records them with their hashes, so the next build removes one it no longer writes, but
 * only as that build wrote it (a file someone edited since is kept and named). Files that builds
 * from before this record wrote and the page no longer loads are named, never removed: nothing
 * says they are still as a build wrote them.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The record, beside the files it lists. */
const APP_RECORD = '.jsio-bench-app.json';

/** Names builds wrote before the page held its scripts and styles inline. */
const RETIRED_APP_FILES = ['app.js', 'app.css', 'style.css', 'preload.js'] as const;

const Name = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/);
const AppRecord = z.object({ files: z.array(z.tuple([Name, z.string().regex(/^[0-9a-f]{64}$/)])).max(100) }).loose();

const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const isFile = (file: string) => existsSync(file) && lstatSync(file).isFile();

function readRecord(dir: string): Map<string, string> | undefined {
  try {
    const r = AppRecord.safeParse(JSON.parse(readFileSync(join(dir, APP_RECORD), 'utf8')));
    return r.success ? new Map(r.data.files) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * After a build wrote `written` (top-level names) into `dir`: removes what the last build recorded
 * and this one no longer writes, where unchanged; records this build's files; names the rest.
 */
export function settleAppFiles(dir: string, written: readonly string[], warn: (line: string) => void): void {
  const before = readRecord(dir);
  const now = new Set(written);
  const kept: string[] = [];
  for (const [name, hash] of before ?? []) {
    if (now.has(name)) continue;
    const file = join(dir, name);
    if (!isFile(file)) continue;
    if (hashOf(file) === hash) rmSync(file);
    else kept.push(name);
  }
  if (kept.length)
    warn(`kept ${kept.join(', ')}: an earlier build wrote it, the page no longer loads it, and it changed since`);
  const unrecorded = RETIRED_APP_FILES.filter((n) => !now.has(n) && !before?.has(n) && isFile(join(dir, n)));
  if (unrecorded.length)
    warn(
      `${unrecorded.join(', ')}: left by a build from before the page held its scripts inline; the page no longer loads ${unrecorded.length === 1 ? 'it' : 'them'}, and nothing says ${unrecorded.length === 1 ? 'it is' : 'they are'} unchanged, so ${unrecorded.length === 1 ? 'it stays' : 'they stay'} (git rm in the checkout removes ${unrecorded.length === 1 ? 'it' : 'them'})`,
    );
  const files = written.filter((n) => isFile(join(dir, n))).map((n) => [n, hashOf(join(dir, n))]);
  writeFileSync(join(dir, APP_RECORD), `${JSON.stringify({ builtBy: 'jsio-bench (npm run pages)', files })}\n`);
}
