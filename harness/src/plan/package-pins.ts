/**
 * What an import of an npm package runs, as a checkout pins it: the package and everything it
 * depends on, each by the version and integrity package-lock.json records for the copy Node's
 * resolution would load — the nearest `node_modules/<name>` up from the importing folder, so a
 * nested entry (`node_modules/a/node_modules/b`) counts where it is the one loaded. Two checkouts
 * whose pins agree run the same package code, installed or not.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, posix } from 'node:path';

/** Thrown when a package cannot be pinned: the caller fails closed. */
export class UnpinnedPackage extends Error {}

/** One entry of package-lock.json's `packages`, and the packages it depends on. */
interface LockEntry {
  version?: string;
  integrity?: string;
  resolved?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const lockMemo = new Map<string, Record<string, LockEntry>>();

function lockPackages(root: string): Record<string, LockEntry> {
  const file = join(root, 'package-lock.json');
  if (!existsSync(file))
    throw new UnpinnedPackage('package-lock.json is missing, so imported packages cannot be pinned');
  // Read once per version of the file: a diff asks for the same lockfile hundreds of times.
  const st = statSync(file);
  const memoKey = `${file}\0${st.mtimeMs}\0${st.size}`;
  const hit = lockMemo.get(memoKey);
  if (hit) return hit;
  let packages: Record<string, LockEntry>;
  try {
    const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages?: Record<string, LockEntry> };
    packages = lock.packages ?? {};
  } catch (e) {
    throw new UnpinnedPackage(`package-lock.json cannot be read: ${(e as Error).message}`);
  }
  lockMemo.set(memoKey, packages);
  return packages;
}

/** Forgets the lockfiles read (a test that edits a checkout between two identities). */
export function forgetLockfiles(): void {
  lockMemo.clear();
}

/** The package a bare specifier names: "through2", "@scope/pkg/sub" -> "@scope/pkg". */
export function packageName(spec: string): string {
  const [first, second] = spec.split('/');
  return spec.startsWith('@') && second ? `${first}/${second}` : (first ?? spec);
}

/** Whether an external import is an npm package (not a built-in module or another runtime's scheme). */
export const isPackageImport = (spec: string) =>
  !isBuiltin(spec) && !/^(bun|deno|npm|jsr|https?|file|data):/.test(spec);

/**
 * The lockfile path Node would load `name` from, imported from the checkout folder `fromDir`
 * ("" for the root, "programs/streams", or a package's own "node_modules/a"): the nearest
 * `<dir>/node_modules/<name>` going up.
 */
function resolveLockPath(
  packages: Readonly<Record<string, LockEntry>>,
  fromDir: string,
  name: string,
): string | undefined {
  let dir = fromDir.replace(/\/+$/, '');
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const up = posix.dirname(dir);
    dir = up === '.' ? '' : up;
    // From inside a package, the next folder up is the node_modules that holds it: skip past it.
    if (dir.endsWith('/node_modules') || dir === 'node_modules') dir = dir.replace(/\/?node_modules$/, '');
  }
}

/**
 * `names`, imported from checkout folder `fromDir`, and their dependencies as the checkout's
 * lockfile pins the copies Node would load, added to `into` as "package <name>" (a nested copy:
 * "package a/node_modules/b") -> "<version> <integrity>". Throws UnpinnedPackage for a package the lockfile does not pin.
 */
export function addPackagePins(
  names: Iterable<string>,
  root: string,
  into: Record<string, string>,
  fromDir = '',
): void {
  const todo = [...names].map((name) => ({ name, from: fromDir, required: true }));
  // A checkout without a lockfile proves nothing about packages, and needs not when none is imported.
  if (!todo.length) return;
  const packages = lockPackages(root);
  while (todo.length) {
    const { name, from, required } = todo.pop()!;
    const path = resolveLockPath(packages, from, name);
    if (!path) {
      if (required) throw new UnpinnedPackage(`imports the package "${name}", which package-lock.json does not pin`);
      continue;
    }
    const key = `package ${path.replace(/^node_modules\//, '')}`;
    if (into[key]) continue;
    const entry = packages[path]!;
    if (!entry.version && !entry.link)
      throw new UnpinnedPackage(`the package "${name}" at ${path} has no version in package-lock.json`);
    into[key] = `${entry.version ?? 'link'} ${entry.integrity ?? entry.resolved ?? ''}`.trim();
    for (const dep of Object.keys(entry.dependencies ?? {})) todo.push({ name: dep, from: path, required: true });
    // Optional and peer dependencies may be absent; where the lockfile has them, they count.
    for (const dep of [...Object.keys(entry.optionalDependencies ?? {}), ...Object.keys(entry.peerDependencies ?? {})])
      todo.push({ name: dep, from: path, required: false });
  }
}

/** The lockfile entry of one package as the checkout root resolves it ("<version> <integrity>"), if pinned. */
export function rootPin(root: string, name: string): string | undefined {
  try {
    const packages = lockPackages(root);
    const e = packages[`node_modules/${name}`];
    return e?.version ? `${e.version} ${e.integrity ?? ''}`.trim() : undefined;
  } catch {
    return undefined;
  }
}
