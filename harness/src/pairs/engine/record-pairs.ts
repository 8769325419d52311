/**
 * The pair record a diff writes (pairs.json, formats/pair-record-format.ts): everything the PR-comment job
 * needs to judge every point again without trusting the harness that measured it.
 */

import { PAIR_RECORD_SCHEMA, PairRecordDocument, type RecordedPoint } from '../../formats/pair-record-format.js';
import { assertValid } from '../../lib/json-file.js';
import type { Values } from '../decide/point.js';
import type { SequentialPlan } from '../decide/sequential.js';
import type { PointWork } from './count-sides.js';
import { leadMetric } from './lead-metric.js';
import type { DecidedPoint } from './scheduler.js';

const orNull = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : null);

function sideValues(values: Values, names: readonly string[]): Record<string, number | null> {
  return Object.fromEntries(names.map((n) => [n, orNull(values[n]?.value)]));
}

/** One measured point as recorded: its lead as first chosen (a fit's cost even where it fell back to wall time). */
function recordedPoint(p: DecidedPoint): RecordedPoint {
  const metrics: RecordedPoint['metrics'] = {};
  for (const q of p.pairs)
    for (const side of [q.base, q.head])
      for (const [name, v] of Object.entries(side)) metrics[name] ??= { unit: v.unit, direction: v.direction };
  const names = Object.keys(metrics);
  const lead = p.fitProblem ? leadMetric(p.plan.head, p.pairs[0]?.head ?? {}) : p.lead;
  return {
    benchmark: p.plan.id,
    experiment: p.plan.head.experiment.id,
    variant: p.plan.head.variant.id,
    params: p.plan.head.params,
    impact: p.impact,
    kind: p.kind,
    lead: { metric: lead.metric, unit: lead.unit, direction: lead.direction },
    minEffect: p.minEffect,
    ...(p.others
      ? {
          others: p.others.metrics.map((m) => ({
            metric: m.metric,
            ...(m.of ? { of: m.of } : {}),
            minEffect: m.minEffect,
          })),
        }
      : {}),
    metrics,
    ...(p.sizes ? { sizes: { small: p.sizes.small, large: p.sizes.large } } : {}),
    pairs: p.pairs.map((q) => ({
      order: q.order,
      base: sideValues(q.base, names),
      head: sideValues(q.head, names),
      ...(q.fit ? { fit: { base: { ...q.fit.base }, head: { ...q.fit.head } } } : {}),
    })),
  };
}

export interface PairRecordInput {
  points: readonly DecidedPoint[];
  work: ReadonlyMap<string, PointWork>;
  seed: number;
  plan: SequentialPlan;
  level: number;
}

/** The pair record of a diff, validated against the schema its reader applies. */
export function pairRecordDocument(r: PairRecordInput): PairRecordDocument {
  const counts: PairRecordDocument['counts'] = [];
  for (const [benchmark, w] of r.work)
    if (w.status === 'counted')
      counts.push({
        benchmark,
        metric: w.metric,
        base: w.base,
        head: w.head,
        role: w.role,
        source: { base: w.baseStored ? 'stored' : 'counted', head: 'counted' },
        settings: w.settings.slice(0, 300),
      });
  return assertValid(
    'pairs.json',
    {
      schema: PAIR_RECORD_SCHEMA,
      kind: 'pair-record',
      seed: r.seed,
      plan: { looks: [...r.plan.looks], alphas: [...r.plan.alphas], betas: [...r.plan.betas] },
      level: r.level,
      points: r.points.map(recordedPoint),
      counts,
    },
    PairRecordDocument,
  );
}
