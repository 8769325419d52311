/**
 * The npm registry's side of runtime releases: what it publishes (`npm view PKG time --json`,
 * parsed by model/release-catalog.ts) and the exact package a release key installs from. A
 * version the registry does not have is the user's error (one line, exit 2); a registry that
 * cannot be reached is the machine's (the points are skipped with the reason, as for any
 * missing runtime).
 */
import { UserError } from '../lib/errors.js';
import { runProcess } from '../lib/exec.js';
import { parseRegistryTimes, type Release } from '../model/release-catalog.js';
import { familyOf, type NpmSource } from '../model/runtime-families.js';
import { type Family, isCanary, type ReleaseSpec } from '../model/runtime-release.js';

export interface ReleasePackage {
  pkg: string;
  version: string;
  /** Path of the executable inside the unpacked tarball. */
  bin: string;
}

/** Thrown when the registry could not be asked (network, npm): not the user's error. */
export class RegistryUnavailable extends Error {}

async function npmView(args: string[]): Promise<unknown> {
  const r = await runProcess(['npm', 'view', ...args, '--json'], { timeoutMs: 120_000 });
  let parsed: unknown;
  try {
    parsed = r.stdout.trim() ? JSON.parse(r.stdout) : undefined;
  } catch {
    parsed = undefined;
  }
  const code = (parsed as { error?: { code?: string } } | undefined)?.error?.code;
  if (code === 'E404') return undefined;
  if (r.code !== 0 || parsed === undefined)
    throw new RegistryUnavailable(
      `npm view ${args.join(' ')} failed: ${(r.stderr.trim().split('\n').at(-1) ?? '').slice(0, 200)}`,
    );
  return parsed;
}

/** The npm package a family is published as (model/runtime-families.ts). */
function packageOf(family: Family): NpmSource {
  const source = familyOf(family)?.source;
  if (source?.kind !== 'npm') throw new Error(`runtime family ${family} is not published on the npm registry`);
  return source;
}

/** Every release of a family the registry publishes, with its publish date. */
export async function registryReleases(family: Family): Promise<Release[]> {
  const { pkg } = packageOf(family);
  const times = await npmView([pkg, 'time']);
  if (times === undefined) throw new RegistryUnavailable(`the registry has no package ${pkg}`);
  return parseRegistryTimes(family, times, `npm view ${pkg} time`);
}

/**
 * The package a release key installs from. `cached` says whether a version is already unpacked
 * locally: then the registry is not asked (a cached runtime keeps working offline).
 */
export async function releasePackage(
  spec: ReleaseSpec,
  cached: (pkg: string, version: string, bin: string) => boolean,
): Promise<ReleasePackage> {
  const { pkg, bin } = packageOf(spec.family);
  let version = spec.version;
  if (spec.canaryDate) {
    const day = spec.canaryDate;
    const all = await registryReleases(spec.family);
    const found = all.filter((r) => isCanary(r.version) && r.version.includes(`-canary.${day}.`)).at(-1);
    if (!found)
      throw new UserError(
        `--param runtime=${spec.key}: the npm registry has no ${pkg} canary of ${day}`,
        `list the canaries with: npm run releases -- list --runtime bun --canaries`,
      );
    version = found.version;
  }
  if (!version) throw new Error(`release key ${spec.key} has no version`);
  if (!cached(pkg, version, bin)) {
    const seen = await npmView([`${pkg}@${version}`, 'version']);
    if (seen !== version)
      throw new UserError(
        `--param runtime=${spec.key}: the npm registry has no ${pkg}@${version}`,
        `list the releases with: npm run releases -- list --runtime ${spec.family}`,
      );
  }
  return { pkg, version, bin };
}
