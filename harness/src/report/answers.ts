/**
 * Manifest `summary.answers`: an experiment's own questions ("does latency improve beyond 4
 * threads?") answered from the run. Per scenario and variant: the metric at `head` parameter
 * values divided by the same benchmark at `base` values, with compare's test on the samples, so
 * "lower" or "higher" is said only when the difference is significant. Pure: shared by
 * summary.md and the site's overview.
 */
import { ALPHA, compareSamples, smallestTwoSidedP } from '../analysis/two-sample.js';

export { smallestTwoSidedP };

import type { ParamValue } from '../formats/manifest-format.js';
import { labelWith, RUNTIME_PARAM } from '../model/select.js';

export interface Answer {
  question: string;
  metric: string;
  /** Parameter values of the reference point (e.g. {"pool": 4}). */
  base: Record<string, ParamValue>;
  /** Parameter values of the point compared with it (e.g. {"pool": 12}). */
  head: Record<string, ParamValue>;
}

interface AnswerItem {
  /** The benchmark's other parameters not shown by its scenario (e.g. the node version). */
  variant: string;
  ratio: number;
  /**
   * lower / higher: significant (Mann-Whitney, bootstrap CI, 2% minimum); same: not;
   * untestable: too few samples for any difference to reach significance (smoke runs).
   */
  finding: 'lower' | 'higher' | 'same' | 'untestable';
}

export interface AnswerScenario {
  /** The parameters shared by the points of this line, e.g. "work read, cache cold". */
  scenario: string;
  items: AnswerItem[];
}

/** What answers read of a benchmark (the site's lighter type has this too). */
interface Row {
  variant: string;
  status: string;
  params: Record<string, ParamValue>;
  metrics: Record<string, { value: number; samples?: number[] }>;
}

const same = (a: ParamValue | undefined, b: ParamValue | undefined) => String(a) === String(b);

export function answerScenarios(answer: Answer, rows: readonly Row[]): AnswerScenario[] {
  const keys = Object.keys(answer.base);
  const scenarioKeysOf = (b: Row) =>
    Object.keys(b.params).filter((k) => !(k in answer.base) && !(k in answer.head) && k !== RUNTIME_PARAM);
  // A variant without a parameter the others have (Bun: no pool) gets "pool n/a" as its scenario.
  const allScenarioKeys = [...new Set(rows.flatMap(scenarioKeysOf))];
  const scenarios = new Map<string, AnswerItem[]>();
  for (const b of rows) {
    if (b.status !== 'ok' || !keys.every((k) => k in b.params && same(b.params[k], answer.base[k]))) continue;
    const want = { ...b.params, ...answer.head };
    const h = rows.find(
      (o) =>
        o.status === 'ok' &&
        o.variant === b.variant &&
        Object.keys(want).every((k) => same(o.params[k], want[k])) &&
        Object.keys(o.params).length === Object.keys(want).length,
    );
    const bm = b.metrics[answer.metric];
    const hm = h?.metrics[answer.metric];
    if (!bm || !hm || !(bm.value > 0)) continue;
    const scenario = allScenarioKeys.map((k) => (k in b.params ? `${k} ${b.params[k]}` : `${k} n/a`)).join(', ');
    const runtime = b.params[RUNTIME_PARAM];
    const label = labelWith(b.variant, runtime === undefined ? [] : [[RUNTIME_PARAM, runtime]]);
    const [n, m] = [bm.samples?.length ?? 0, hm.samples?.length ?? 0];
    const c = n && m ? compareSamples(bm.samples!, hm.samples!, 'smaller') : undefined;
    const finding =
      !c || smallestTwoSidedP(n, m) >= ALPHA
        ? 'untestable'
        : c.verdict === 'slower'
          ? 'higher'
          : c.verdict === 'faster'
            ? 'lower'
            : 'same';
    scenarios.set(scenario, [
      ...(scenarios.get(scenario) ?? []),
      { variant: label, ratio: hm.value / bm.value, finding },
    ]);
  }
  return [...scenarios].map(([scenario, items]) => ({ scenario, items }));
}

/** "pool 12 vs pool 4" */
export function answerComparison(answer: Answer): string {
  const text = (at: Record<string, ParamValue>) =>
    Object.entries(at)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  return `${text(answer.head)} vs ${text(answer.base)}`;
}
