/**
 * `npm run rounds` runs the harness in two checkouts (base and head; the paired diff instead
 * reads both sides' runtimes and inputs from the head's cache itself). The download and input caches
 * are content-keyed (runtime package@version, generator source + arguments), so the base
 * checkout can use the head checkout's instead of fetching Node, Bun and Deno a second time.
 * Build outputs are never shared: they are what differs between the two sides.
 */
import { existsSync, lstatSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SHARED_CACHES = ['runtimes', 'inputs'] as const;

/** Links each shared cache of `from` to the one of `to`; returns the links made. */
export function shareCaches(from: string, to: string): string[] {
  if (resolve(from) === resolve(to)) return [];
  const made: string[] = [];
  for (const name of SHARED_CACHES) {
    const target = join(resolve(to), '.cache', name);
    const link = join(resolve(from), '.cache', name);
    // An existing cache (or link) in the base checkout is left as it is.
    if (existsSync(link) || isLink(link)) continue;
    mkdirSync(target, { recursive: true });
    mkdirSync(join(resolve(from), '.cache'), { recursive: true });
    symlinkSync(target, link, 'dir');
    made.push(link);
  }
  return made;
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
