/**
 * The two harnesses a harness shift compares, set up to measure the same programs: one directory
 * per side, at paths of the same length, each holding its checkout's harness (and npm manifest)
 * with the HEAD's programs copied in. Runtimes and generated inputs (content-keyed) come from the
 * harness's cache outside every checkout (machine/cache-root.ts) for both sides, and both write
 * scratch files into one directory, so what differs between the sides is the harness alone.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { cacheRoot, checkoutCache } from '../../machine/cache-root.js';

export interface ShiftSides {
  /** The directory holding both sides (and their results). */
  dir: string;
  base: string;
  head: string;
  /** Removes the sides (links only point out; nothing outside is removed). */
  dispose(): void;
}

const sameBytes = (a: string, b: string) =>
  existsSync(a) && existsSync(b) && Buffer.compare(readFileSync(a), readFileSync(b)) === 0;

/**
 * Whether a checkout's node_modules was installed from its package-lock.json, by the rule its
 * bootstrap applies (harness/bootstrap.mjs ensureNpmDeps): the stamp bootstrap writes, else npm's
 * own lock copy no older than the lock file. A side linked to packages this rule calls stale would
 * run npm ci through the link and empty the checkout's node_modules.
 */
export function packagesCurrent(root: string): boolean {
  const lock = join(root, 'package-lock.json');
  const modules = join(root, 'node_modules');
  if (!existsSync(lock) || !existsSync(modules)) return false;
  const stamp = join(modules, '.jsio-lock.sha256');
  if (existsSync(stamp))
    return readFileSync(stamp, 'utf8') === createHash('sha256').update(readFileSync(lock)).digest('hex');
  const hidden = join(modules, '.package-lock.json');
  return existsSync(hidden) && statSync(hidden).mtimeMs >= statSync(lock).mtimeMs;
}

/**
 * The npm packages a side runs with: a copy of its checkout's own when they are current, else of
 * the head's when both lock files agree and the head's are current. Otherwise none, and the side's
 * bootstrap installs its own into the side. A copy, not a link: the side's programs run sandboxed
 * with its tree at a fixed path, where a link out of the tree points at nothing (a program's
 * `import 'binary-split'` then failed, and Bun went looking for it on the network); and nothing
 * the side's bootstrap writes there reaches a checkout.
 */
function copyPackages(root: string, headRoot: string, side: string): void {
  const from = packagesCurrent(root)
    ? root
    : sameBytes(join(root, 'package-lock.json'), join(headRoot, 'package-lock.json')) && packagesCurrent(headRoot)
      ? headRoot
      : undefined;
  if (from)
    cpSync(join(from, 'node_modules'), join(side, 'node_modules'), {
      recursive: true,
      // The packages' own links (.bin) stay links; the times stay, for the bootstrap's rule above.
      verbatimSymlinks: true,
      preserveTimestamps: true,
    });
}

function makeSide(root: string, headRoot: string, side: string, scratch: string): void {
  mkdirSync(side);
  const tests = join(root, 'harness', 'test');
  cpSync(join(root, 'harness'), join(side, 'harness'), {
    recursive: true,
    filter: (src) => src !== tests && !src.startsWith(`${tests}${sep}`),
  });
  // With their times: the side's bootstrap compares the lock file's with its packages' (above).
  for (const f of ['package.json', 'package-lock.json', 'tsconfig.json'])
    if (existsSync(join(root, f))) cpSync(join(root, f), join(side, f), { preserveTimestamps: true });
  copyPackages(root, headRoot, side);
  // A copy, not a link: a side's processes run sandboxed with its tree at a fixed path, where a
  // link out of the tree would point at nothing.
  cpSync(join(headRoot, 'programs'), join(side, 'programs'), { recursive: true });
  // The side's own folder of the harness's cache (builds, scratch: machine/cache-root.ts), its
  // scratch the one both sides share.
  const own = checkoutCache(side);
  mkdirSync(own, { recursive: true });
  symlinkSync(scratch, join(own, 'scratch'), 'dir');
  // A harness from before the caches moved out of the checkout reads them under .cache/: the
  // shared ones by a link there too.
  const cache = join(side, '.cache');
  mkdirSync(cache);
  for (const shared of ['runtimes', 'inputs']) {
    mkdirSync(join(cacheRoot(), shared), { recursive: true });
    symlinkSync(join(cacheRoot(), shared), join(cache, shared), 'dir');
  }
  symlinkSync(scratch, join(cache, 'scratch'), 'dir');
}

/** Both sides in a new temporary directory. */
export function makeShiftSides(baseRoot: string, headRoot: string): ShiftSides {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-harness-shift-'));
  const head = resolve(headRoot);
  const scratch = join(dir, 'scratch');
  mkdirSync(scratch);
  try {
    makeSide(resolve(baseRoot), head, join(dir, 'base'), scratch);
    makeSide(head, head, join(dir, 'head'), scratch);
  } catch (e) {
    for (const side of ['base', 'head']) rmSync(checkoutCache(join(dir, side)), { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    dir,
    base: join(dir, 'base'),
    head: join(dir, 'head'),
    // rmSync removes links, never what they point to.
    dispose: () => {
      for (const side of ['base', 'head']) rmSync(checkoutCache(join(dir, side)), { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
