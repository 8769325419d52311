/**
 * What an import of an npm package runs, as a checkout pins it: the package and everything it
 * depends on, each by the version and integrity package-lock.json records. Two checkouts whose
 * pins agree run the same package code, installed or not.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';

/** Thrown when a package cannot be pinned: the caller fails closed. */
export class UnpinnedPackage extends Error {}

/** One entry of package-lock.json's `packages`, and the packages it depends on. */
interface LockEntry {
  version?: string;
  integrity?: string;
  resolved?: string;
  dependencies?: Record<string, string>;
}

function lockPackages(root: string): Record<string, LockEntry> {
  const file = join(root, 'package-lock.json');
  if (!existsSync(file))
    throw new UnpinnedPackage('package-lock.json is missing, so imported packages cannot be pinned');
  try {
    const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages?: Record<string, LockEntry> };
    return lock.packages ?? {};
  } catch (e) {
    throw new UnpinnedPackage(`package-lock.json cannot be read: ${(e as Error).message}`);
  }
}

/** The package a bare specifier names: "through2", "@scope/pkg/sub" -> "@scope/pkg". */
export function packageName(spec: string): string {
  const [first, second] = spec.split('/');
  return spec.startsWith('@') && second ? `${first}/${second}` : (first ?? spec);
}

/** Whether an external import is an npm package (not a built-in module or another runtime's scheme). */
export const isPackageImport = (spec: string) => !isBuiltin(spec) && !/^(bun|deno|npm|jsr):/.test(spec);

/**
 * `names` and their dependencies as the checkout's lockfile pins them, added to `into` as
 * "package <name>" -> "<version> <integrity>". Throws UnpinnedPackage for a package the lockfile
 * does not pin.
 */
export function addPackagePins(names: Iterable<string>, root: string, into: Record<string, string>): void {
  const todo = [...names];
  // A checkout without a lockfile proves nothing about packages, and needs not when none is imported.
  if (!todo.length) return;
  const packages = lockPackages(root);
  while (todo.length) {
    const pkg = todo.pop()!;
    if (into[`package ${pkg}`]) continue;
    const entry = packages[`node_modules/${pkg}`];
    if (!entry?.version)
      throw new UnpinnedPackage(`imports the package "${pkg}", which package-lock.json does not pin`);
    into[`package ${pkg}`] = `${entry.version} ${entry.integrity ?? entry.resolved ?? ''}`;
    todo.push(...Object.keys(entry.dependencies ?? {}));
  }
}
