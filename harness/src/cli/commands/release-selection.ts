/** What the release-selection flags (releases-options.ts) of npm run releases list, measure and nightly choose from the catalogue. */
import { readFileSync } from 'node:fs';
import { UserError } from '../../lib/errors.js';
import { registryReleases } from '../../machine/release-packages.js';
import {
  type CatalogFilter,
  DEFAULT_SINCE,
  parseRegistryTimes,
  type Release,
  selectReleases,
} from '../../model/release-catalog.js';
import { FAMILIES, type Family, isFamily, isVersion } from '../../model/runtime-release.js';
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
  const asked = list(flag) ?? [...FAMILIES];
  for (const f of asked)
    if (!isFamily(f)) throw new UserError(`--runtime ${f}: unknown runtime; runtimes: ${FAMILIES.join(', ')}`);
  return asked as Family[];
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
  const fams = families(v.runtime);
  if ((v.since || v.until) && fams.length !== 1)
    throw new UserError('--since and --until need one --runtime (versions of different runtimes do not compare)');
  if (v.every !== 'minor' && v.every !== 'release')
    throw new UserError(`--every ${v.every}: expected minor or release`);
  const saved = new Map<string, string>();
  for (const f of v['registry-json'] ?? []) {
    const m = /^(node|bun|deno)=(.+)$/.exec(f);
    if (!m) throw new UserError(`--registry-json ${f}: expected FAMILY=FILE (e.g. node=node-time.json)`);
    saved.set(m[1]!, m[2]!);
  }
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
    since: versionFlag('--since', v.since) ?? (fams.length === 1 ? DEFAULT_SINCE[fams[0]!] : undefined),
    ...(versionFlag('--until', v.until) ? { until: v.until } : {}),
    ...(dayFlag(v.after) ? { after: v.after } : {}),
    ...(list(v.line) ? { lines: list(v.line)! } : {}),
    canaries: v.canaries ?? false,
    every: v.every,
  };
  // With several runtimes, each starts at its own default.
  for (const l of filter.lines ?? [])
    if (!fams.some((f) => l.startsWith(f)))
      throw new UserError(`--line ${l}: not a line of ${fams.join(', ')} (lines: node20, node22, ..., bun, deno)`);
  if (fams.length > 1)
    return fams.flatMap((f) =>
      filter.lines && !filter.lines.some((l) => l.startsWith(f))
        ? []
        : selectReleases(
            all.filter((r) => r.family === f),
            {
              ...filter,
              since: DEFAULT_SINCE[f],
              ...(filter.lines ? { lines: filter.lines.filter((l) => l.startsWith(f)) } : {}),
            },
          ),
    );
  return selectReleases(all, filter);
}
