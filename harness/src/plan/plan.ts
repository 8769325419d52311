/**
 * plan, first half: profile + filters -> the benchmark points to measure (experiment x variant x
 * runtime x parameter values), with their derived values. Pure: nothing is resolved or run here;
 * plan/jobs.ts turns points into jobs once runtimes and inputs are known.
 */

import {
  type Experiment,
  jsRuntimes,
  type Manifest,
  type ParamValue,
  type Variant,
} from '../formats/manifest-format.js';
import type { Params } from '../formats/results-format.js';
import { UserError } from '../lib/errors.js';
import { evaluate } from '../lib/expr.js';
import { nodeMajors } from '../machine/toolchains.js';
import { benchmarkId } from '../model/benchmark-id.js';
import type { Profile } from '../model/profiles.js';
import { familyOf, orList, pinnedKeys, releaseKeyFormats } from '../model/runtime-families.js';
import { looksLikeRelease, parseReleaseKey, type ReleaseSpec } from '../model/runtime-release.js';
import { matchesAt } from '../model/select.js';
import { checkParamValues } from './params.js';

/** A profile's whole entry in a manifest: runs, warm-ups, timeout and its constants. */
type ProfileSettings = Manifest['profiles'][Profile];

export interface Point {
  id: string;
  experiment: Experiment;
  variant: Variant;
  params: Params;
  /** Derived values (bytes to send, counts) for this point. */
  derived: Record<string, number>;
  settings: ProfileSettings;
  /** Runtime key the variant needs: "gcc", "node@22", "bun", "deno", "just", or a system tool. */
  runtime: string;
  /** Experiments with a fit: the smaller sizes this point also runs at, smallest first (manifest fit.scales). */
  smaller: { scale: number; derived: Record<string, number> }[];
  /** Experiments with a fit: the sizes its instructions are counted at (manifest fit.countScales), smallest first. */
  countSizes?: { scale: number; derived: Record<string, number> }[];
}

export interface Filters {
  experiments?: string[];
  variants?: string[];
  /** Parameter values chosen on the command line, replacing the profile's list. */
  params?: Record<string, ParamValue[]>;
}

function requireKnown(kind: string, asked: readonly string[] | undefined, valid: readonly string[]): void {
  for (const a of asked ?? []) {
    if (!valid.includes(a))
      throw new UserError(`unknown ${kind} "${a}"; valid ${kind}s: ${[...valid].sort().join(', ')}`);
  }
}

/** Every combination of the given parameter values, in manifest order. */
export function cartesian(axes: readonly [string, readonly ParamValue[]][]): Params[] {
  let out: Params[] = [{}];
  for (const [name, values] of axes) out = out.flatMap((p) => values.map((v) => ({ ...p, [name]: v })));
  return out;
}

/** `file` names the manifest in errors: a value that cannot be computed stops the plan. */
export function deriveValues(
  m: Manifest,
  profile: Profile,
  params: Params,
  file = 'manifest.json',
  scale = 1,
): Record<string, number> {
  const scope: Record<string, number | string> = { ...m.profiles[profile].constants, ...params, scale };
  const derived: Record<string, number> = {};
  const at = Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  for (const [name, expr] of Object.entries(m.derive)) {
    let v: number;
    try {
      v = evaluate(expr, scope);
    } catch (e) {
      throw new UserError(
        `${file}: derive.${name}: ${(e as Error).message.replace(`expression "${expr}": `, '')} at ${at}`,
      );
    }
    // A NaN or an infinity would reach a command line as "count=NaN".
    if (!Number.isFinite(v))
      throw new UserError(
        `${file}: derive.${name} is not a finite number (got ${v}) at ${at}`,
        'check the parameter values (--param) against the manifest',
      );
    derived[name] = v;
    scope[name] = v;
  }
  return derived;
}

/** The runtime keys a variant's points run under: "gcc", "node@22", "bun", "deno", "just", or a system tool. */
function runtimesOf(m: Manifest, v: Variant, profile: Profile): string[] {
  if (v.runtime === 'native') return ['gcc'];
  if (v.runtime === 'system') return [v.command.trim().split(/\s+/)[0] ?? 'sh'];
  return (jsRuntimes(v) ?? []).flatMap((r) => {
    const family = familyOf(r);
    if (!family) return [r];
    return pinnedKeys(family, family.pin === 'majors' ? nodeMajors(m.runtimes[r]?.[profile] ?? ['current']) : []);
  });
}

/**
 * The value of a JavaScript point's `runtime` parameter: node@22 -> "node22", bun -> "bun"; an
 * exact release keeps its key (node@22.4.1), so it never shares a series with a pinned major.
 */
export function runtimeLabel(key: string): string {
  return parseReleaseKey(key) ? key : key.replace('@', '');
}

/**
 * The exact releases `--param runtime=` asks for (node@22.4.1, bun@1.3.11, deno@2.7.3); they are
 * runtimes of every JavaScript variant of their family, beside the manifest's own.
 */
function askedReleases(values: readonly string[] | undefined): ReleaseSpec[] {
  return (values ?? []).filter(looksLikeRelease).map((v) => {
    const spec = parseReleaseKey(v);
    if (!spec) throw new UserError(`--param runtime=${v}: not a release (expected ${orList(releaseKeyFormats())})`);
    return spec;
  });
}

function pointRuntimes(m: Manifest, v: Variant, profile: Profile, releases: readonly ReleaseSpec[]): string[] {
  const families: readonly string[] = jsRuntimes(v) ?? [];
  return [...runtimesOf(m, v, profile), ...releases.filter((r) => families.includes(r.family)).map((r) => r.key)];
}

/** Expands experiments x variants x runtimes x parameter points, without resolving runtimes. */
export function expand(experiments: readonly Experiment[], profile: Profile, filters: Filters): Point[] {
  requireKnown(
    'experiment',
    filters.experiments,
    experiments.map((e) => e.id),
  );
  const chosen = filters.experiments?.length
    ? experiments.filter((e) => filters.experiments!.includes(e.id))
    : [...experiments];
  requireKnown('variant', filters.variants, [...new Set(chosen.flatMap((e) => e.manifest.variants.map((v) => v.id)))]);
  const paramNames = [...new Set(chosen.flatMap((e) => [...Object.keys(e.manifest.parameters), 'runtime']))];
  requireKnown('parameter', Object.keys(filters.params ?? {}), paramNames);
  checkParamValues(chosen, filters.params ?? {});
  // A runtime no variant runs under would silently drop every point.
  const asked = filters.params?.runtime?.map(String);
  const releases = askedReleases(asked);
  const labels = chosen.flatMap((e) =>
    e.manifest.variants
      .filter((v) => jsRuntimes(v))
      .flatMap((v) => pointRuntimes(e.manifest, v, profile, releases).map(runtimeLabel)),
  );
  requireKnown('runtime', asked, [...new Set(labels)]);

  const points: Point[] = [];
  for (const exp of chosen) {
    const m = exp.manifest;
    const axes = Object.entries(m.parameters).map(([name, spec]): [string, ParamValue[]] => [
      name,
      filters.params?.[name] ?? spec.values[profile],
    ]);
    for (const variant of m.variants) {
      if (filters.variants?.length && !filters.variants.includes(variant.id)) continue;
      const js = jsRuntimes(variant) !== undefined;
      for (const runtime of pointRuntimes(m, variant, profile, releases)) {
        const label = runtimeLabel(runtime);
        if (js && filters.params?.runtime && !filters.params.runtime.map(String).includes(label)) continue;
        for (const base of cartesian(axes.filter(([name]) => !variant.ignores.includes(name)))) {
          // Combinations the manifest excludes, or outside the variant's own selector, do not exist.
          if (m.exclude.some((sel) => matchesAt({ params: base }, sel))) continue;
          if (variant.when && !matchesAt({ params: base }, variant.when)) continue;
          const params: Params = js ? { ...base, runtime: label } : base;
          points.push({
            id: benchmarkId(exp.id, variant.id, params),
            experiment: exp,
            variant,
            params,
            derived: deriveValues(m, profile, base, exp.manifestPath),
            settings: m.profiles[profile],
            runtime,
            smaller: [...new Set(m.fit?.scales ?? [])]
              .filter((s) => s < 1)
              .sort((a, b) => a - b)
              .map((scale) => ({ scale, derived: deriveValues(m, profile, base, exp.manifestPath, scale) })),
            ...(m.fit
              ? {
                  countSizes: [...new Set(m.fit.countScales ?? [Math.min(1, ...m.fit.scales), 1])]
                    .sort((a, b) => a - b)
                    .map((scale) => ({ scale, derived: deriveValues(m, profile, base, exp.manifestPath, scale) })),
                }
              : {}),
          });
        }
      }
    }
  }
  if (points.length === 0)
    throw new UserError('the filters select no benchmark; drop a filter or check the parameter values');
  return points;
}
