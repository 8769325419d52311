/**
 * What a comparison concludes about a metric or a point: its verdict. One module for every
 * verdict's labels, one name per meaning: the tests answer different questions, so their verdicts
 * are different types. Readers (the schemas, the comment, the site) take the labels from here.
 * Free of zod: bundled into the site.
 */

export const TWO_SAMPLE_VERDICTS = ['slower', 'faster', 'unchanged', 'inconclusive', 'untestable'] as const;
/**
 * Two independent sets of samples (the quick look between stored runs, the site's Compare view):
 * "slower" or "faster" (a significant change beyond the margin); or "unchanged" (the interval
 * inside the margin); or "inconclusive" (neither); or "untestable" (too few samples: their count
 * cannot reach significance at all).
 */
export type TwoSampleVerdict = (typeof TWO_SAMPLE_VERDICTS)[number];

export const PAIRS_VERDICTS = ['slower', 'faster', 'unchanged', 'inconclusive'] as const;
/**
 * Pairs judged sequentially (the paired diff, `pairs`, and calibration): "unchanged" is shown
 * (equivalence), and a point whose pairs ran out before either was shown is "inconclusive".
 */
export type PairsVerdict = (typeof PAIRS_VERDICTS)[number];

const CALIBRATED_VERDICTS = [...TWO_SAMPLE_VERDICTS, 'uncalibrated'] as const;
/**
 * The quick look judged only against this machine's calibrated thresholds (the site's Compare
 * view): a two-sample verdict where the metric has a threshold, "uncalibrated" where it has none
 * (two unpaired runs differ by run-to-run noise their own samples do not show).
 */
export type CalibratedVerdict = (typeof CALIBRATED_VERDICTS)[number];

/**
 * A point's counted work on both sides (exact counts, counts/count-verdict.ts): "changed"
 * beyond the tolerance, the "same" within it, or "not-deterministic" (a side's repeats disagree).
 */
export const WORK_VERDICTS = ['changed', 'same', 'not-deterministic'] as const;

/** How a verdict reads to a person (compare's table, the site's Compare view). */
export const VERDICT_TEXT: Record<TwoSampleVerdict, string> = {
  slower: 'slower',
  faster: 'faster',
  unchanged: 'unchanged',
  inconclusive: 'inconclusive',
  untestable: 'too few samples to call',
};
