import type { Params } from './results.js';

/** Parameter selectors in manifests: {"bs": 65536} or {"bs": [4096, 65536]}. */
export type At = Record<string, number | string | (number | string)[]>;

/**
 * Whether a benchmark's parameters match a selector. `absent: "matches"` is for choosing rows
 * to show: a parameter the benchmark does not take (a variant's `ignores`) then does not
 * exclude it. Plans and checks keep the default, where a missing parameter never matches.
 */
export function matchesAt(b: { params: Params }, at: At, absent: 'matches' | 'fails' = 'fails'): boolean {
  return Object.entries(at).every(
    ([k, want]) =>
      (absent === 'matches' && !(k in b.params)) ||
      (Array.isArray(want) ? want.map(String) : [String(want)]).includes(String(b.params[k])),
  );
}
