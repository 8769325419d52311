/**
 * The counted metric the Trends view draws beside a timing: the first of the metric catalogue's
 * counted metrics (model/metrics.ts COUNT_METRICS) an experiment has, per operation first. The
 * page's preloader asks for the same shards the view will read, so it imports this too: the
 * catalogue is pure and imports nothing, which keeps the preloader small.
 */
import { COUNT_METRICS, HARNESS_METRICS, type MetricSpec } from '../../harness/src/model/metrics.js';

/** Whether a metric is a counted one (the catalogue's kind "work"), not a timing. */
export const isCountMetric = (metric: string): boolean => (COUNT_METRICS as readonly string[]).includes(metric);

/** The counted metric drawn beside a timing: per operation where there is one, else per run. */
export function countMetric(metrics: readonly string[]): string | undefined {
  const present = COUNT_METRICS.filter((m) => metrics.includes(m));
  return present.find((m) => (HARNESS_METRICS[m] as MetricSpec).perOperation) ?? present[0];
}
