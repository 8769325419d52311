/**
 * What measuring a release means, from the manifests' release suites (manifest `releases`): the
 * bench filters that select one experiment's suite under one release, which experiments a family
 * takes part in, and the suite values a run yields. Pure.
 */

import { type Experiment, jsRuntimes, type ParamValue } from '../../model/manifest.js';
import type { Release } from '../../model/release-catalog.js';
import type { Results } from '../../model/results.js';
import { compareVersions, type Family } from '../../model/runtime-release.js';
import { RUNTIME_PARAM } from '../../model/select.js';
import type { Filters } from '../../plan/plan.js';
import type { SuiteValue } from '../model/release-store.js';

export type SuiteExperiment = Experiment & { manifest: { releases: NonNullable<Experiment['manifest']['releases']> } };

export function hasSuite(e: Experiment): e is SuiteExperiment {
  return e.manifest.releases !== undefined;
}

/** Whether any of an experiment's suite variants runs under a family (scan has no Bun variant). */
export function takesPart(e: SuiteExperiment, family: Family): boolean {
  return e.manifest.releases.variants.some((id) =>
    (jsRuntimes(e.manifest.variants.find((v) => v.id === id) ?? { runtime: 'native' }) ?? []).includes(family),
  );
}

/** bench's filters for one experiment's suite under one release key (node@22.4.1). */
export function suiteFilters(e: SuiteExperiment, key: string): Filters {
  const s = e.manifest.releases;
  const params: Record<string, ParamValue[]> = {};
  for (const [k, v] of Object.entries(s.at)) params[k] = Array.isArray(v) ? v : [v];
  params[RUNTIME_PARAM] = [key];
  return { experiments: [e.id], variants: [...s.variants, ...s.reference], params };
}

/** The suite's metrics of every ok benchmark of a run; the rest named as problems. */
export function suiteValues(e: SuiteExperiment, results: Results): { values: SuiteValue[]; problems: string[] } {
  const s = e.manifest.releases;
  const values: SuiteValue[] = [];
  const problems: string[] = [];
  for (const b of results.benchmarks) {
    if (b.experiment !== e.id) continue;
    if (b.status !== 'ok') {
      problems.push(`${b.id}: ${b.status}${b.reason ? `: ${b.reason}` : ''}`);
      continue;
    }
    const { [RUNTIME_PARAM]: _runtime, ...params } = b.params;
    for (const metric of s.metrics) {
      const m = b.metrics[metric];
      if (!m) continue;
      values.push({
        experiment: e.id,
        variant: b.variant,
        params,
        metric,
        unit: m.unit,
        direction: m.direction,
        value: m.value,
        reference: s.reference.includes(b.variant),
      });
    }
  }
  return { values, problems };
}

/** The releases still to measure, newest first (by publish date, then version): a sweep is resumable. */
export function sweepOrder(releases: readonly Release[], measured: ReadonlySet<string>): Release[] {
  return releases
    .filter((r) => !measured.has(`${r.family}@${r.version}`))
    .sort((a, b) => Date.parse(b.date) - Date.parse(a.date) || -compareVersions(a.version, b.version));
}
