/**
 * The counted-work metrics (the metric catalogue's kind "work"), per operation first: the Trends
 * view draws, beside a timing, the first one an experiment has. Free of imports: the page's
 * preloader asks for the same shards the view will read.
 */
export const WORK_METRICS = ['instructions_per_op', 'instructions'] as const;

/** The work metric drawn beside a timing: per operation where there is one, else per run. */
export function workMetric(metrics: readonly string[]): string | undefined {
  return WORK_METRICS.find((m) => metrics.includes(m));
}
