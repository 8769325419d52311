/**
 * Runtime releases as runtimes: the names `--param runtime=` accepts for an exact release
 * (node@22.4.1, bun@1.3.11, bun@1.4.2-canary.20260928.1, bun@canary-20260928, deno@2.7.3),
 * release lines and version order, for the families on the release axis (model/runtime-families.ts).
 * Pure: the registry is asked in machine/release-packages.ts.
 */
import { familyOf, type ReleaseAxis, releaseFamilies } from './runtime-families.js';

/** A family on the release axis, by its key ("node", "bun", "deno"). */
export type Family = string;

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
  return releaseFamilies().some((f) => f.key === s);
}

/** The release axis of a family (undefined for one that has none, like just). */
export function releaseAxis(family: string): ReleaseAxis | undefined {
  return isFamily(family) ? familyOf(family)?.releases : undefined;
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
  const axis = releaseAxis(family);
  if (!axis) return undefined;
  const canary = CANARY_DATE_RE.exec(rest);
  if (canary && axis.canaries) return { family, canaryDate: canary[1]!, key };
  if (!isVersion(rest) || (isCanary(rest) && !axis.canaries)) return undefined;
  return { family, version: rest, key };
}

/** Whether a `--param runtime=` value asks for an exact release (so it is not a pinned label). */
export function looksLikeRelease(value: string): boolean {
  const at = value.indexOf('@');
  if (at < 0 || !isFamily(value.slice(0, at))) return false;
  // node@22 is a pinned major, not a release.
  return !(familyOf(value)?.pin === 'majors' && /^\d+$/.test(value.slice(at + 1)));
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

/** A family's release line: one per major (node22), or the family whole (bun). */
export function lineOf(family: Family, version: string): string {
  return releaseAxis(family)?.line === 'per-major' ? `${family}${parse(version)[0]}` : family;
}

/** The minor a version belongs to: "22.4" of 22.4.1. */
export function minorOf(version: string): string {
  const [major, minor] = parse(version);
  return `${major}.${minor}`;
}
