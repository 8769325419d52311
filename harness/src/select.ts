import type { Params } from './results/schema.js';

/** Parameter selectors in manifests: {"bs": 65536} or {"bs": [4096, 65536]}. */
export type At = Record<string, number | string | (number | string)[]>;

export function matchesAt(b: { params: Params }, at: At): boolean {
  return Object.entries(at).every(([k, want]) => (Array.isArray(want) ? want.map(String) : [String(want)]).includes(String(b.params[k])));
}
