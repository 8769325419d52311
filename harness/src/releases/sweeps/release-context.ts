/**
 * What a release's own package says about it: the date its project gives it (Node's
 * CHANGELOG.md heading) and the notes between two releases. The packages are the ones the
 * sweep unpacked into the runtimes cache; notes for a release not cached here install it first
 * (the nightly may start from a store measured elsewhere). Families whose package ships no
 * changelog (model/runtime-families.ts) get the registry's date, labelled as such, and a note
 * saying why there are no notes.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DateSource, ReleaseEntry, ReleaseNotes } from '../../formats/release-store-format.js';
import { npmPackageDir, resolveRuntime } from '../../machine/toolchains.js';
import { familyOf, releaseFamilies } from '../../model/runtime-families.js';
import { compareVersions } from '../../model/runtime-release.js';
import { changelogDates, notesBetween } from '../judge/changelog.js';

/** A changelog larger than this is not read (Node's are a few hundred KB). */
const CHANGELOG_MAX_BYTES = 8 * 1024 * 1024;

function axisOf(family: string) {
  return releaseFamilies().find((f) => f.key === family);
}

/** The changelog text a cached release ships, or undefined (no changelog, not cached, too large). */
function cachedChangelog(runtimesDir: string, family: string, version: string): string | undefined {
  const f = axisOf(family);
  if (!f?.releases.changelog) return undefined;
  const file = join(npmPackageDir(runtimesDir, f.source.pkg, version), f.releases.changelog.path);
  if (!existsSync(file) || statSync(file).size > CHANGELOG_MAX_BYTES) return undefined;
  return readFileSync(file, 'utf8');
}

/** The date a release's own changelog gives it, when its cached package has one. */
export function upstreamDate(runtimesDir: string, family: string, version: string): string | undefined {
  const text = cachedChangelog(runtimesDir, family, version);
  const heading = axisOf(family)?.releases.changelog?.heading;
  return text && heading ? changelogDates(text, heading).get(version) : undefined;
}

export interface DatedRelease {
  date: string;
  source: DateSource;
}

/**
 * Each release's date (by family@version): its entry's upstream date, else one from the newest
 * cached changelog of its line (a Node changelog lists every earlier release of its major), else
 * the registry's publish date.
 */
export function releaseDates(entries: readonly ReleaseEntry[], runtimesDir: string): Map<string, DatedRelease> {
  const fromLine = new Map<string, Map<string, string>>();
  const lineDates = (e: ReleaseEntry) => {
    if (!fromLine.has(e.line)) {
      const heading = axisOf(e.family)?.releases.changelog?.heading;
      const newest = entries
        .filter((x) => x.line === e.line)
        .sort((a, b) => -compareVersions(a.version, b.version))
        .map((x) => cachedChangelog(runtimesDir, x.family, x.version))
        .find((t) => t !== undefined);
      fromLine.set(e.line, newest && heading ? changelogDates(newest, heading) : new Map());
    }
    return fromLine.get(e.line)!;
  };
  const out = new Map<string, DatedRelease>();
  for (const e of entries) {
    const upstream = e.released ?? lineDates(e).get(e.version);
    out.set(
      `${e.family}@${e.version}`,
      upstream ? { date: upstream, source: 'changelog' } : { date: e.date, source: 'registry' },
    );
  }
  return out;
}

/** The notes between two releases of a family, from the later one's changelog (installed if needed). */
export async function releaseNotes(
  family: string,
  range: { from: string; to: string },
  subjects: readonly string[],
  runtimesDir: string,
  log: (m: string) => void,
): Promise<ReleaseNotes> {
  const f = axisOf(family);
  const pkg = f?.source.pkg ?? familyOf(family)?.name ?? family;
  const changelog = f?.releases.changelog;
  if (!changelog) return { source: `${pkg}'s package ships no changelog`, entries: [], more: 0 };
  let text = cachedChangelog(runtimesDir, family, range.to);
  if (text === undefined) {
    const got = await resolveRuntime(`${family}@${range.to}`, {}, runtimesDir, log);
    text = got.ok ? cachedChangelog(runtimesDir, family, range.to) : undefined;
    if (text === undefined)
      return {
        source: `no changelog read: ${pkg}@${range.to} ${got.ok ? `has no ${changelog.path}` : `is not installed (${got.reason})`}`,
        entries: [],
        more: 0,
      };
  }
  return notesBetween(
    text,
    changelog.heading,
    range,
    subjects,
    `${changelog.path.replace(/^package\//, '')} of ${pkg}@${range.to}`,
  );
}
