/**
 * compare: a quick look between stored runs (`npm run compare`, and the site's run-to-run view):
 * base vs head results (several files per side = runs of the same build, merged per benchmark by
 * pooling samples) -> a Comparison. Runs measured at different times share no pairs, so this is
 * never the paired diff (that is `npm run pairs`). Verdicts come from analysis/two-sample.ts only.
 */
import { isBusy } from '../analysis/busy.js';
import { ALPHA, BOOTSTRAP_ITERATIONS, compareSamples, MIN_EFFECT, median } from '../analysis/two-sample.js';
import { COMPARISON_SCHEMA } from '../formats/comparison-format.js';
import type { NoiseThresholds } from '../formats/noise-format.js';
import { hashScheme } from '../formats/parts/store-layout.js';
import type { ComparedMetric, Comparison, CounterChange } from '../formats/quick-look-format.js';
import type { Benchmark, Results } from '../formats/results-format.js';
import { UserError } from '../lib/errors.js';
import { harnessMetric } from '../model/metrics.js';
import { workloadChange } from './workload-change.js';

export type { NoiseThresholds };

interface Merged {
  b: Benchmark;
  samples: Record<string, number[]>;
  /** One value per ok round, per counter. */
  counters: Record<string, { values: number[]; unit: string }>;
  definitions: Set<string>;
}

/**
 * Sampled metrics worth a verdict: derived ones (throughput from time) and a second measure of a
 * quantity the catalogue measures by another metric would double-count.
 */
function comparable(name: string, m: Benchmark['metrics'][string]): boolean {
  return Boolean(m.samples?.length) && m.source !== 'derived' && !harnessMetric(name)?.sameQuantityAs;
}

/**
 * strace lists only the syscalls a program made: in a round that counted syscalls, one that
 * is missing was called zero times (so a syscall that appears only in head is a change).
 */
function zeroFillSyscalls(rounds: readonly Benchmark[]): Record<string, number>[] {
  const names = new Set(rounds.flatMap((b) => Object.keys(b.metrics).filter((n) => harnessMetric(n)?.zeroWhenAbsent)));
  return rounds.map((b) =>
    b.metrics['syscalls.total'] ? Object.fromEntries([...names].map((n) => [n, b.metrics[n]?.value ?? 0])) : {},
  );
}

/** Runs merged by benchmark id: the measured ones, and those skipped or failed. */
type MergedRuns = { ok: Map<string, Merged>; other: Map<string, Benchmark> };

/**
 * Merges the rounds of one side. A benchmark is compared only when every round that has it
 * measured it; one that failed or was skipped in any round is reported with its reason, and
 * with how many rounds it concerns when other rounds were fine (a flaky failure is news).
 */
function merge(runs: readonly Results[]): MergedRuns {
  const byId = new Map<string, Benchmark[]>();
  for (const r of runs) for (const b of r.benchmarks) byId.set(b.id, [...(byId.get(b.id) ?? []), b]);
  const ok = new Map<string, Merged>();
  const other = new Map<string, Benchmark>();
  for (const [id, seen] of byId) {
    const bad = seen.filter((b) => b.status !== 'ok');
    if (bad.length) {
      const first = bad.find((b) => b.status === 'failed') ?? bad[0]!;
      const reason = first.reason ?? '';
      other.set(
        id,
        bad.length < seen.length ? { ...first, reason: `in ${bad.length} of ${seen.length} rounds: ${reason}` } : first,
      );
      continue;
    }
    const m: Merged = { b: seen[0]!, samples: {}, counters: {}, definitions: new Set<string>() };
    const syscalls = zeroFillSyscalls(seen);
    seen.forEach((b, round) => {
      if (b.definition) m.definitions.add(b.definition);
      const values: Record<string, { value: number; unit: string }> = {};
      for (const [name, metric] of Object.entries(b.metrics)) {
        if (comparable(name, metric)) (m.samples[name] ??= []).push(...(metric.samples ?? []));
        else if (metric.deterministic) values[name] = { value: metric.value, unit: metric.unit };
      }
      for (const [name, value] of Object.entries(syscalls[round]!)) values[name] ??= { value, unit: 'calls' };
      for (const [name, v] of Object.entries(values))
        (m.counters[name] ??= { values: [], unit: v.unit }).values.push(v.value);
    });
    ok.set(id, m);
  }
  return { ok, other };
}

/** A side's values of a counter; a syscall it never made counts zero where syscalls were counted. */
function counterValues(m: Merged, name: string): { values: number[]; unit: string } | undefined {
  const total = m.counters['syscalls.total'];
  return (
    m.counters[name] ??
    (harnessMetric(name)?.zeroWhenAbsent && total ? { values: total.values.map(() => 0), unit: total.unit } : undefined)
  );
}

/**
 * Counters are compared exactly, but some are not deterministic in practice (futex and epoll
 * counts of multi-threaded runtimes, max RSS by a few pages). When every round of both sides
 * agrees, any difference is a change. When a side's rounds disagree, the ranges must not
 * overlap and the gap between them must be at least the larger spread of a side: with three
 * rounds a side, two noisy ranges miss each other one time in ten by chance alone, so
 * separation alone would report noise.
 */
export function counterChange(
  benchmark: string,
  metric: string,
  unit: string,
  base: readonly number[],
  head: readonly number[],
): CounterChange | undefined {
  const lo = (xs: readonly number[]) => Math.min(...xs);
  const hi = (xs: readonly number[]) => Math.max(...xs);
  const gap = Math.max(lo(head) - hi(base), lo(base) - hi(head));
  const spread = Math.max(hi(base) - lo(base), hi(head) - lo(head));
  if (gap > 0 && gap >= spread) {
    return {
      benchmark,
      metric,
      unit,
      base: median(base),
      head: median(head),
      ...(lo(base) !== hi(base) ? { baseRange: [lo(base), hi(base)] as [number, number] } : {}),
      ...(lo(head) !== hi(head) ? { headRange: [lo(head), hi(head)] as [number, number] } : {}),
    };
  }
  return undefined;
}

function side(runs: readonly Results[]): Comparison['base'] {
  const first = runs[0];
  return {
    commits: [...new Set(runs.map((r) => r.run.commit.sha))],
    runs: runs.length,
    machine: first?.run.machine.id ?? 'unknown',
    cpu: first?.run.machine.cpu ?? 'unknown',
    toolchains: first?.run.toolchains ?? {},
  };
}

/**
 * Interleaving rounds spreads slow drift over both sides, but not other work on the machine
 * that happens to coincide with some rounds: then no statistic can tell it from a real change,
 * and the reviewer must know. Uses the harness's own busy criterion (conditions.ts).
 */
function busyWarning(runs: readonly Results[]): string | undefined {
  const busy = runs.filter((r) => r.run.conditions && isBusy(r.run.conditions, r.run.machine.cores));
  if (!busy.length) return undefined;
  const worst = Math.max(...busy.map((r) => r.run.conditions!.loadAverage[0]));
  return `the machine was busy during ${busy.length} of ${runs.length} rounds (load average up to ${worst.toFixed(1)} on ${busy[0]!.run.machine.cores} cores): timings are unreliable, and changes called significant may be caused by that load; run again on an idle machine`;
}

/**
 * Runs of different profiles send different amounts of data: their numbers answer different
 * questions, so compare refuses them as a whole, naming the difference.
 */
function checkSameWorkloads(base: readonly Results[], head: readonly Results[]): void {
  const profiles = (rs: readonly Results[]) => [...new Set(rs.map((r) => r.run.profile))];
  const [bp, hp] = [profiles(base), profiles(head)];
  if (bp.length === 1 && hp.length === 1 && bp[0] === hp[0]) return;
  const headById = new Map(head.flatMap((r) => r.benchmarks).map((b) => [b.id, b]));
  const example = base
    .flatMap((r) => r.benchmarks)
    .map((b) => [b, headById.get(b.id)] as const)
    .find(([b, h]) => h && workloadChange(b, h));
  throw new UserError(
    `base and head ran different workloads: profile ${bp.join(', ')} vs ${hp.join(', ')}${example ? ` (e.g. ${example[0].id}: ${workloadChange(example[0], example[1]!)})` : ''}`,
    'run both sides with the same --profile',
  );
}

export function compareRuns(
  base: readonly Results[],
  head: readonly Results[],
  noise: NoiseThresholds = {},
): Comparison {
  checkSameWorkloads(base, head);
  const B = merge(base);
  const H = merge(head);
  const { metrics, incomparable, counters } = compareMeasured(B, H, noise);
  const { added, removed, notMeasured } = unpaired(B, H);
  return {
    schema: COMPARISON_SCHEMA,
    kind: 'quick-look',
    method: `median ratio with a ${BOOTSTRAP_ITERATIONS}-resample bootstrap 95% CI; two-sided Mann-Whitney U at alpha ${ALPHA}; minimum effect ${MIN_EFFECT * 100}% (or the calibrated noise threshold)`,
    base: side(base),
    head: side(head),
    metrics,
    counters,
    added,
    removed,
    notMeasured,
    ...(incomparable.length ? { incomparable } : {}),
    ...(busyWarning([...base, ...head]) ? { warnings: [busyWarning([...base, ...head])!] } : {}),
  };
}

/**
 * The thresholds a comparison's verdicts depend on: those of its compared metrics (a comparison
 * made earlier answers the same only while these are unchanged).
 */
export function thresholdsUsed(c: Pick<Comparison, 'metrics'>, noise: NoiseThresholds): NoiseThresholds {
  const keys = c.metrics.map((m) => `${m.benchmark} ${m.metric}`).filter((k) => Object.hasOwn(noise, k));
  return Object.fromEntries([...new Set(keys)].sort().map((k) => [k, noise[k]!]));
}

/** Whether head runs a program base does not, among hashes of one scheme (others cannot be compared). */
function programChanged(base: ReadonlySet<string>, head: ReadonlySet<string>): boolean {
  const schemes = new Set([...base].map(hashScheme));
  const comparable = [...head].filter((d) => schemes.has(hashScheme(d)));
  return comparable.length > 0 && !comparable.every((d) => base.has(d));
}

/** Every benchmark measured on both sides: its metrics compared, or why not, and its counters. */
function compareMeasured(B: MergedRuns, H: MergedRuns, noise: NoiseThresholds) {
  const metrics: ComparedMetric[] = [];
  const incomparable: NonNullable<Comparison['incomparable']> = [];
  const counters: CounterChange[] = [];
  for (const [id, h] of H.ok) {
    const b = B.ok.get(id);
    if (!b) continue;
    // A different workload (sizes, input, placement) measures something else: not comparable.
    const workload = workloadChange(b.b, h.b);
    if (workload) {
      incomparable.push({ benchmark: id, metric: '*', reason: `workload changed: ${workload}`.slice(0, 300) });
      continue;
    }
    // A different program is exactly what comparing two commits is for: compared, and marked.
    const changed = programChanged(b.definitions, h.definitions);
    for (const [name, headSamples] of Object.entries(h.samples)) {
      const baseSamples = b.samples[name];
      if (!baseSamples?.length) continue;
      const metric = h.b.metrics[name] ?? b.b.metrics[name];
      if (!metric) continue;
      const baseUnit = b.b.metrics[name]?.unit;
      if (baseUnit !== undefined && baseUnit !== metric.unit) {
        incomparable.push({ benchmark: id, metric: name, reason: `unit changed: ${baseUnit} → ${metric.unit}` });
        continue;
      }
      const minEffect = Math.max(MIN_EFFECT, noise[`${id} ${name}`] ?? 0);
      // A ratio needs positive medians: hyperfine reports 0 s for commands faster than its
      // shell start-up, and a median of 0 has no ratio (nor has a bootstrap full of zeros).
      const zeroMedian = median(baseSamples) <= 0 || median(headSamples) <= 0;
      const c = zeroMedian ? undefined : compareSamples(baseSamples, headSamples, metric.direction, minEffect);
      if (!c || !Number.isFinite(c.ratio) || !c.ci.every(Number.isFinite)) {
        incomparable.push({
          benchmark: id,
          metric: name,
          reason: `too fast to time: ${zeroMedian ? `a median of ${name} is` : `some resampled medians of ${name} are`} 0 ${metric.unit}`,
        });
        continue;
      }
      metrics.push({
        benchmark: id,
        experiment: h.b.experiment,
        variant: h.b.variant,
        params: h.b.params,
        metric: name,
        unit: metric.unit,
        direction: metric.direction,
        base: { median: c.baseMedian, n: baseSamples.length },
        head: { median: c.headMedian, n: headSamples.length },
        ratio: c.ratio,
        ci: c.ci,
        p: c.p,
        verdict: c.verdict,
        ...(c.note ? { note: c.note } : {}),
        ...(changed ? { changed: true } : {}),
      });
    }
    for (const name of [...new Set([...Object.keys(b.counters), ...Object.keys(h.counters)])]) {
      const bv = counterValues(b, name);
      const hv = counterValues(h, name);
      const change = bv && hv && counterChange(id, name, hv.unit, bv.values, hv.values);
      if (change) counters.push(change);
    }
  }
  return { metrics, incomparable, counters };
}

/** The benchmarks only one side has, and those a side skipped or failed. */
function unpaired(B: MergedRuns, H: MergedRuns) {
  const known = (m: MergedRuns, id: string) => m.ok.has(id) || m.other.has(id);
  const added = [...new Set([...H.ok.keys(), ...H.other.keys()])]
    .filter((id) => !known(B, id))
    .map((benchmark) => ({ benchmark, side: 'head' as const }));
  const removed = [...new Set([...B.ok.keys(), ...B.other.keys()])]
    .filter((id) => !known(H, id))
    .map((benchmark) => ({ benchmark, side: 'base' as const }));
  const notMeasured = [
    ...[...B.other.values()].map((b) => ({
      benchmark: b.id,
      side: 'base' as const,
      status: b.status as 'skipped' | 'failed',
      reason: (b.reason ?? '').slice(0, 2000),
    })),
    ...[...H.other.values()].map((b) => ({
      benchmark: b.id,
      side: 'head' as const,
      status: b.status as 'skipped' | 'failed',
      reason: (b.reason ?? '').slice(0, 2000),
    })),
  ];
  return { added, removed, notMeasured };
}
