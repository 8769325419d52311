/**
 * Where a site is built: never over files this tool did not write. A directory is ours when it
 * holds the marker a build writes and nothing but the files that build listed in it, unchanged
 * (./site-marker.ts; or, built before the marker existed, only what a build writes, checked by
 * content); anything else that is not empty is refused, so a file someone added to a built site is
 * never deleted by the next build. A rebuild is made beside the old site and renamed into place, under a lock, so two rebuilds at once never write into one directory and a
 * reader sees the old site or the new one.
 */
import { accessSync, constants, existsSync, lstatSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { withLock } from '../lib/atomic.js';
import { UserError } from '../lib/errors.js';
import { realPathOfDeepestExisting } from '../lib/fs-safety.js';
import { MAX_SITE_FILES, notWrittenByBuild, readMarker, SITE_MARKER, writeMarker } from './site-marker.js';

export { SITE_MARKER };

/** What a build writes: a directory holding only these (and index.html with app.js) is an older build of ours. */
const OWN = new Set(['index.html', 'app.js', 'app.css', 'style.css', 'config.json', 'data', SITE_MARKER]);

const writable = (d: string) => {
  try {
    accessSync(d, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};

const inside = (parent: string, child: string) => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
};

/** Refuses an output directory the tool may not replace; `flag` names the option in the message. */
export function checkSiteOutput(outDir: string, storeDir: string, flag = '--out'): void {
  // Compared through the file system: an --out under a symlink into the store is inside it.
  const out = realPathOfDeepestExisting(outDir);
  const store = realPathOfDeepestExisting(storeDir);
  if (inside(out, store) || inside(store, out))
    throw new UserError(
      `${flag} ${out}: the site cannot be built ${inside(out, store) ? 'around' : 'inside'} its store ${store}`,
      'choose a site directory apart from the store',
    );
  if (!existsSync(out)) return;
  if (!lstatSync(out).isDirectory()) throw new UserError(`${flag} ${out}: not a directory`, 'choose another path');
  // The old site is renamed away, which needs write access to it and to its parent.
  for (const d of [out, dirname(out)])
    if (!writable(d)) throw new UserError(`${flag} ${out}: not writable (${d})`, 'choose a directory you can write to');
  const entries = readdirSync(out).sort();
  if (!entries.length) return;
  const foreign = notOurs(out, entries);
  if (!foreign.length) return;
  throw new UserError(
    `${flag} ${out}: not empty and not a site this tool built (it holds ${foreign[0]}${foreign.length > 1 ? ` and ${foreign.length - 1} more` : ''}); refusing to replace it`,
    'give a new or empty directory (a site is rebuilt only where this tool built one)',
  );
}

/**
 * What in a non-empty `out` this tool did not write (empty when it may be replaced). With a
 * marker that lists every file: any file not listed as it is now. With an older marker (top-level
 * names only) or none (built before the marker existed): names outside the build's, then content.
 */
function notOurs(out: string, entries: readonly string[]): string[] {
  const marker = readMarker(out);
  if (marker?.tree) return notWrittenByBuild(out, marker.tree);
  const names = marker ? new Set([...marker.files, SITE_MARKER]) : OWN;
  const foreign = entries.filter((e) => !names.has(e));
  if (foreign.length) return foreign;
  if (!marker && !(entries.includes('index.html') && entries.includes('app.js'))) return [...entries];
  const bad = marker ? notBuildContent(out, entries) : notAnOldBuild(out);
  return bad ? [bad] : [];
}

/** Under an older marker: listed names are regular files, and data/ holds JSON only. */
function notBuildContent(dir: string, entries: readonly string[]): string | undefined {
  for (const e of entries) {
    if (e === 'data') {
      const bad = notStoreData(dir, 'data', { left: MAX_SITE_FILES });
      if (bad) return bad;
    } else if (!lstatSync(join(dir, e)).isFile()) return e;
  }
  return undefined;
}

/** The page's title: what makes an index.html this tool's (gh-pages/index.html). */
const PAGE_TITLE = '<title>jsio-bench — I/O in JavaScript runtimes vs C</title>';
const CONFIG_KEYS = new Set(['repoUrl', 'overview', 'labels']);

/**
 * For a build made before the marker existed: the first file (relative) whose content is not
 * what a build writes, or undefined when every file is. Names alone are not enough, a folder of
 * someone's own index.html, app.js and data/ looks the same.
 */
function notAnOldBuild(dir: string): string | undefined {
  const text = (f: string) => (lstatSync(join(dir, f)).isFile() ? readFileSync(join(dir, f), 'utf8') : undefined);
  if (!text('index.html')?.includes(PAGE_TITLE)) return 'index.html';
  if (!lstatSync(join(dir, 'app.js')).isFile()) return 'app.js';
  for (const f of ['app.css', 'style.css']) if (existsSync(join(dir, f)) && !lstatSync(join(dir, f)).isFile()) return f;
  if (existsSync(join(dir, 'config.json')) && !isConfig(text('config.json'))) return 'config.json';
  return existsSync(join(dir, 'data')) ? notStoreData(dir, 'data', { left: MAX_SITE_FILES }) : undefined;
}

function isConfig(t: string | undefined): boolean {
  const v = parsed(t);
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).every((k) => CONFIG_KEYS.has(k));
}

function parsed(t: string | undefined): unknown {
  try {
    return t === undefined ? undefined : JSON.parse(t);
  } catch {
    return undefined;
  }
}

/** A store copy holds folders and JSON files only (links are never followed). */
function notStoreData(root: string, rel: string, budget: { left: number }): string | undefined {
  const st = lstatSync(join(root, rel));
  if (--budget.left < 0) return rel;
  if (st.isDirectory()) {
    for (const e of readdirSync(join(root, rel)).sort()) {
      const bad = notStoreData(root, join(rel, e), budget);
      if (bad) return bad;
    }
    return undefined;
  }
  const ok = st.isFile() && rel.endsWith('.json') && parsed(readFileSync(join(root, rel), 'utf8')) !== undefined;
  return ok ? undefined : rel;
}

/**
 * Builds a site with `build(dir)` into a fresh directory beside `outDir`, then puts it in place
 * of the old one (checked again under the lock), which is removed only after the swap.
 */
export async function replaceSite(outDir: string, storeDir: string, build: (dir: string) => Promise<void>) {
  const out = resolve(outDir);
  const parent = dirname(out);
  const lock = join(parent, `.${basename(out)}.lock`);
  await withLock(lock, async () => {
    checkSiteOutput(out, storeDir);
    const fresh = join(parent, `.${basename(out)}.new-${process.pid}`);
    const old = join(parent, `.${basename(out)}.old-${process.pid}`);
    rmSync(fresh, { recursive: true, force: true }); // only ever a leftover of this pid's own build
    try {
      await build(fresh);
      writeMarker(fresh);
      if (existsSync(out)) renameSync(out, old);
      try {
        renameSync(fresh, out);
      } catch (e) {
        if (existsSync(old)) renameSync(old, out); // the old site back in place
        throw e;
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
    rmSync(old, { recursive: true, force: true });
  });
}
