/**
 * Text in code-point order, for sorting ids, keys and labels. The same on every machine and in
 * every locale; and unlike localeCompare it does not start ICU, whose start-up a fresh browser
 * page pays on its main thread at the first call (the site's first chart waits for it; docs/pages.md).
 */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
