// Every metric a reader sees has a human label: the manifests' own, the harness's for the rest.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metricLabel } from '../../src/report/metric-labels.js';

const PROGRAMS = join(import.meta.dirname, '..', '..', '..', 'programs');

describe('metricLabel', () => {
  it('names the harness metrics, percentiles and syscalls', () => {
    expect(metricLabel('wall_time')).toBe('wall time');
    expect(metricLabel('max_rss')).toBe('peak memory (RSS)');
    expect(metricLabel('latency_p50')).toBe('p50 latency');
    expect(metricLabel('latency_max', { latency: 'completion time' })).toBe('max completion time');
    expect(metricLabel('syscalls.read')).toBe('read() calls');
    expect(metricLabel('read_cost', { read_cost: 'cost per read' })).toBe('cost per read');
    expect(metricLabel('constructor')).toBe('constructor');
  });

  it("labels every experiment's reported, rate and fitted metrics in its manifest", () => {
    for (const exp of readdirSync(PROGRAMS, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      const m = JSON.parse(readFileSync(join(PROGRAMS, exp.name, 'manifest.json'), 'utf8'));
      const reported = Object.entries(m.reports ?? {}).filter(([, r]) => (r as { metric?: boolean }).metric !== false);
      const own = [...reported.map(([k]) => k), ...Object.keys(m.rates ?? {}), ...(m.fit ? [m.fit.cost] : [])];
      for (const key of own) expect(Object.keys(m.labels ?? {}), `${exp.name}: ${key}`).toContain(key);
    }
  });
});
