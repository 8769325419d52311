/**
 * The file-system half of path validation: a path built from validated segments can still leave
 * its root through a symlink planted in the tree (a gh-pages checkout or a store directory is data
 * anyone who can publish could have shaped). `assertRealInside` resolves the deepest existing
 * ancestor of the path through the file system and checks it is still under the root's real path.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InvalidIdentifier } from './ids.js';

/** The real path of `p`, or of its deepest existing ancestor with the rest appended. */
export function realPathOfDeepestExisting(p: string): string {
  let cur = resolve(p);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(cur), ...rest.reverse());
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // A dangling symlink exists but cannot be resolved: it is refused, never followed later.
      if (code === 'ENOENT' && isSymlink(cur)) throw new InvalidIdentifier('path', p, 'free of dangling symlinks');
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
      const parent = dirname(cur);
      if (parent === cur) throw e;
      rest.push(cur.slice(parent.length).replace(/^[/\\]/, ''));
      cur = parent;
    }
  }
}

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Throws unless `path`, with every symlink on its existing part resolved, is inside `root`. */
export function assertRealInside(root: string, path: string): string {
  const realRoot = realpathSync(resolve(root));
  const real = realPathOfDeepestExisting(path);
  const rel = relative(realRoot, real);
  if (rel === '' || !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))) return real;
  throw new InvalidIdentifier('path', path, `inside ${root} (it resolves to ${real})`);
}
