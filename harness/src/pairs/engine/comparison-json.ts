/**
 * comparison.json of the paired diff (formats/comparison-format.ts): the rows, the lists of what was not paired, the
 * budget and the method, checked against the schema the PR-comment workflow applies.
 */

import { PAIRS_COMPARISON_SCHEMA } from '../../formats/comparison-format.js';
import { PairsComparison } from '../../formats/pairs-format.js';
import { assertValid } from '../../lib/json-file.js';
import { SECONDARY_SHARE } from '../decide/multiplicity.js';
import { MIN_EFFECT } from '../decide/pair-statistics.js';
import type { SequentialPlan } from '../decide/sequential.js';
import { CONTROL_SHARE } from './budget.js';

/** What the comment's method line says: how pairs were made and judged under this plan. */
function pairsMethod(plan: SequentialPlan, falsePositiveNote?: string): string {
  const looks = plan.looks.join('/');
  const total = plan.alphas.reduce((x, y) => x + y, 0);
  const alphas = plan.alphas.map((a) => `${((a / total) * 100).toFixed(0)}%`).join('/');
  return [
    'paired: base and head processes alternate in a seeded random order per pair (AB/BA blocks) after warm-ups',
    `the points the PR affects are measured first, then the control sample within its reserved ${CONTROL_SHARE * 100}% of the budget`,
    'per point, Hodges-Lehmann ratio of the paired log-ratios with the exact Wilcoxon signed-rank interval and test (a fit: the per-operation cost ratio over two sizes)',
    `sequential looks at ${looks} pairs, ${falsePositiveNote ?? `alpha ${(total * 100).toFixed(0)}% per point`}, each point's share spent over the looks ${alphas}`,
    `minimum effect ${MIN_EFFECT * 100}% or the calibrated threshold`,
    `other timed metrics at ${SECONDARY_SHARE * 100}% of the point's share`,
    'changed workloads measured',
    'counters compared exactly (up to 6 untimed traces per side)',
  ]
    .join('; ')
    .slice(0, 800);
}

interface PairsSide {
  commit: string;
  toolchains: Record<string, string>;
}

export interface PairsComparisonInput {
  plan: SequentialPlan;
  /** The diff-wide false-positive level as applied (pairs/decide/multiplicity.ts falsePositiveNote). */
  falsePositiveNote?: string;
  seed: number;
  machine: { id: string; cpu: string };
  budget: PairsComparison['budget'];
  base: PairsSide;
  head: PairsSide;
  points: PairsComparison['points'];
  added: PairsComparison['added'];
  removed: PairsComparison['removed'];
  notMeasured: PairsComparison['notMeasured'];
  warnings: string[];
  notAffected?: PairsComparison['notAffected'];
  affectedBecause?: PairsComparison['affectedBecause'];
}

const round = (x: number) => Number(x.toPrecision(6));

export function pairsComparison(c: PairsComparisonInput): PairsComparison {
  const side = (s: PairsSide): PairsComparison['base'] => ({
    commits: [s.commit.slice(0, 64)],
    runs: 1,
    machine: c.machine.id,
    cpu: c.machine.cpu,
    toolchains: s.toolchains,
  });
  const comparison: PairsComparison = {
    schema: PAIRS_COMPARISON_SCHEMA,
    kind: 'pairs',
    method: pairsMethod(c.plan, c.falsePositiveNote),
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
    ...(c.notAffected ? { notAffected: c.notAffected } : {}),
    ...(c.affectedBecause ? { affectedBecause: c.affectedBecause } : {}),
  };
  // What we write must pass the checks the PR-comment workflow applies to it.
  assertValid('comparison.json', comparison, PairsComparison);
  return comparison;
}
