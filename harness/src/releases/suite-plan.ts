/**
 * What measuring a release means, from the manifests' release suites (manifest `releases`): the
 * bench filters that select one experiment's suite under one release, which experiments a family
 * takes part in, and the suite values a run yields. Pure.
 */

import { medianInterval } from '../analysis/median-interval.js';
import type { CountedRun } from '../counts/count-rule.js';
import { type Experiment, jsRuntimes, type ParamValue } from '../formats/manifest-format.js';
import type { CounterPoint, SuiteValue, WorkPoint } from '../formats/release-store-format.js';
import type { Metric, Results } from '../formats/results-format.js';
import { COUNT_METRICS, HARNESS_METRICS, SYSCALL_PREFIX } from '../model/metrics.js';
import type { Release } from '../model/release-catalog.js';
import { compareVersions, type Family } from '../model/runtime-release.js';
import { RUNTIME_PARAM } from '../model/select.js';
import type { Filters } from '../plan/plan.js';

/** A traced run's syscall counts (run/parse-strace.ts's shape, restated: plan does not import run). */
export interface TracedCounts {
  calls: Readonly<Record<string, number>>;
  total: number;
}

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

/** bench's timed runs for one experiment's suite: the suite's `runs`, and `referenceRuns` for its reference variants. */
export function suiteRuns(e: SuiteExperiment): { runs?: number; variantRuns?: Record<string, number> } {
  const s = e.manifest.releases;
  return {
    ...(s.runs ? { runs: s.runs } : {}),
    ...(s.referenceRuns && s.reference.length
      ? { variantRuns: Object.fromEntries(s.reference.map((v) => [v, s.referenceRuns!])) }
      : {}),
  };
}

/**
 * A release's value of one metric, with its 95% interval. A fitted metric with an interval keeps
 * its line's value and that interval. Any other sampled one (a fit's intercept too) is the median
 * of its per-run samples (for a percentile, each run's own percentile) with the median's
 * distribution-free interval: a percentile pooled over a few runs jumps whenever one run is unlike
 * the others, the median of the runs does not. A counter is its count, without an interval.
 */
export function steadyValue(m: Pick<Metric, 'value' | 'samples' | 'fit'>): {
  value: number;
  interval?: [number, number];
} {
  if (m.fit?.ci) return { value: m.value, interval: m.fit.ci };
  const samples = (m.samples ?? []).filter(Number.isFinite).sort((a, b) => a - b);
  const ci = medianInterval(samples);
  if (!ci) return { value: m.value };
  const mid = samples.length >> 1;
  const median = samples.length % 2 ? samples[mid]! : (samples[mid - 1]! + samples[mid]!) / 2;
  return { value: median, interval: [ci.low, ci.high] };
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
        ...steadyValue(m),
        reference: s.reference.includes(b.variant),
      });
    }
  }
  return { values, problems };
}

/**
 * The deterministic counters of every ok benchmark of a run, one count per traced run: the
 * traces bench made (`traces`, by benchmark id), else the one the results hold. strace lists
 * only the calls made, so a call absent from one trace was made 0 times in it. Max RSS is not
 * among them: it varies from run to run.
 */
export function suiteCounters(
  e: SuiteExperiment,
  results: Results,
  traces: ReadonlyMap<string, readonly TracedCounts[]>,
): CounterPoint[] {
  const out: CounterPoint[] = [];
  for (const b of results.benchmarks) {
    if (b.experiment !== e.id || b.status !== 'ok') continue;
    const runs = traces.get(b.id) ?? fromResults(b.metrics);
    if (!runs.length) continue;
    const names = [...new Set(runs.flatMap((t) => Object.keys(t.calls)))].sort();
    const counts: Record<string, number[]> = {};
    for (const n of names) counts[`${SYSCALL_PREFIX}${n}`] = runs.map((t) => t.calls[n] ?? 0);
    counts[`${SYSCALL_PREFIX}total`] = runs.map((t) => t.total);
    const { [RUNTIME_PARAM]: _runtime, ...params } = b.params;
    out.push({
      experiment: e.id,
      variant: b.variant,
      params,
      reference: e.manifest.releases.reference.includes(b.variant),
      counts,
    });
  }
  return out;
}

/**
 * The counted work of every ok benchmark of a run that was counted: its counted runs (`counted`,
 * by benchmark id, as bench handed them back) with the settings and role they were counted under,
 * or why it could not be counted; and its `instructions` metrics as suite values, so the work has
 * a value per release like any metric of the suite (a count has no interval).
 */
export function suiteWork(
  e: SuiteExperiment,
  results: Results,
  counted: ReadonlyMap<string, readonly CountedRun[]>,
): { work: WorkPoint[]; values: SuiteValue[] } {
  const work: WorkPoint[] = [];
  const values: SuiteValue[] = [];
  for (const b of results.benchmarks) {
    if (b.experiment !== e.id || b.status !== 'ok' || !b.counts) continue;
    const { [RUNTIME_PARAM]: _runtime, ...params } = b.params;
    const point = {
      experiment: e.id,
      variant: b.variant,
      params,
      reference: e.manifest.releases.reference.includes(b.variant),
    };
    const runs = counted.get(b.id) ?? [];
    if (b.counts.status === 'unavailable' || !runs.length) {
      const reason = b.counts.status === 'unavailable' ? b.counts.reason : 'its counted runs were not handed back';
      work.push({ ...point, counts: { status: 'unavailable', reason: reason.slice(0, 1000) } });
      continue;
    }
    const { settings, because } = b.counts;
    // Evidence only between different program code: one program under two releases may decide.
    const role = b.counts.evidenceFor === 'code-changes' ? 'decides' : b.counts.role;
    work.push({
      ...point,
      counts: {
        status: 'ok',
        settings,
        role,
        ...(role === 'evidence' && because ? { because } : {}),
        runs: runs.map((r) => ({ ...r })),
      },
    });
    for (const metric of COUNT_METRICS) {
      const m = b.metrics[metric];
      if (m)
        values.push({ ...point, metric, unit: m.unit, direction: HARNESS_METRICS[metric].direction, value: m.value });
    }
  }
  return { work, values };
}

/** The one trace a results file holds, as its syscalls.* counters (none when not traced). */
function fromResults(metrics: Results['benchmarks'][number]['metrics']): TracedCounts[] {
  const total = metrics[`${SYSCALL_PREFIX}total`]?.value;
  if (total === undefined) return [];
  const calls: Record<string, number> = {};
  for (const [k, m] of Object.entries(metrics))
    if (k.startsWith(SYSCALL_PREFIX) && k !== `${SYSCALL_PREFIX}total`) calls[k.slice(SYSCALL_PREFIX.length)] = m.value;
  return [{ calls, total }];
}

/** The releases still to measure, newest first (by publish date, then version): a sweep is resumable. */
export function sweepOrder(releases: readonly Release[], measured: ReadonlySet<string>): Release[] {
  return releases
    .filter((r) => !measured.has(`${r.family}@${r.version}`))
    .sort((a, b) => Date.parse(b.date) - Date.parse(a.date) || -compareVersions(a.version, b.version));
}
