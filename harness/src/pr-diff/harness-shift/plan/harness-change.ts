/**
 * Whether a pull request changes the harness's measuring code (./measuring-files.ts): each side's
 * import graph from the runner's entry modules (esbuild's metafile, npm packages left out), the C
 * tools and the pins, compared byte for byte.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { importGraph as esbuildImports } from '../../../plan/import-graph.js';
import { changedFiles, measuringFiles, type ReadSide, RUNNER_ENTRIES } from './measuring-files.js';

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
  const entries = RUNNER_ENTRIES.filter((e) => existsSync(join(root, e)));
  if (entries.length < RUNNER_ENTRIES.length) return allSources(root);
  try {
    const r = esbuildImports(root, entries);
    return Object.keys(r.inputs)
      .filter((f) => f.startsWith('harness/'))
      .sort();
  } catch {
    return allSources(root);
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

/** The measuring files that differ between two checkouts, repository-relative and sorted; empty when none. */
export async function harnessChange(baseRoot: string, headRoot: string): Promise<string[]> {
  const [baseGraph, headGraph] = await Promise.all([importGraph(baseRoot), importGraph(headRoot)]);
  const files = measuringFiles(
    { graph: baseGraph, tools: toolsOf(baseRoot) },
    { graph: headGraph, tools: toolsOf(headRoot) },
  );
  return changedFiles(files, reader(baseRoot), reader(headRoot));
}
