/**
 * The marker a site build leaves in its output: every file the build wrote, with its size and a
 * hash of its content. A rebuild replaces the folder only when it still holds exactly those files
 * as they were written, so a file someone added inside a built site (a note in its data/ folder)
 * or a page they edited is never lost with the old build. Links are never followed or accepted: a
 * build writes none.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** Written into every site this tool builds. */
export const SITE_MARKER = '.jsio-bench-site';

/** Far above any store copy: a bound on the walk, not a limit a real site reaches. */
export const MAX_SITE_FILES = 200_000;

const RelPath = z.string().min(1).max(1000);
const Hash = z.string().regex(/^[0-9a-f]{64}$/);

/** `tree` is absent in markers written before it existed: those list top-level names only. */
const Marker = z
  .object({
    builtBy: z.string().max(200),
    files: z.array(RelPath).max(MAX_SITE_FILES),
    tree: z
      .array(z.tuple([RelPath, z.number().int().nonnegative(), Hash]))
      .max(MAX_SITE_FILES)
      .optional(),
  })
  .loose();
export type Marker = z.infer<typeof Marker>;

const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Every regular file under `dir` (relative, '/'-separated, sorted); other kinds are returned apart. */
function walk(dir: string): { files: string[]; other: string[] } {
  const files: string[] = [];
  const other: string[] = [];
  const visit = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (files.length + other.length >= MAX_SITE_FILES) return void other.push(r);
      if (e.isDirectory()) visit(r);
      else if (e.isFile()) files.push(r);
      else other.push(r);
    }
  };
  visit('');
  return { files, other };
}

/** Writes the marker of a finished build into `dir`, listing what is there now. */
export function writeMarker(dir: string): void {
  const files = readdirSync(dir).sort();
  const tree = walk(dir).files.map((f) => [f, lstatSync(join(dir, f)).size, hashOf(join(dir, f))] as const);
  writeFileSync(join(dir, SITE_MARKER), `${JSON.stringify({ builtBy: 'jsio-bench (npm run site)', files, tree })}\n`);
}

/** The marker in `dir`, or undefined when there is none or it is not one of ours. */
export function readMarker(dir: string): Marker | undefined {
  try {
    const st = lstatSync(join(dir, SITE_MARKER));
    if (!st.isFile() || st.size > 256 * 2 ** 20) return undefined;
    const m = Marker.safeParse(JSON.parse(readFileSync(join(dir, SITE_MARKER), 'utf8')));
    return m.success ? m.data : undefined;
  } catch {
    return undefined; // no marker, or not ours
  }
}

/**
 * The files under `dir` the marker's build did not write as they are now (relative paths, sorted):
 * added, changed or not a regular file. Empty folders are not counted (removing them loses nothing).
 */
export function notWrittenByBuild(dir: string, tree: NonNullable<Marker['tree']>): string[] {
  const written = new Map(tree.map(([f, size, hash]) => [f, { size, hash }]));
  const { files, other } = walk(dir);
  const changed = files.filter((f) => {
    if (f === SITE_MARKER) return false;
    const w = written.get(f);
    return !w || lstatSync(join(dir, f)).size !== w.size || hashOf(join(dir, f)) !== w.hash;
  });
  return [...changed, ...other].sort();
}
