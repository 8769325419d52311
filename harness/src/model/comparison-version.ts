/** comparison.json's schema versions and kinds (the documents themselves: ./quick-look-document.ts and ./pairs-document.ts). */

/**
 * The two documents a comparison.json can be, named by the command that writes each. From schema
 * KIND_SINCE on a document says which it is in `kind`; before it, the number told them apart (1:
 * the quick look; 2 and 3: pairs). So the numbers stay one sequence for both: a reader from before
 * `kind` refuses either newer document as newer than it knows, never reads one as the other.
 */
export const COMPARISON_KINDS = ['quick-look', 'pairs'] as const;
export type ComparisonKind = (typeof COMPARISON_KINDS)[number];
export const KIND_SINCE = 4;

/** `npm run compare`'s quick look. 4 added `kind`; readers take 1 as it is. */
export const COMPARISON_SCHEMA = 4;
export const COMPARISON_OLDEST = 1;

/**
 * The paired diff's (`npm run pairs`) comparison.json. 3 added workload-changed points measured in pairs, the
 * other timed metrics judged at the diff-wide level and the first line's counts of every affected
 * point; 4 added `kind`; 5 the base counts taken from the trend store (`work.baseStored`,
 * `counts.storedBase`). Readers accept every version from PAIRS_COMPARISON_OLDEST on: the
 * PR-comment workflow reads an artifact a pull request's harness wrote with the default branch's
 * reader, so a newer harness writes at the version the reader of its base knows
 * (pairs/report/down-level.ts).
 */
export const PAIRS_COMPARISON_SCHEMA = 5;
export const PAIRS_COMPARISON_OLDEST = 2;
