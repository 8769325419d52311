/** Parameter selectors in manifests: {"bs": 65536} or {"bs": [4096, 65536]}. */
export type At = Record<string, number | string | (number | string)[]>;

/**
 * Whether a benchmark's parameters match a selector. `absent: "matches"` is for choosing rows
 * to show: a parameter the benchmark does not take (a variant's `ignores`) then does not
 * exclude it. Plans and checks keep the default, where a missing parameter never matches.
 */
export function matchesAt(
  b: { params: Readonly<Record<string, number | string>> },
  at: At,
  absent: 'matches' | 'fails' = 'fails',
): boolean {
  return Object.entries(at).every(
    ([k, want]) =>
      (absent === 'matches' && !(k in b.params)) ||
      (Array.isArray(want) ? want.map(String) : [String(want)]).includes(String(b.params[k])),
  );
}

/** The parameter that says which JavaScript runtime ran a point (plan/plan.ts). */
export const RUNTIME_PARAM = 'runtime';

/** A parameter as labels show it: "bs 65536", but the runtime by its name alone ("node22"). */
export function paramText(k: string, v: number | string): string {
  return k === RUNTIME_PARAM ? String(v) : `${k} ${v}`;
}

/**
 * "variant (runtime, k v, ...)": the runtime first, and left out where the variant's name says it
 * already (just-sync under just, the Bun-only variant bun).
 */
export function labelWith(
  variant: string,
  parts: readonly [string, number | string][],
  extra: readonly string[] = [],
): string {
  const redundant = (v: number | string) => variant === String(v) || variant.startsWith(`${v}-`);
  const ordered = [
    ...parts.filter(([k]) => k === RUNTIME_PARAM && !redundant(parts.find((p) => p[0] === k)![1])),
    ...parts.filter(([k]) => k !== RUNTIME_PARAM),
  ];
  const all = [...ordered.map(([k, v]) => paramText(k, v)), ...extra];
  return all.length ? `${variant} (${all.join(', ')})` : variant;
}
