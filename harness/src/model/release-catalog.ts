/**
 * The release catalogue: what the registry publishes per runtime line, parsed from
 * `npm view PKG time --json` ({ "<version>": "<ISO date>", "created": ..., "modified": ... }),
 * filtered and ordered. Pure functions over that output (tests use a committed copy of it).
 */
import { UserError } from '../lib/errors.js';
import { compareVersions, type Family, isCanary, isVersion, lineOf, minorOf, releaseAxis } from './runtime-release.js';

export interface Release {
  family: Family;
  version: string;
  /** Per major ("node22") or the family whole ("bun"): model/runtime-families.ts. */
  line: string;
  /** When the registry published it (ISO). */
  date: string;
  canary: boolean;
}

/**
 * Releases in version order. Keys that are not versions (created, modified) and prereleases
 * (other than the canaries of a family that has them) are left out; a date that does not parse refuses the whole answer,
 * naming the key: a registry answer is data from outside.
 */
export function parseRegistryTimes(family: Family, times: unknown, source: string): Release[] {
  if (typeof times !== 'object' || times === null || Array.isArray(times))
    throw new UserError(`${source}: expected an object of version -> date`);
  const out: Release[] = [];
  const canaries = releaseAxis(family)?.canaries ?? false;
  for (const [version, date] of Object.entries(times)) {
    if (!isVersion(version)) continue;
    const canary = isCanary(version);
    if (canary && !canaries) continue;
    if (typeof date !== 'string' || !Number.isFinite(Date.parse(date)))
      throw new UserError(`${source}: "${version}": not a date (got ${JSON.stringify(date)})`);
    out.push({ family, version, line: lineOf(family, version), date: new Date(date).toISOString(), canary });
  }
  return out.sort((a, b) => compareVersions(a.version, b.version));
}

/** The oldest release a family's catalogue starts at when --since is not given. */
export function defaultSince(family: Family): string | undefined {
  return releaseAxis(family)?.defaults.since;
}

export interface CatalogFilter {
  since?: string;
  until?: string;
  /** Only releases the registry published on or after this day (YYYY-MM-DD): the nightly's "new since last night". */
  after?: string;
  lines?: readonly string[];
  canaries?: boolean;
  /** "minor": the first release of each minor (x.y.0, or the lowest patch the registry has). */
  every?: 'release' | 'minor';
}

/** The releases a filter selects, oldest first. `--lines` that match nothing are an error. */
export function selectReleases(all: readonly Release[], f: CatalogFilter): Release[] {
  const known = [...new Set(all.map((r) => r.line))];
  for (const l of f.lines ?? [])
    if (!known.includes(l)) throw new UserError(`--line ${l}: no such release line; lines: ${known.join(', ')}`);
  let out = all.filter(
    (r) =>
      (!f.since || compareVersions(r.version, f.since) >= 0) &&
      (!f.until || compareVersions(r.version, f.until) <= 0) &&
      (!f.after || r.date.slice(0, 10) >= f.after) &&
      (!f.lines?.length || f.lines.includes(r.line)) &&
      (f.canaries || !r.canary),
  );
  if (f.every === 'minor') {
    const seen = new Set<string>();
    out = out.filter((r) => {
      if (r.canary) return false;
      const key = `${r.line}|${minorOf(r.version)}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  return out;
}

/** Releases strictly between two versions of one line (the intermediate builds bisection uses). */
export function releasesBetween(all: readonly Release[], line: string, a: string, b: string): Release[] {
  return all.filter((r) => r.line === line && compareVersions(r.version, a) > 0 && compareVersions(r.version, b) < 0);
}

/** A table of releases per line with what a store already has ("measured") for this machine. */
export function catalogRows(
  releases: readonly Release[],
  measured: ReadonlySet<string>,
): { line: string; version: string; date: string; measured: boolean }[] {
  return [...releases]
    .sort((a, b) => a.line.localeCompare(b.line, 'en', { numeric: true }) || compareVersions(a.version, b.version))
    .map((r) => ({
      line: r.line,
      version: r.version,
      date: r.date.slice(0, 10),
      measured: measured.has(`${r.family}@${r.version}`),
    }));
}
