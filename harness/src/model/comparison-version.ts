/** comparison.json's schema version (the schema itself is in ./comparison.ts). */
export const COMPARISON_SCHEMA = 1;
