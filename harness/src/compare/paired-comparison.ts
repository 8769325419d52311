/**
 * comparison.json of the paired diff (schema 2): the rows, the lists of what was not paired, the
 * budget and the method, checked against the schema the PR-comment workflow applies.
 */
import { MIN_EFFECT } from '../analysis/paired.js';
import type { SequentialPlan } from '../analysis/paired-sequential.js';
import { assertValid } from '../lib/json-file.js';
import { PAIRED_COMPARISON_SCHEMA, PairedComparison } from '../model/comparison.js';

/** What the comment's method line says: how pairs were made and judged under this plan. */
export function pairedMethod(plan: SequentialPlan): string {
  const looks = plan.looks.join('/');
  const alphas = plan.alphas.map((a) => `${(a * 100).toFixed(1)}%`).join('/');
  return [
    'paired: base and head processes alternate in a seeded random order per pair (blocks of AB/BA), after warm-ups of both',
    'points whose program changed are measured first, the others with the budget they leave',
    'per point, Hodges-Lehmann ratio of the paired log-ratios with the exact Wilcoxon signed-rank interval and test (a fit: the per-operation cost ratio over two sizes)',
    `sequential looks at ${looks} pairs spending alpha ${alphas} (5% in all)`,
    `minimum effect ${MIN_EFFECT * 100}% or the calibrated threshold`,
    'folded metrics are fixed-size comparisons at 5%',
    'counters compared exactly, once per side',
  ].join('; ');
}

export interface PairedSide {
  commit: string;
  toolchains: Record<string, string>;
}

export interface PairedComparisonInput {
  plan: SequentialPlan;
  seed: number;
  machine: { id: string; cpu: string };
  budget: PairedComparison['budget'];
  base: PairedSide;
  head: PairedSide;
  points: PairedComparison['points'];
  added: PairedComparison['added'];
  removed: PairedComparison['removed'];
  notMeasured: PairedComparison['notMeasured'];
  incomparable: NonNullable<PairedComparison['incomparable']>;
  warnings: string[];
}

const round = (x: number) => Number(x.toPrecision(6));

export function pairedComparison(c: PairedComparisonInput): PairedComparison {
  const side = (s: PairedSide): PairedComparison['base'] => ({
    commits: [s.commit.slice(0, 64)],
    runs: 1,
    machine: c.machine.id,
    cpu: c.machine.cpu,
    toolchains: s.toolchains,
  });
  const comparison: PairedComparison = {
    schema: PAIRED_COMPARISON_SCHEMA,
    method: pairedMethod(c.plan),
    seed: c.seed,
    budget: {
      ...c.budget,
      spentSeconds: round(c.budget.spentSeconds),
      ...(c.budget.setupSeconds !== undefined ? { setupSeconds: round(c.budget.setupSeconds) } : {}),
    },
    base: side(c.base),
    head: side(c.head),
    points: c.points,
    added: c.added,
    removed: c.removed,
    notMeasured: c.notMeasured,
    ...(c.warnings.length ? { warnings: c.warnings } : {}),
    ...(c.incomparable.length ? { incomparable: c.incomparable } : {}),
  };
  // What we write must pass the checks the PR-comment workflow applies to it.
  assertValid('comparison.json', comparison, PairedComparison);
  return comparison;
}
