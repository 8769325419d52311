/**
 * compare: base vs head results (several files per side = rounds of the same build, merged per
 * benchmark by pooling samples) -> a Comparison. Decisions come from stats.ts only.
 */
import type { Benchmark, Results } from '../results/schema.js';
import { type Comparison, COMPARISON_SCHEMA, type ComparedMetric, type CounterChange } from './schema.js';
import { ALPHA, BOOTSTRAP_ITERATIONS, compareSamples, MIN_EFFECT } from './stats.js';

/** Per-benchmark minimum effects written by `npm run calibrate` (id + " " + metric -> ratio). */
export type NoiseThresholds = Record<string, number>;

interface Merged {
  b: Benchmark;
  samples: Record<string, number[]>;
  counters: Record<string, { value: number; unit: string }>;
  definitions: Set<string>;
}

/** Sampled metrics worth a verdict: derived ones (throughput from time) would double-count. */
function comparable(name: string, m: Benchmark['metrics'][string]): boolean {
  return Boolean(m.samples?.length) && m.source !== 'derived' && name !== 'pipeline_max_rss';
}

function merge(runs: readonly Results[]): { ok: Map<string, Merged>; other: Map<string, Benchmark> } {
  const ok = new Map<string, Merged>();
  const other = new Map<string, Benchmark>();
  for (const r of runs) {
    for (const b of r.benchmarks) {
      if (b.status !== 'ok') {
        if (!ok.has(b.id)) other.set(b.id, b);
        continue;
      }
      other.delete(b.id);
      const m = ok.get(b.id) ?? { b, samples: {}, counters: {}, definitions: new Set<string>() };
      if (b.definition) m.definitions.add(b.definition);
      for (const [name, metric] of Object.entries(b.metrics)) {
        if (comparable(name, metric)) (m.samples[name] ??= []).push(...(metric.samples ?? []));
        else if (metric.deterministic) m.counters[name] = { value: metric.value, unit: metric.unit };
      }
      ok.set(b.id, m);
    }
  }
  return { ok, other };
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

export function compareRuns(base: readonly Results[], head: readonly Results[], noise: NoiseThresholds = {}): Comparison {
  const B = merge(base);
  const H = merge(head);
  const metrics: ComparedMetric[] = [];
  const counters: CounterChange[] = [];
  for (const [id, h] of H.ok) {
    const b = B.ok.get(id);
    if (!b) continue;
    const redefined = b.definitions.size > 0 && h.definitions.size > 0 && ![...h.definitions].every((d) => b.definitions.has(d));
    for (const [name, headSamples] of Object.entries(h.samples)) {
      const baseSamples = b.samples[name];
      if (!baseSamples?.length) continue;
      const metric = h.b.metrics[name] ?? b.b.metrics[name];
      if (!metric) continue;
      const minEffect = Math.max(MIN_EFFECT, noise[`${id} ${name}`] ?? 0);
      const c = compareSamples(baseSamples, headSamples, metric.direction, minEffect);
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
        verdict: redefined ? 'unchanged' : c.verdict,
        ...(redefined ? { note: 'benchmark definition changed: not compared', redefined } : c.note ? { note: c.note } : {}),
      });
    }
    for (const [name, hv] of Object.entries(h.counters)) {
      const bv = b.counters[name];
      if (bv !== undefined && bv.value !== hv.value) counters.push({ benchmark: id, metric: name, unit: hv.unit, base: bv.value, head: hv.value });
    }
  }
  const known = (m: { ok: Map<string, Merged>; other: Map<string, Benchmark> }, id: string) => m.ok.has(id) || m.other.has(id);
  const added = [...new Set([...H.ok.keys(), ...H.other.keys()])].filter((id) => !known(B, id)).map((benchmark) => ({ benchmark, side: 'head' as const }));
  const removed = [...new Set([...B.ok.keys(), ...B.other.keys()])].filter((id) => !known(H, id)).map((benchmark) => ({ benchmark, side: 'base' as const }));
  const notMeasured = [
    ...[...B.other.values()].map((b) => ({ benchmark: b.id, side: 'base' as const, status: b.status as 'skipped' | 'failed', reason: (b.reason ?? '').slice(0, 2000) })),
    ...[...H.other.values()].map((b) => ({ benchmark: b.id, side: 'head' as const, status: b.status as 'skipped' | 'failed', reason: (b.reason ?? '').slice(0, 2000) })),
  ];
  return {
    schema: COMPARISON_SCHEMA,
    method: `median ratio with a ${BOOTSTRAP_ITERATIONS}-resample bootstrap 95% CI; two-sided Mann-Whitney U at alpha ${ALPHA}; minimum effect ${MIN_EFFECT * 100}% (or the calibrated noise threshold)`,
    base: side(base),
    head: side(head),
    metrics,
    counters,
    added,
    removed,
    notMeasured,
  };
}
