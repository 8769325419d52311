/**
 * Whether a pull request changes the harness's measuring code (./measuring-files.ts): every file
 * under harness/ but the few listed as unable to move a number, the package.json fields and
 * scripts, tsconfig.json, and the lockfile pins of the packages the harness loads (those its
 * measuring sources import, and esbuild, which bundles it), compared byte for byte; and, when only
 * TypeScript sources differ, whether both sides still compile to the same code.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { buildSync } from 'esbuild';
import { importGraph as esbuildImports, nodeBundle } from '../../plan/import-graph.js';
import { addPackagePins, isPackageImport, packageName, UnpinnedPackage } from '../../plan/package-pins.js';
import {
  changedFiles,
  changedPins,
  measuringFiles,
  notMeasuring,
  onlySources,
  packageFields,
  type ReadSide,
} from './measuring-files.js';

/** What a pull request changes of the measuring code. */
export interface HarnessChange {
  /** Measuring files whose bytes differ, "package.json" for its fields, then "package <name>" for each package pinned differently; sorted. */
  files: string[];
  /**
   * Every difference is in TypeScript sources, and both sides' harness bundles (minified,
   * comments and types gone, unused code dropped) are byte-identical: nothing can measure
   * differently, so there is no shift to measure.
   */
  sameCode: boolean;
}

/** The module the bootstrap bundles and runs for every command (a test checks both say so). */
export const HARNESS_ENTRY = 'harness/src/cli/main.ts';

/** Every file under harness/, repository-relative (links listed, not followed). */
function harnessListing(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(root, p).split(sep).join('/'));
    }
  };
  if (existsSync(join(root, 'harness'))) walk(join(root, 'harness'));
  return out.sort();
}

/**
 * The repository-relative files the harness's entry imports in one checkout (esbuild's graph);
 * throws when it cannot be followed.
 */
export async function importGraph(root: string): Promise<string[]> {
  return Object.keys(esbuildImports(root, [HARNESS_ENTRY]).inputs)
    .filter((f) => f.startsWith('harness/'))
    .sort();
}

/** Packages the measuring sources import (undefined when the graph cannot be followed), and the bundler. */
function harnessPackages(root: string): string[] | undefined {
  if (!existsSync(join(root, HARNESS_ENTRY))) return undefined;
  try {
    const packages = new Set(['esbuild']);
    for (const [file, input] of Object.entries(esbuildImports(root, [HARNESS_ENTRY]).inputs)) {
      if (notMeasuring(file)) continue;
      for (const i of input.imports) if (i.external && isPackageImport(i.path)) packages.add(packageName(i.path));
    }
    return [...packages].sort();
  } catch {
    return undefined;
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
 * The harness as the bootstrap bundles it, minified: comments, types, formatting and code nothing
 * reaches are gone, so what is left is what runs. Undefined when the side does not build.
 */
function compiledCode(root: string): string | undefined {
  try {
    const r = buildSync({
      ...nodeBundle(root, [HARNESS_ENTRY]),
      target: 'node20',
      // Whitespace and syntax only: minified names are allotted by the source's character
      // frequencies, so a type added anywhere could rename a symbol and make equal code differ.
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: 'none',
    });
    return r.outputFiles
      .map((f) => `${relative(root, f.path)}\n${f.text}`)
      .sort()
      .join('\n');
  } catch {
    return undefined;
  }
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
  const files = [
    ...new Set([...measuringFiles(harnessListing(baseRoot)), ...measuringFiles(harnessListing(headRoot))]),
  ].sort();
  const pkg = (root: string) => packageFields(reader(root)('package.json')?.toString());
  // Packages by name where both graphs were followed, else by the whole lockfile on both sides.
  const [basePackages, headPackages] = [harnessPackages(baseRoot), harnessPackages(headRoot)];
  const followed = basePackages && headPackages;
  const changed = [
    ...changedFiles(files, reader(baseRoot), reader(headRoot)),
    ...(pkg(baseRoot) === pkg(headRoot) ? [] : ['package.json']),
    ...changedPins(pinsOf(baseRoot, followed && basePackages), pinsOf(headRoot, followed && headPackages)),
  ].sort();
  const sameCode = changed.length > 0 && onlySources(changed) && sameCompiledCode(baseRoot, headRoot);
  return { files: changed, sameCode };
}

function sameCompiledCode(baseRoot: string, headRoot: string): boolean {
  const base = compiledCode(baseRoot);
  return base !== undefined && base === compiledCode(headRoot);
}
