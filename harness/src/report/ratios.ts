/**
 * Summary ratios (manifest `summary.ratios`): each row's metric divided by a reference row's.
 * Shared by summary.md and the site's overview so both read a manifest the same way.
 */

import type { ParamValue } from '../formats/manifest-format.js';
import { formatParam } from '../lib/format.js';

export interface Ratio {
  metric: string;
  /** The reference variant (same parameters); absent = the row's own variant. */
  to?: string;
  /** Parameters changed for the reference (e.g. {"pool": 4}). */
  at?: Record<string, ParamValue>;
}

interface Row {
  variant: string;
  status: string;
  params: Record<string, ParamValue>;
}

/**
 * The row a ratio divides by. Against another variant only the summary's own parameters (and
 * `at`'s) must match, since the reference may not have the row's runtime version; against the
 * same variant every parameter must, the node version too. A row without one of those
 * parameters (a variant's `ignores`) has no reference.
 */
export function ratioReference<B extends Row>(
  row: B,
  ratio: Ratio,
  rows: readonly B[],
  summaryAt: Record<string, unknown>,
): B | undefined {
  const want: Record<string, ParamValue | undefined> = { ...row.params, ...(ratio.at ?? {}) };
  const keys = [
    ...new Set([...Object.keys(ratio.to === undefined ? row.params : summaryAt), ...Object.keys(ratio.at ?? {})]),
  ];
  return rows.find(
    (o) =>
      o.variant === (ratio.to ?? row.variant) &&
      o.status === 'ok' &&
      keys.every((k) => k in o.params && String(o.params[k]) === String(want[k])),
  );
}

/** "c", "pool 4 threads", or "c, bs 64 KiB": what the ratio is taken against. */
export function ratioTarget(ratio: Ratio, unitOf: (param: string) => string | undefined): string {
  return [ratio.to, ...Object.entries(ratio.at ?? {}).map(([k, v]) => `${k} ${formatParam(v, unitOf(k))}`)]
    .filter(Boolean)
    .join(', ');
}
