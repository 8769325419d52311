/**
 * The metric a harness-shift point is judged on: its experiment's lead, as the paired diff chooses
 * it (pairs/engine/lead-metric.ts) — a fit's cost per operation, else the manifest's headline
 * metrics in order, else wall time — the first timed one positive on both sides in every round, so one
 * point's rounds are all of one metric. The value as measured, whatever its direction: the shift
 * is of the numbers. Pure.
 */
import type { Manifest } from '../../formats/manifest-format.js';
import type { Benchmark } from '../../formats/results-format.js';
import { WALL_TIME } from '../decide/point.js';

/** The metrics a point may be judged on, best first. */
export function leadCandidates(manifest: Pick<Manifest, 'fit' | 'headline'>): string[] {
  return [...new Set([...(manifest.fit ? [manifest.fit.cost] : []), ...manifest.headline.metrics, WALL_TIME.metric])];
}

/** Why a results file gives this point no value, or undefined when it ran. */
export function benchmarkProblem(b: Benchmark | undefined): string | undefined {
  if (!b) return 'not in the results file';
  if (b.status !== 'ok') return `${b.status}: ${b.reason ?? 'no reason given'}`;
  return undefined;
}

/**
 * A measured metric's value when it is a positive, finite number (a ratio exists). Counters (max
 * RSS, syscalls) are left out: they are compared exactly elsewhere, and a harness that changes
 * how programs are timed leaves them alone.
 */
export function positiveValue(b: Benchmark, metric: string): number | undefined {
  const m = b.metrics[metric];
  if (!m || m.deterministic) return undefined;
  return Number.isFinite(m.value) && m.value > 0 ? m.value : undefined;
}

/** One round of a point: the benchmark as each harness reported it. */
export interface RoundPair {
  round: number;
  base: Benchmark;
  head: Benchmark;
}

/** The first candidate positive on both sides in every round, or undefined. */
export function commonLead(candidates: readonly string[], rounds: readonly RoundPair[]): string | undefined {
  return candidates.find((m) =>
    rounds.every((r) => positiveValue(r.base, m) !== undefined && positiveValue(r.head, m) !== undefined),
  );
}
