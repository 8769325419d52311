/** comparison.json's schema versions (the documents themselves: ./quick-look-document.ts and ./pairs-document.ts). */
export const COMPARISON_SCHEMA = 1;

/**
 * The paired PR diff's comparison.json. 3 added workload-changed points measured in pairs, the
 * other timed metrics judged at the diff-wide level and the first line's counts of every affected
 * point. Readers accept every version from PAIRED_COMPARISON_OLDEST on: the PR-comment workflow
 * reads an artifact a pull request's harness wrote with the default branch's reader, so a newer
 * harness writes at the version the reader of its base knows (pairs/report/down-level.ts).
 */
export const PAIRED_COMPARISON_SCHEMA = 3;
export const PAIRED_COMPARISON_OLDEST = 2;
