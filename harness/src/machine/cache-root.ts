/**
 * Where the harness keeps what it makes, outside every checkout: `JSIO_CACHE`, else
 * `$XDG_CACHE_HOME/jsio-bench`, else `~/.cache/jsio-bench` (harness/bootstrap.mjs picks the harness
 * bundle's place the same way). Runtimes (by package and version), generated inputs (by their
 * generator's digest and arguments) and the harness's C tools (by their source's digest) are shared
 * by every checkout, both sides of a paired diff included; a checkout's builds have a folder of
 * their own there. A folder a checkout brings (a committed `.cache/runtimes/`) is never read.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The cache's root for this environment. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return resolve(env.JSIO_CACHE || join(xdg, 'jsio-bench'));
}

/** Runtimes installed from the npm registry, one folder per package and version. */
export const runtimesCache = (env: NodeJS.ProcessEnv = process.env): string => join(cacheRoot(env), 'runtimes');

/**
 * One checkout's own folder in the cache (its builds and scratch), named by the checkout's real
 * path: builds are made again on every run, so a key by content would reuse nothing, and a folder
 * per checkout keeps the two sides of a paired diff apart while both see it at one fixed path.
 */
export function checkoutCache(root: string, env: NodeJS.ProcessEnv = process.env): string {
  let real = resolve(root);
  try {
    real = realpathSync(root);
  } catch {
    // not made yet: its path as given
  }
  return join(cacheRoot(env), 'checkouts', createHash('sha256').update(real).digest('hex').slice(0, 16));
}
