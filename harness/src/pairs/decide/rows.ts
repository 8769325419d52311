/**
 * The paired diff's rows: one per point, led by the metric the sequential rule decided on, every
 * other paired metric folded in, judged at its share of the diff-wide level, the ones that moved
 * named beside the lead (`also`); and each point's pairs as calibration replays them. Verdicts are
 * made here, so this is measuring code (the PR-comment job makes the same rows again from the pair
 * record: ./recompute.ts).
 */

import { median } from '../../analysis/two-sample.js';
import type { PairsCounter, PairsMetric, PairsPoint } from '../../formats/pairs-format.js';
import { compareFit, type FitPair, type FitSizes, fitProblem } from './fit-pairs.js';
import { judgeOthers, moved, type OtherJudgement } from './other-metrics.js';
import { comparePairs, orderEffect, type Pair, pairProblem } from './pair-statistics.js';
import { fitPairs, leadPairs, type PointSoFar, type StopStep, WALL_TIME } from './point.js';
import type { LookAnalysis } from './sequential.js';

/** A measured point as the rows need it: what it is, its pairs, and where it stopped (its verdict). */
export interface PointResult extends PointSoFar {
  benchmark: string;
  experiment: string;
  variant: string;
  params: PairsPoint['params'];
  placement: string;
  changed: boolean;
  /** What the pull request changed in its workload, when it did (pairs/decide/workload.ts). */
  workloadChange?: string;
  impact: 'affected' | 'control';
  counters: PairsCounter[];
  sizes?: FitSizes;
  secondsPerPair: number;
  stop: StopStep;
  fitProblem?: string;
}

/** The interval a verdict stands on, with its level. */
function verdictInterval(verdict: string, a: LookAnalysis): { ci?: [number, number]; confidence: number } {
  const iv = verdict === 'unchanged' && a.equivalence ? a.equivalence : { ci: a.ci, confidence: 1 - a.alpha };
  return {
    ...(iv.ci?.every(Number.isFinite) ? { ci: iv.ci.map(round) as [number, number] } : {}),
    confidence: round(iv.confidence),
  };
}

const round = (x: number) => Number(x.toPrecision(6));
const finiteOr = (x: number, y: number) => (Number.isFinite(x) ? x : y);

/** The lead's medians: a fit's per-operation costs (ns), else the medians of the lead's pairs. */
function leadMedians(p: PointResult, pairs: readonly Pair[]): [number, number] {
  const fit = fitPairs(p.pairs);
  if (p.kind === 'fit' && p.lead.metric !== WALL_TIME.metric && fit.length && p.sizes && !fitProblem(fit)) {
    const c = compareFit(fit, p.sizes);
    return [c.baseCost * 1e9, c.headCost * 1e9];
  }
  const ok = pairs.filter((q) => Number.isFinite(q.base) && Number.isFinite(q.head));
  return ok.length ? [median(ok.map((q) => q.base)), median(ok.map((q) => q.head))] : [0, 0];
}

function leadRow(p: PointResult): PairsMetric {
  const a = p.stop.analysis;
  const [baseMedian, headMedian] = leadMedians(p, leadPairs(p.pairs, p.lead.metric));
  const note = [
    p.fitProblem ? `per-operation cost not resolved, judged on wall time: ${p.fitProblem}` : '',
    a.note ?? '',
  ]
    .filter(Boolean)
    .join('; ')
    .slice(0, 300);
  return {
    ...p.lead,
    baseMedian: round(finiteOr(baseMedian, 0)),
    headMedian: round(finiteOr(headMedian, 0)),
    ratio: round(finiteOr(a.ratio, 1)),
    // The interval the verdict was decided on: "unchanged" by the equivalence interval, the rest by the change one.
    ...verdictInterval(p.stop.verdict, a),
    p: round(a.p),
    verdict: p.stop.verdict,
    ...(note ? { note } : {}),
  };
}

/** An other metric as judged at its share of the diff-wide level (analysis/other-metrics.ts). */
function judgedRow(j: OtherJudgement): PairsMetric {
  const a = j.analysis;
  return {
    metric: j.metric,
    unit: j.unit,
    direction: j.direction,
    baseMedian: round(median(j.pairs.map((q) => q.base))),
    headMedian: round(median(j.pairs.map((q) => q.head))),
    ratio: round(finiteOr(a.ratio, 1)),
    ...verdictInterval(j.verdict, a),
    p: round(a.p),
    verdict: j.verdict,
    ...(j.of ? { of: j.of } : {}),
    ...(a.note ? { note: a.note.slice(0, 300) } : {}),
  };
}

/**
 * Every other metric of the point's processes, compared over all its pairs at once: at its share
 * of the diff-wide level where the run gave it one, else (a diff run without that) at a fixed 5 %.
 */
function foldedRows(p: PointResult, judged: readonly OtherJudgement[] | undefined): PairsMetric[] {
  if (judged) return judged.map(judgedRow);
  const folded: PairsMetric[] = [];
  const names = p.pairs.length ? Object.keys(p.pairs[0]!.head) : [];
  for (const name of names) {
    if (name === p.lead.metric) continue;
    const ps = p.pairs.map((q) => ({ base: q.base[name]?.value ?? 0, head: q.head[name]?.value ?? 0, order: q.order }));
    if (ps.length < 2 || pairProblem(ps)) continue;
    const spec = p.pairs[0]!.head[name]!;
    const c = comparePairs(ps, spec.direction, { minEffect: p.minEffect });
    folded.push({
      metric: name,
      unit: spec.unit,
      direction: spec.direction,
      baseMedian: round(c.baseMedian),
      headMedian: round(c.headMedian),
      ratio: round(c.ratio),
      ...(c.ci ? { ci: c.ci.map(round) as [number, number] } : {}),
      confidence: c.confidence,
      p: round(c.p),
      verdict: c.verdict,
      ...(c.note ? { note: c.note.slice(0, 300) } : {}),
    });
  }
  return folded;
}

/** The point's row of comparison.json. */
export function pointRow(p: PointResult): PairsPoint {
  const pairs = leadPairs(p.pairs, p.lead.metric);
  const judged = p.others ? judgeOthers(p.pairs, p.lead.metric, p.others) : undefined;
  const also = (judged ?? []).filter(moved).map((j) => j.metric);
  const oe = p.kind !== 'fit' && pairs.length && !pairProblem(pairs) ? orderEffect(pairs, p.lead.direction) : undefined;
  return {
    benchmark: p.benchmark,
    experiment: p.experiment,
    variant: p.variant,
    params: p.params,
    placement: p.placement.slice(0, 300),
    ...(p.changed ? { changed: true } : {}),
    ...(p.workloadChange ? { workloadChanged: p.workloadChange.slice(0, 300) } : {}),
    impact: p.impact,
    kind: p.kind,
    pairs: p.pairs.length,
    baseFirst: p.pairs.filter((q) => q.order === 'AB').length,
    stop: p.stop.reason,
    minEffect: p.minEffect,
    secondsPerPair: round(p.secondsPerPair),
    lead: leadRow(p),
    folded: foldedRows(p, judged),
    ...(also.length ? { also } : {}),
    counters: p.counters,
    ...(oe !== undefined && Number.isFinite(oe) ? { orderEffect: round(oe) } : {}),
  };
}

/**
 * One point's pairs in run order (pairs.json): the lead's, which calibration replays, and every
 * other timed metric each pair's processes reported, with a fit's four wall times.
 */
export interface PairRecord {
  benchmark: string;
  metric: string;
  direction: PointResult['lead']['direction'];
  kind: string;
  pairs: Pair[];
  /** Every other metric of the pairs: each side's value per pair, in run order (null where a side lacked it). */
  others: {
    metric: string;
    unit: string;
    direction: PointResult['lead']['direction'];
    base: (number | null)[];
    head: (number | null)[];
  }[];
  /** A fit's small and large wall times of each side, per pair. */
  fit?: FitPair[];
}

/** Every metric the pairs' processes reported other than the lead, in the order first reported. */
function otherRecords(p: PointResult): PairRecord['others'] {
  const names = [...new Set(p.pairs.flatMap((q) => Object.keys(q.head)))].filter((m) => m !== p.lead.metric);
  return names.map((metric) => {
    const spec = p.pairs.find((q) => q.head[metric])!.head[metric]!;
    const side = (s: 'base' | 'head') => p.pairs.map((q) => q[s][metric]?.value ?? null);
    return { metric, unit: spec.unit, direction: spec.direction, base: side('base'), head: side('head') };
  });
}

/** A fit's lead pairs are each side's large-minus-small wall time (the cost's numerator). */
export function pairRecord(p: PointResult): PairRecord {
  const fit = fitPairs(p.pairs);
  return {
    benchmark: p.benchmark,
    metric: p.lead.metric,
    direction: p.lead.direction,
    kind: p.kind,
    others: otherRecords(p),
    ...(p.kind === 'fit' && fit.length ? { fit } : {}),
    pairs:
      p.kind === 'fit' && p.lead.metric !== WALL_TIME.metric
        ? fit.map((f, i) => ({
            base: f.base.large - f.base.small,
            head: f.head.large - f.head.small,
            order: p.pairs[i]!.order,
          }))
        : leadPairs(p.pairs, p.lead.metric),
  };
}
