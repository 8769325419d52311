/**
 * What a comparison concludes about a metric, one name per meaning: the two tests answer
 * different questions, so their verdicts are different types. Free of zod: bundled into the site.
 */

export const TWO_SAMPLE_VERDICTS = ['slower', 'faster', 'unchanged'] as const;
/**
 * Two independent sets of samples (the quick look between stored runs, the site's Compare view):
 * a change is called or not; "unchanged" also covers "not shown to differ".
 */
export type TwoSampleVerdict = (typeof TWO_SAMPLE_VERDICTS)[number];

export const PAIRED_VERDICTS = [...TWO_SAMPLE_VERDICTS, 'inconclusive'] as const;
/**
 * Pairs decided sequentially (the PR diff, calibration): "unchanged" is shown (equivalence), and
 * a point whose pairs ran out before either was shown is "inconclusive".
 */
export type PairedVerdict = (typeof PAIRED_VERDICTS)[number];
