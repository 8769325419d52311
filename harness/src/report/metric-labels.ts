/**
 * What a reader calls a metric: "cost per read", "p50 latency", never the key `read_cost`. An
 * experiment's own metrics are labelled in its manifest (`labels`); the harness's own (wall time,
 * memory, syscalls, percentiles of a reported field, fitted start-up and steady throughput) here.
 * Pure: bundled into the site.
 */

const GENERIC: Record<string, string> = {
  wall_time: 'wall time',
  throughput: 'throughput',
  max_rss: 'peak memory (RSS)',
  pipeline_max_rss: 'peak memory of the pipeline (RSS)',
  startup: 'start-up time',
  steady_throughput: 'steady throughput',
  'syscalls.total': 'system calls',
};

/** A human label for a metric; `labels` are the experiment's (manifest) labels. */
export function metricLabel(metric: string, labels: Readonly<Record<string, string>> = {}): string {
  if (Object.hasOwn(labels, metric)) return labels[metric]!;
  if (Object.hasOwn(GENERIC, metric)) return GENERIC[metric]!;
  const syscall = /^syscalls\.(\w+)$/.exec(metric);
  if (syscall) return `${syscall[1]}() calls`;
  // Percentiles of a reported per-item field: latency_p50 -> "p50 latency", latency_max -> "max latency".
  const pct = /^(\w+?)_(p\d+|max)$/.exec(metric);
  if (pct) return `${pct[2]} ${labelOf(pct[1]!, labels)}`;
  return metric.replace(/[_.]+/g, ' ');
}

function labelOf(field: string, labels: Readonly<Record<string, string>>): string {
  return Object.hasOwn(labels, field) ? labels[field]! : field.replace(/_+/g, ' ');
}
