/** What the release-selection flags (releases-options.ts) of npm run releases list, measure and nightly choose from the catalogue. */
import { readFileSync } from 'node:fs';
import { UserError } from '../../lib/errors.js';
import { registryReleases } from '../../machine/release-packages.js';
import {
  type CatalogFilter,
  defaultSince,
  parseRegistryTimes,
  type Release,
  selectReleases,
} from '../../model/release-catalog.js';
import { lineExamples, releaseFamilies } from '../../model/runtime-families.js';
import { type Family, isFamily, isVersion } from '../../model/runtime-release.js';
import { list } from '../args.js';

export type SelectionValues = {
  runtime?: string;
  since?: string;
  until?: string;
  after?: string;
  line?: string;
  every?: string;
  canaries?: boolean;
  'registry-json'?: string[];
  profile?: string;
};

function families(flag: string | undefined): Family[] {
  const all = releaseFamilies().map((f) => f.key);
  const asked = list(flag) ?? all;
  for (const f of asked)
    if (!isFamily(f)) throw new UserError(`--runtime ${f}: unknown runtime; runtimes: ${all.join(', ')}`);
  return asked;
}

/** --registry-json FAMILY=FILE: saved registry answers by family. */
function savedAnswers(flags: readonly string[]): Map<string, string> {
  const saved = new Map<string, string>();
  for (const f of flags) {
    const eq = f.indexOf('=');
    const family = f.slice(0, eq);
    if (eq < 0 || !isFamily(family) || eq === f.length - 1)
      throw new UserError(
        `--registry-json ${f}: expected FAMILY=FILE (e.g. ${releaseFamilies()[0]?.key}=${releaseFamilies()[0]?.key}-time.json)`,
      );
    saved.set(family, f.slice(eq + 1));
  }
  return saved;
}

function versionFlag(flag: string, v: string | undefined): string | undefined {
  if (v !== undefined && !isVersion(v)) throw new UserError(`${flag} ${v}: expected a version X.Y.Z`);
  return v;
}

function dayFlag(v: string | undefined): string | undefined {
  if (v !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw new UserError(`--after ${v}: expected a day YYYY-MM-DD`);
  return v;
}

/** The releases the selection flags choose, from the registry (or saved answers), oldest first. */
export async function selectFromFlags(v: SelectionValues): Promise<Release[]> {
  // A line names its runtime (node20 is node's): --runtime may be left out.
  const lineFamilies = list(v.line)?.map((l) => releaseFamilies().find((f) => l.startsWith(f.key))?.key);
  const fams = families(v.runtime ?? (lineFamilies?.every(Boolean) ? [...new Set(lineFamilies)].join(',') : undefined));
  if ((v.since || v.until) && fams.length !== 1)
    throw new UserError('--since and --until need one --runtime (versions of different runtimes do not compare)');
  if (v.every !== 'minor' && v.every !== 'release')
    throw new UserError(`--every ${v.every}: expected minor or release`);
  const saved = savedAnswers(v['registry-json'] ?? []);
  const all: Release[] = [];
  for (const fam of fams) {
    const file = saved.get(fam);
    let text: unknown;
    if (file) {
      try {
        text = JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        throw new UserError(`--registry-json ${fam}=${file}: ${(e as Error).message}`);
      }
    }
    all.push(...(file ? parseRegistryTimes(fam, text, file) : await registryReleases(fam)));
  }
  const filter: CatalogFilter = {
    since: versionFlag('--since', v.since) ?? (fams.length === 1 ? defaultSince(fams[0]!) : undefined),
    ...(versionFlag('--until', v.until) ? { until: v.until } : {}),
    ...(dayFlag(v.after) ? { after: v.after } : {}),
    ...(list(v.line) ? { lines: list(v.line)! } : {}),
    canaries: v.canaries ?? false,
    every: v.every,
  };
  // With several runtimes, each starts at its own default.
  for (const l of filter.lines ?? [])
    if (!fams.some((f) => l.startsWith(f)))
      throw new UserError(
        `--line ${l}: not a line of ${fams.join(', ')} (lines: ${releaseFamilies()
          .flatMap((f) => lineExamples(f, 2))
          .join(', ')})`,
      );
  if (fams.length > 1)
    return fams.flatMap((f) =>
      filter.lines && !filter.lines.some((l) => l.startsWith(f))
        ? []
        : selectReleases(
            all.filter((r) => r.family === f),
            {
              ...filter,
              since: defaultSince(f),
              ...(filter.lines ? { lines: filter.lines.filter((l) => l.startsWith(f)) } : {}),
            },
          ),
    );
  return selectReleases(all, filter);
}
