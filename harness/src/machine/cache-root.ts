/**
 * Where the harness keeps what it makes, outside every checkout: `JSIO_CACHE`, else
 * `$XDG_CACHE_HOME/jsio-bench`, else `~/.cache/jsio-bench` (harness/bootstrap.mjs picks the harness
 * bundle's place the same way). Runtimes (by package and version), generated inputs (by their
 * generator's digest and arguments), builds (`builds/<E>/<V>/<key>`: by what the build reads, the
 * builder's version and where it sees its folder; plan/jobs.ts) and the harness's C tools (by
 * their source's digest) are shared by every checkout, both sides of a paired diff included; a
 * checkout has a folder of its own there for its scratch and a view of its builds. A folder a
 * checkout brings (a committed `.cache/runtimes/`) is never read; the folders an older harness
 * left in a checkout's `.cache/` are named once, never removed.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
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
 * One checkout's own folder in the cache, named by the checkout's real path: bench's scratch, and
 * `build/<E>/<V>/`, the checkout's builds as hard links to their entries (bench.yml uploads the
 * static just(js) binary from there: `workflow build-dir`).
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

/**
 * Folders of a checkout's `.cache/` still in use: bootstrap.mjs's developer tools (`bin`: actionlint
 * and act; knip's cache) and the workflow tests' (act's actions and cache, the replay's tool cache).
 * Every other folder there is from a harness that kept its caches in the checkout.
 */
const TOOL_FOLDERS = new Set(['bin', 'knip', 'act', 'actcache', 'workflow-replay']);

/**
 * The folders of `root/.cache/` an older harness left (real folders, not links: the harness shift
 * links a side's for a harness from before), sorted.
 */
export function oldCheckoutCaches(root: string): string[] {
  const dir = join(root, '.cache');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => !TOOL_FOLDERS.has(n) && lstatSync(join(dir, n), { throwIfNoEntry: false })?.isDirectory())
    .sort();
}

const toldAbout = new Set<string>();

/**
 * Says once per checkout and process, in one line, that the checkout's old cache folders are no
 * longer used and how to remove them. Never removes them: this run did not make them.
 */
export function noteOldCheckoutCaches(root: string, log: (m: string) => void, env = process.env): void {
  const old = oldCheckoutCaches(root);
  if (!old.length || toldAbout.has(root)) return;
  toldAbout.add(root);
  const paths = old.map((n) => join(root, '.cache', n));
  log(
    `note: ${paths.join(', ')} ${old.length > 1 ? 'are' : 'is'} from an older harness and no longer used (the harness's cache is ${cacheRoot(env)}); to free the space: rm -rf ${paths.join(' ')}`,
  );
}
