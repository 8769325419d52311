/**
 * What one program reaches inside its checkout: for JavaScript, esbuild's import graph, widened by
 * the loads and literal paths its syntax trees name (./load-scan.ts); for C, what gcc itself reads
 * for the build as the build runs it (same compiler, the same folder, every flag when all are on
 * ./gcc-flags.ts's allow-list, else nothing run and the reach unknown: `-M`
 * lists every header, `-include`d ones and those `-O` or `-D` select); for both, the files the
 * manifest entry's words name. A load that cannot be followed makes the reach unknown, with the
 * reason. Files outside the checkout are the toolchain's (system headers, the runtime's library).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { runSync } from '../../lib/exec.js';
import { type ImportGraph, importGraph } from '../import-graph.js';
import { isPackageImport, packageName } from '../package-pins.js';
import { gccScanFlags } from './gcc-flags.js';
import { scanCLiterals, scanJavaScript } from './load-scan.js';
import { candidatePaths, INCLUDE_DIR_FLAG } from './named-files.js';
import { filesUnder } from './runtime-files.js';

export interface Reach {
  /** Absolute paths of checkout files the program runs or reads. */
  files: Set<string>;
  /** Packages imported, each with the checkout folder it is imported from (for the lockfile's resolution). */
  packages: { name: string; fromDir: string }[];
  /** Why what it reaches cannot be known: set, the identity is unknown. */
  unknown?: string;
}

export const emptyReach = (): Reach => ({ files: new Set(), packages: [] });

const JS_FILE = /\.(m|c)?[jt]s$/;
export const isJavaScript = (file: string) => JS_FILE.test(file);

const inside = (root: string, p: string) => p.startsWith(resolve(root) + sep);
const isFile = (p: string) => existsSync(p) && statSync(p).isFile();

/** Adds a literal path if it names a checkout file from any of the folders it may resolve against. */
function addLiteral(reach: Reach, root: string, spec: string, folders: readonly string[]): string | undefined {
  for (const dir of folders) {
    const p = resolve(dir, spec);
    if (inside(root, p) && isFile(p)) {
      reach.files.add(p);
      return p;
    }
  }
  return undefined;
}

/** A JavaScript program (or generator, or build config): its graph, then what its syntax names, to a fixed point. */
export function javascriptReach(file: string, root: string, cwd: string): Reach {
  const reach = emptyReach();
  const entries = new Set([resolve(file)]);
  const scanned = new Set<string>();
  for (let added = true; added; ) {
    added = false;
    let graph: ImportGraph;
    try {
      graph = importGraph(root, [...entries]);
    } catch (e) {
      const first = (e as { errors?: { text: string }[] }).errors?.[0]?.text ?? (e as Error).message;
      return { ...reach, unknown: `its imports cannot be followed from ${relative(root, file)}: ${first}` };
    }
    for (const [path, input] of Object.entries(graph.inputs)) {
      const abs = resolve(root, path);
      if (!inside(root, abs)) continue;
      reach.files.add(abs);
      const fromDir = relative(root, dirname(abs)).split(sep).join('/');
      for (const i of input.imports) {
        if (!i.external) continue;
        if (isPackageImport(i.path)) reach.packages.push({ name: packageName(i.path), fromDir });
        // Fetched by the runtime when it runs, pinned by nothing this checkout's lockfile holds.
        else if (/^(npm|jsr|https?|file):/.test(i.path))
          return { ...reach, unknown: `${relative(root, abs)} imports ${i.path}, which the runtime fetches itself` };
      }
      if (scanned.has(abs)) continue;
      scanned.add(abs);
      let scan: ReturnType<typeof scanJavaScript>;
      try {
        scan = scanJavaScript(readFileSync(abs, 'utf8'), relative(root, abs));
      } catch (e) {
        return { ...reach, unknown: `${relative(root, abs)} cannot be parsed: ${(e as Error).message}` };
      }
      if (scan.unfollowable.length)
        return { ...reach, unknown: `it loads code the import graph cannot follow: ${scan.unfollowable[0]}` };
      for (const load of scan.loads) {
        const p = addLiteral(reach, root, load.spec, load.from === 'cwd' ? [cwd] : [dirname(abs)]);
        if (p && isJavaScript(p) && !entries.has(p)) {
          entries.add(p);
          added = true;
        }
      }
      for (const s of scan.literals) addLiteral(reach, root, s, [dirname(abs), cwd]);
    }
  }
  return reach;
}

/** Sources among a build's libraries (an extra .c compiled in): scanned with the program. */
const C_SOURCE = /\.(c|cc|cpp|cxx|s|S)$/;

/**
 * A C program built by `compiler flags -o out source libs` in `cwd`: every file gcc reads for it
 * (`-M` with the build's own flags, when the allow-list passes them all), the string literals of those inside the checkout, and the
 * files its flags and libraries name.
 */
export function cReach(
  source: string,
  build: { compiler: string; flags: readonly string[]; libs: readonly string[]; cwd: string },
  root: string,
): Reach {
  const reach = emptyReach();
  const extra = build.libs.filter((l) => C_SOURCE.test(l)).map((l) => resolve(build.cwd, l));
  const scan = gccScanFlags(build.flags);
  if (!scan.ok)
    return {
      ...reach,
      unknown: `its build flag ${JSON.stringify(scan.flag.slice(0, 80))} is not one the plan passes to gcc (only flags that change what is compiled): not scanned`,
    };
  const r = runSync([build.compiler, ...scan.argv, '-M', source, ...extra.filter(isFile)], {
    cwd: build.cwd,
  });
  if (r.code !== 0)
    return {
      ...reach,
      unknown: `${build.compiler} -M cannot list what ${relative(root, source)} reads: ${r.stderr.trim().split('\n')[0] ?? ''}`,
    };
  const deps = r.stdout
    .replace(/\\\n/g, ' ')
    .split('\n')
    .flatMap((rule) => rule.replace(/^[^:]*:/, '').split(/\s+/))
    .filter(Boolean);
  for (const dep of [source, ...deps]) {
    const abs = resolve(build.cwd, dep);
    if (!inside(root, abs)) continue;
    if (!isFile(abs)) return { ...reach, unknown: `${relative(root, source)} reads ${dep}, which does not exist` };
    reach.files.add(abs);
    for (const s of scanCLiterals(readFileSync(abs, 'utf8'))) addLiteral(reach, root, s, [dirname(abs), build.cwd]);
  }
  const named = addNamed(reach, root, [...build.flags, ...build.libs], build.cwd, INCLUDE_DIR_FLAG);
  return named ?? reach;
}

/**
 * Adds the checkout files that `tokens` name, resolved against `cwd`: a file counts; a folder
 * counts with every file in it unless it is the checkout, one of the folders `cwd` sits in (all
 * of those are counted already, or too wide to mean anything) or one a `skip` flag gives (gcc's
 * include folders, whose used headers -M lists). A named JavaScript file is followed. Returns a
 * reach with `unknown` when a named folder is too large to read.
 */
export function addNamed(
  reach: Reach,
  root: string,
  tokens: readonly string[],
  cwd: string,
  skip?: RegExp,
): Reach | undefined {
  const kept = skip ? tokens.filter((t) => !skip.test(t)) : tokens;
  for (const p of candidatePaths(kept, cwd)) {
    if (!inside(root, p) || !existsSync(p)) continue;
    if (statSync(p).isFile()) {
      reach.files.add(p);
      if (isJavaScript(p)) {
        const more = javascriptReach(p, root, cwd);
        for (const f of more.files) reach.files.add(f);
        reach.packages.push(...more.packages);
        if (more.unknown) return { ...reach, unknown: more.unknown };
      }
      continue;
    }
    const here = resolve(cwd);
    if (!statSync(p).isDirectory() || here === p || here.startsWith(p + sep)) continue;
    try {
      for (const f of filesUnder(p)) reach.files.add(f);
    } catch (e) {
      return { ...reach, unknown: `it names the folder ${relative(root, p)}: ${(e as Error).message}` };
    }
  }
  return undefined;
}
