/**
 * The rounds' measurements read (pure), for the harness shift (./measure-harness-shift.ts): each
 * point's lead values per round, and each candidate's spread and cost, from which the quietest are
 * kept (./quietest.ts).
 */
import type { Manifest } from '../../formats/manifest-format.js';
import type { HarnessShift } from '../../formats/pairs-format.js';
import type { Benchmark } from '../../formats/results-format.js';
import { benchmarkProblem, commonLead, leadCandidates, positiveValue, type RoundPair } from './lead-value.js';
import type { Observation } from './pooled-shift.js';
import { type Candidate, candidateSpread, relativeSpread, type SideRuns } from './quietest.js';
import type { Measurement } from './rounds.js';
import type { SamplePoint } from './sample.js';
import { type FirstRound, shiftRuns } from './shift-runs.js';

/** A point's rounds with a usable result on both sides, and the first reason a side gave none. */
function pointRounds(ms: readonly Measurement[]): { rounds: RoundPair[]; reason?: string } {
  const rounds: RoundPair[] = [];
  let reason: string | undefined;
  for (const round of [...new Set(ms.map((m) => m.round))].sort((a, b) => a - b)) {
    const side = (s: 'base' | 'head'): { why: string } | { b: Benchmark } => {
      const m = ms.find((x) => x.round === round && x.side === s);
      if (!m) return { why: `${s}: not measured` };
      if (!m.results) return { why: `${s}: ${m.reason ?? 'no results'}` };
      const b = m.results.benchmarks.find((x) => x.id === m.point.id);
      const why = benchmarkProblem(b);
      return why ? { why: `${s}: ${why}` } : { b: b! };
    };
    const [b, h] = [side('base'), side('head')];
    if ('b' in b && 'b' in h) rounds.push({ round, base: b.b, head: h.b });
    else reason ??= 'why' in b ? b.why : 'why' in h ? h.why : undefined;
  }
  return { rounds, ...(reason ? { reason } : {}) };
}

/**
 * Base/head values of every point's lead metric per round, and the points that gave none (with
 * the first reason). Pure: `manifestOf` names each experiment's manifest.
 */
export function observationsOf(
  ms: readonly Measurement[],
  manifestOf: (experiment: string) => Pick<Manifest, 'fit' | 'headline'> | undefined,
): { observations: Observation[]; notMeasured: HarnessShift['notMeasured'] } {
  const observations: Observation[] = [];
  const notMeasured: HarnessShift['notMeasured'] = [];
  const byPoint = new Map<string, Measurement[]>();
  for (const m of ms) byPoint.set(m.point.id, [...(byPoint.get(m.point.id) ?? []), m]);
  for (const [id, mine] of byPoint) {
    const experiment = mine[0]!.point.experiment.id;
    const manifest = manifestOf(experiment);
    const { rounds, reason } = pointRounds(mine);
    const metric = manifest && rounds.length ? commonLead(leadCandidates(manifest), rounds) : undefined;
    if (!metric) {
      const why = !rounds.length
        ? (reason ?? 'not measured')
        : !manifest
          ? `no manifest for ${experiment}`
          : `no metric is positive on both sides in every round (${leadCandidates(manifest).join(', ')})`;
      notMeasured.push({ benchmark: id, reason: why.slice(0, 500) });
      continue;
    }
    for (const r of rounds)
      observations.push({
        experiment,
        benchmark: id,
        metric,
        round: r.round,
        base: positiveValue(r.base, metric)!,
        head: positiveValue(r.head, metric)!,
      });
  }
  return { observations, notMeasured };
}

/** A point's first round as ./shift-runs.ts reads it: its runs and its runs' median wall time (both sides). */
export function firstRoundOf(point: SamplePoint, ms: readonly Measurement[]): FirstRound | undefined {
  const first = ms.filter((m) => m.point.id === point.id && m.round === Math.min(...ms.map((x) => x.round)));
  const walls: number[] = [];
  let runs = 0;
  for (const m of first) {
    const wall = m.results?.benchmarks.find((b) => b.id === point.id)?.metrics.wall_time;
    if (!wall?.samples?.length) return undefined;
    runs = Math.max(runs, wall.samples.length);
    walls.push(wall.value);
  }
  return walls.length ? { runs, wallSeconds: Math.max(...walls) } : undefined;
}

/**
 * Each sampled point's spread over the rounds measured so far (./analysis/quietest.ts): how far
 * its lead metric's ratio moved between rounds, never below what its sides' runs in the latest
 * round imply; and what a later round of it will cost (roundSeconds).
 */
export function candidatesOf(
  sample: readonly SamplePoint[],
  ms: readonly Measurement[],
  manifestOf: (experiment: string) => Pick<Manifest, 'fit' | 'headline'> | undefined,
): Candidate[] {
  return sample.map((p) => {
    const mine = ms.filter((m) => m.point.id === p.id);
    const { observations } = observationsOf(mine, manifestOf);
    const base = { id: p.id, experiment: p.experiment.id };
    if (!observations.length) return { ...base, spread: undefined };
    const metric = observations[0]!.metric;
    const latest = Math.max(...observations.map((o) => o.round));
    const sides: SideRuns[] = [];
    for (const m of mine.filter((x) => x.round === latest)) {
      const samples = m.results?.benchmarks.find((b) => b.id === p.id)?.metrics[metric]?.samples ?? [];
      const spread = relativeSpread(samples);
      if (spread !== undefined) sides.push({ spread, runs: samples.length });
    }
    const logs = observations.map((o) => Math.log(o.head / o.base));
    return { ...base, spread: candidateSpread(logs, sides.length === 2 ? sides : []), seconds: roundSeconds(p, mine) };
  });
}

/**
 * Seconds a later round of a point will take, both sides: its candidate rounds' mean, plus the
 * runs the kept point's rounds add (shift-runs.ts) at its runs' wall time. Undefined when a bench
 * was not timed.
 */
export function roundSeconds(point: SamplePoint, ms: readonly Measurement[]): number | undefined {
  const mine = ms.filter((m) => m.point.id === point.id);
  if (!mine.length || mine.some((m) => m.seconds === undefined)) return undefined;
  const rounds = new Set(mine.map((m) => m.round)).size;
  const spent = mine.reduce((a, m) => a + m.seconds!, 0) / rounds;
  const first = firstRoundOf(point, mine);
  const later = shiftRuns(first);
  return first && later ? spent + 2 * Math.max(0, later - first.runs) * first.wallSeconds : spent;
}

/** " (rounds moved P %, ~S s a round)", or nothing when unknown. */
export function costText(c: Candidate): string {
  const parts = [
    ...(c.spread !== undefined ? [`rounds moved ${(c.spread * 100).toFixed(1)} %`] : []),
    ...(c.seconds !== undefined ? [`~${c.seconds.toFixed(1)} s a round`] : []),
  ];
  return parts.length ? ` (${parts.join(', ')})` : '';
}
