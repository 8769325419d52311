/**
 * Whether a pull request changes the harness's measuring code (./measuring-files.ts): each side's
 * import graph from the runner's entry modules (esbuild's metafile), the npm packages that graph
 * imports (by their lockfile pins), the C tools and the pins, compared byte for byte; and, when
 * only TypeScript sources differ, whether both sides still compile to the same code.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { buildSync } from 'esbuild';
import { importGraph as esbuildImports, nodeBundle } from '../../../plan/import-graph.js';
import { addPackagePins, isPackageImport, packageName, UnpinnedPackage } from '../../../plan/package-pins.js';
import {
  changedFiles,
  changedPins,
  measuringFiles,
  onlySources,
  type ReadSide,
  RUNNER_ENTRIES,
} from './measuring-files.js';

/** What a pull request changes of the measuring code. */
export interface HarnessChange {
  /** Measuring files whose bytes differ, then "package <name>" for each package pinned differently; sorted. */
  files: string[];
  /**
   * Every difference is in TypeScript sources, and both sides' runner entries bundle (minified,
   * comments and types gone, unused code dropped) to byte-identical code: nothing can measure
   * differently, so there is no shift to measure.
   */
  sameCode: boolean;
}

/** Every .ts file under harness/src, repository-relative: the graph when esbuild cannot follow a side's imports. */
function allSources(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.ts')) out.push(relative(root, p).split(sep).join('/'));
    }
  };
  if (existsSync(join(root, 'harness', 'src'))) walk(join(root, 'harness', 'src'));
  return out.sort();
}

/**
 * The repository-relative files the runner's entry modules import in one checkout. A side whose
 * graph cannot be followed (a missing entry, a syntax error) counts with all of harness/src:
 * failing closed, every file it has is compared.
 */
export async function importGraph(root: string): Promise<string[]> {
  return (await sideGraph(root)).files;
}

/** A side's measuring sources and the packages they import; `packages` undefined when the graph could not be followed. */
async function sideGraph(root: string): Promise<{ files: string[]; packages?: string[] }> {
  const entries = RUNNER_ENTRIES.filter((e) => existsSync(join(root, e)));
  if (entries.length < RUNNER_ENTRIES.length) return { files: allSources(root) };
  try {
    const r = esbuildImports(root, entries);
    const packages = new Set<string>();
    for (const input of Object.values(r.inputs))
      for (const i of input.imports) if (i.external && isPackageImport(i.path)) packages.add(packageName(i.path));
    const files = Object.keys(r.inputs)
      .filter((f) => f.startsWith('harness/'))
      .sort();
    return { files, packages: [...packages].sort() };
  } catch {
    return { files: allSources(root) };
  }
}

/**
 * A side's package pins ("package zod" -> version and integrity), or undefined when a package is
 * not pinned. A side whose imports could not be followed is pinned by its whole lockfile.
 */
function pinsOf(root: string, packages: readonly string[] | undefined): Record<string, string> | undefined {
  if (!packages) {
    const lock = reader(root)('package-lock.json');
    return lock ? { 'package-lock.json': createHash('sha256').update(lock).digest('hex') } : {};
  }
  const pins: Record<string, string> = {};
  try {
    addPackagePins(packages, root, pins);
  } catch (e) {
    if (e instanceof UnpinnedPackage) return undefined;
    throw e;
  }
  return pins;
}

/**
 * The runner entries of one side bundled as the harness runs them, minified: comments, types,
 * formatting and code nothing reaches are gone, so what is left is what runs. Undefined when
 * the side does not build.
 */
function compiledCode(root: string): string | undefined {
  try {
    const r = buildSync({ ...nodeBundle(root, RUNNER_ENTRIES), minify: true, legalComments: 'none' });
    return r.outputFiles
      .map((f) => `${relative(root, f.path)}\n${f.text}`)
      .sort()
      .join('\n');
  } catch {
    return undefined;
  }
}

function toolsOf(root: string): string[] {
  const dir = join(root, 'harness', 'tools');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

const reader =
  (root: string): ReadSide =>
  (file) => {
    const p = join(root, file);
    try {
      return statSync(p).isFile() ? readFileSync(p) : undefined;
    } catch {
      return undefined;
    }
  };

/** What differs between two checkouts' measuring code; `files` empty when nothing does. */
export async function harnessChange(baseRoot: string, headRoot: string): Promise<HarnessChange> {
  const [base, head] = await Promise.all([sideGraph(baseRoot), sideGraph(headRoot)]);
  const files = measuringFiles(
    { graph: base.files, tools: toolsOf(baseRoot) },
    { graph: head.files, tools: toolsOf(headRoot) },
  );
  // Packages by name where both graphs were followed, else by the whole lockfile on both sides.
  const followed = base.packages && head.packages;
  const changed = [
    ...changedFiles(files, reader(baseRoot), reader(headRoot)),
    ...changedPins(pinsOf(baseRoot, followed && base.packages), pinsOf(headRoot, followed && head.packages)),
  ];
  const sameCode = changed.length > 0 && onlySources(changed) && sameCompiledCode(baseRoot, headRoot);
  return { files: changed, sameCode };
}

function sameCompiledCode(baseRoot: string, headRoot: string): boolean {
  const base = compiledCode(baseRoot);
  return base !== undefined && base === compiledCode(headRoot);
}
