/** Release entries and changes for the release store's tests. */
import type { ReleaseChange, ReleaseEntry } from '../../src/formats/release-store-format.js';

/** The series the release tests follow: Node's readSync into a 64 KiB buffer, its cost per read. */
export const WC_READSYNC = {
  experiment: 'wc',
  variant: 'readsync',
  params: { bs: 65536 },
  metric: 'read_cost',
  unit: 'ns',
  direction: 'smaller' as const,
};

export function releaseEntry(version: string, cost: number, over: Partial<ReleaseEntry> = {}): ReleaseEntry {
  const v = (variant: string, value: number, reference: boolean) => ({
    experiment: 'wc',
    variant,
    params: { bs: 65536 },
    metric: 'read_cost',
    unit: 'ns',
    direction: 'smaller' as const,
    value,
    reference,
  });
  return {
    family: 'node',
    line: `node${version.split('.')[0]}`,
    version,
    date: '2024-07-08T00:00:00.000Z',
    profile: 'quick',
    measured: '2026-11-24T12:00:00.000Z',
    commit: 'a'.repeat(40),
    experiments: [],
    problems: [],
    values: [v('readsync', cost, false), v('c', 9000, true)],
    ...over,
  };
}

export function releaseChange(from: string, to: string, over: Partial<ReleaseChange> = {}): ReleaseChange {
  return {
    family: 'node',
    line: `node${from.split('.')[0]}`,
    ...WC_READSYNC,
    from,
    to,
    fromDate: '2024-07-08T00:00:00.000Z',
    toDate: '2024-07-17T00:00:00.000Z',
    ratio: 1.18,
    status: 'confirmed',
    text: `node ${from} → ${to}: wc readsync bs 65536 read_cost +18%`,
    ...over,
  };
}

/** An exact counter change of wc readsync's 64 KiB point: `metric` from → to calls per run. */
export function counterChange(
  metric: string,
  from: number,
  to: number,
  over: Partial<ReleaseChange> = {},
): ReleaseChange {
  return releaseChange('20.2.0', '20.3.0', {
    kind: 'counter',
    metric,
    unit: 'calls',
    ratio: to / from,
    counts: { from, to },
    text: `node 20.2.0 → 20.3.0: wc readsync bs 65536 ${metric}: ${from} → ${to} per run`,
    ...over,
  });
}
