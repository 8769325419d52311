/**
 * What a reader calls a metric: "cost per read", "p50 latency", never the key `read_cost`. An
 * experiment's own metrics are labelled in its manifest (`labels`); the harness's own (wall time,
 * memory, syscalls, fitted start-up and steady throughput) in the metric catalogue
 * (model/metrics.ts); percentiles of a reported field here. Pure: bundled into the site.
 */
import { harnessMetric } from '../model/metrics.js';

/** A human label for a metric; `labels` are the experiment's (manifest) labels. */
export function metricLabel(metric: string, labels: Readonly<Record<string, string>> = {}): string {
  if (Object.hasOwn(labels, metric)) return labels[metric]!;
  const spec = harnessMetric(metric);
  if (spec) return spec.label;
  // Percentiles of a reported per-item field: latency_p50 -> "p50 latency", latency_max -> "max latency".
  const pct = /^(\w+?)_(p\d+|max)$/.exec(metric);
  if (pct) return `${pct[2]} ${labelOf(pct[1]!, labels)}`;
  return metric.replace(/[_.]+/g, ' ');
}

function labelOf(field: string, labels: Readonly<Record<string, string>>): string {
  return Object.hasOwn(labels, field) ? labels[field]! : field.replace(/_+/g, ' ');
}
