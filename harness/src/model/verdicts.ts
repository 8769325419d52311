/**
 * What a comparison concludes about a metric, one name per meaning: the two tests answer
 * different questions, so their verdicts are different types. Free of zod: bundled into the site.
 */

export const TWO_SAMPLE_VERDICTS = ['slower', 'faster', 'unchanged', 'inconclusive', 'untestable'] as const;
/**
 * Two independent sets of samples (the quick look between stored runs, the site's Compare view):
 * a change is called; or "unchanged" (the interval inside the margin); or "inconclusive" (neither);
 * or "untestable" (too few samples to call: their count cannot reach significance at all).
 */
export type TwoSampleVerdict = (typeof TWO_SAMPLE_VERDICTS)[number];

export const PAIRS_VERDICTS = ['slower', 'faster', 'unchanged', 'inconclusive'] as const;
/**
 * Pairs decided sequentially (the PR diff, calibration): "unchanged" is shown (equivalence), and
 * a point whose pairs ran out before either was shown is "inconclusive".
 */
export type PairsVerdict = (typeof PAIRS_VERDICTS)[number];

/** How a verdict reads to a person (compare's table, the site's Compare view). */
export const VERDICT_TEXT: Record<TwoSampleVerdict, string> = {
  slower: 'slower',
  faster: 'faster',
  unchanged: 'unchanged',
  inconclusive: 'inconclusive',
  untestable: 'too few samples to call',
};
