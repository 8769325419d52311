/**
 * A fit's span that measured no cost per operation (./count-rule.ts spanOf), in words: its two totals and
 * why they make no cost. Pure; the caller escapes.
 */
import { groupDigits } from '../lib/format.js';
import type { Unmeasurable } from './count-rule.js';

/**
 * "instructions per read not measurable at this span: 137,259 instructions at 256 reads and 137,100 at
 * 1,024 (the larger size counted fewer)": two totals that make no cost, said as totals.
 */
export function unmeasurableText(u: Unmeasurable | { why: 'negative' }, op: string): string {
  const head = `instructions per ${op} not measurable at this span`;
  if (!('small' in u)) return `${head} (its count per ${op} was negative)`;
  const why =
    u.why === 'negative'
      ? 'the larger size counted no more'
      : `a difference within the repeats’ spread of ${groupDigits(Math.round(u.spread))}`;
  const at = (e: Unmeasurable['small']) =>
    `${groupDigits(Math.round(e.instructions))} instructions at ${groupDigits(e.ops)} ${op}s`;
  return `${head}: ${at(u.small)} and ${at(u.large)} (${why})`;
}
