/** The metric a view opens on: the experiment's headline (its Overview metric), as the Overview shows it. */
export function headlineMetric(
  overview: unknown,
  available: readonly string[],
  fallback: readonly string[] = ['wall_time'],
): string | undefined {
  const spec = overview as { metric?: string | string[] } | undefined;
  const wanted = [...(Array.isArray(spec?.metric) ? spec.metric : spec?.metric ? [spec.metric] : []), ...fallback];
  return wanted.find((m) => available.includes(m)) ?? available[0];
}

/** The parameter the Overview draws on its x axis, when the experiment has one. */
export function overviewAxis(overview: unknown): string | undefined {
  return (overview as { x?: string } | undefined)?.x;
}
