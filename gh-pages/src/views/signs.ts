/**
 * One sign convention on the whole site, as in the CLI and the PR comment: a change is written
 * "+" when it is worse (slower, more memory, less throughput). Ratios are oriented that way
 * first; an interval is printed as ratios, so it can never read below −100%.
 */
import type { Direction } from '../../../harness/src/model/metrics.js';

/** A ratio oriented so that > 1 is worse, from after/before and the metric's direction. */
export const worseRatio = (ratio: number, direction: Direction) => (direction === 'bigger' ? 1 / ratio : ratio);

export function worseInterval(ci: readonly [number, number], direction: Direction): [number, number] {
  return direction === 'bigger' ? [1 / ci[1], 1 / ci[0]] : [ci[0], ci[1]];
}

/** "+12.5%" (worse) or "−3.0%" (better); a ratio that is not positive has no percentage. */
export function pct(r: number): string {
  if (!Number.isFinite(r) || r <= 0) return '—';
  return `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;
}

/** "×0.962 … ×1.081"; a bound that is not a positive ratio (a fit's noise) is left open. */
export function ratioInterval(ci: readonly [number, number]): string {
  const b = (r: number) => (Number.isFinite(r) && r > 0 ? `×${r.toFixed(3)}` : '?');
  return `${b(ci[0])} … ${b(ci[1])}`;
}

export const SIGN_LEGEND = 'change: + = worse (slower, more memory, less throughput), − = better';
