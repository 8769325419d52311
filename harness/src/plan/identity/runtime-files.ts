/**
 * Files a JavaScript runtime reads on its own, without the program naming them: from the program's
 * folder (and its working directory) up to the checkout's root, the configuration files its
 * registry entry names (model/runtime-families.ts `folderReads`: Deno's and Bun's configuration,
 * TypeScript configs, `.env` files, lockfiles other than npm's) and, for a family that resolves
 * packages, the package.json fields it resolves with and a `node_modules` folder vendored below
 * the root (the root's own is installed from package-lock.json, whose entries count as package pins).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { type FolderReads, familyOf, runtimeFamilies } from '../../model/runtime-families.js';

/** A name matching any of these; none: no name. */
function anyOf(patterns: readonly (RegExp | undefined)[]): RegExp {
  const sources = patterns.flatMap((r) => (r ? [r.source] : []));
  return sources.length ? new RegExp(sources.join('|')) : /^$/;
}

/**
 * What a family reads from the folders it runs in, as its registry entry says. A family that does
 * not say (a runtime added without it), and no family at all, read what any family reads: failing closed.
 */
function folderReadsOf(family: string | undefined): Required<FolderReads> {
  const own = family === undefined ? undefined : familyOf(family)?.folderReads;
  if (own) return { config: anyOf([own.config]), naming: anyOf([own.naming]), packages: own.packages };
  const all = runtimeFamilies().flatMap((f) => (f.folderReads ? [f.folderReads] : []));
  return { config: anyOf(all.map((f) => f.config)), naming: anyOf(all.map((f) => f.naming)), packages: true };
}

/** The package.json fields a runtime resolves or loads with; the rest (scripts, description) it never reads. */
const PACKAGE_FIELDS = ['name', 'type', 'main', 'exports', 'imports'] as const;

export interface RuntimeFiles {
  /** Whole files: configuration, and every file of a vendored node_modules. */
  files: string[];
  /** "package.json fields <rel>" -> the fields' JSON. */
  fields: Record<string, string>;
  /** Files a configuration names (Bun's preload, Deno's import map): they run or resolve too. */
  named: string[];
}

/** Folders from `start` up to `root`, both included (a start outside the root gives none). */
function foldersUp(start: string, root: string): string[] {
  const out: string[] = [];
  let dir = resolve(start);
  const top = resolve(root);
  if (dir !== top && !dir.startsWith(top + sep)) return out;
  for (;;) {
    out.push(dir);
    if (dir === top) return out;
    dir = dirname(dir);
  }
}

/** Every entry under a folder that is not a folder: files, links (not followed), pipes and devices (for the caller to refuse). */
export function filesUnder(dir: string, limit = 20_000): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(p);
      if (out.length > limit) throw new Error(`${d} holds more than ${limit} files`);
    }
  };
  walk(dir);
  return out;
}

/** Quoted strings of a configuration file that could be paths. */
function quoted(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'/g)]
    .map((m) => m[1] ?? m[2] ?? '')
    .filter((s) => /[./]/.test(s) && s.length < 1024);
}

/** What a runtime of `family` (undefined: any) discovers from each of `starts` up to `root`. */
export function runtimeFiles(starts: readonly string[], root: string, family?: string): RuntimeFiles {
  const out: RuntimeFiles = { files: [], fields: {}, named: [] };
  const { config, naming, packages } = folderReadsOf(family);
  const top = resolve(root);
  const seen = new Set<string>();
  for (const dir of starts.flatMap((s) => foldersUp(s, root))) {
    if (seen.has(dir) || !existsSync(dir)) continue;
    seen.add(dir);
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = statSync(p, { throwIfNoEntry: false });
      if (!st) {
        // A dangling link: nothing to read today, but its target may appear on the other side.
        if (config.test(name) || (packages && name === 'package.json')) out.files.push(p);
        continue;
      }
      if (packages && name === 'node_modules' && dir !== top && st.isDirectory()) out.files.push(...filesUnder(p));
      if (!st.isFile()) continue;
      if (packages && name === 'package.json') {
        let pkg: Record<string, unknown>;
        try {
          pkg = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
        } catch {
          // Unreadable for us is unreadable for the runtime too, and may mean anything: all of it counts.
          out.files.push(p);
          continue;
        }
        const kept = Object.fromEntries(PACKAGE_FIELDS.filter((f) => f in pkg).map((f) => [f, pkg[f]]));
        out.fields[`package.json fields ${relative(top, p)}`] = JSON.stringify(kept);
      } else if (config.test(name)) {
        out.files.push(p);
        if (naming.test(name))
          for (const s of quoted(readFileSync(p, 'utf8'))) {
            const f = resolve(dir, s);
            if (f.startsWith(top + sep) && existsSync(f) && statSync(f).isFile()) out.named.push(f);
          }
      }
    }
  }
  return out;
}
