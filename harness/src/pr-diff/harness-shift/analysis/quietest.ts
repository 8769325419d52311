/**
 * Which of an experiment's candidate points a harness shift goes on measuring after its first
 * round: the quietest, by the spread of each point's own runs in that round. A point whose runs
 * scatter by 40 % needs hundreds of rounds to place a shift within ±1.5 %; one that scatters by
 * 2 % needs a few. The choice reads how much a point's runs vary, never how the two harnesses
 * compare, so it cannot lean the shift either way. Pure.
 */

/** Robust relative spread of one side's runs: 1.4826 × MAD / median; undefined with fewer than 3 runs or a zero median. */
export function relativeSpread(samples: readonly number[]): number | undefined {
  const xs = samples.filter(Number.isFinite).sort((a, b) => a - b);
  if (xs.length < 3) return undefined;
  const med = median(xs);
  if (med === 0) return undefined;
  const dev = xs.map((x) => Math.abs(x - med)).sort((a, b) => a - b);
  return (1.4826 * median(dev)) / Math.abs(med);
}

function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Candidate {
  id: string;
  experiment: string;
  /** The larger of its two sides' spreads in the first round; undefined when it has none. */
  spread: number | undefined;
}

/**
 * The `per` quietest candidates of each experiment, in the order given among equals; candidates
 * without a spread come last (they are kept only when an experiment has nothing better).
 */
export function keepQuietest(candidates: readonly Candidate[], per: number): Set<string> {
  const by = new Map<string, Candidate[]>();
  for (const c of candidates) by.set(c.experiment, [...(by.get(c.experiment) ?? []), c]);
  const keep = new Set<string>();
  const key = (c: Candidate) => c.spread ?? Number.POSITIVE_INFINITY;
  for (const list of by.values())
    for (const c of [...list].sort((a, b) => key(a) - key(b)).slice(0, per)) keep.add(c.id);
  return keep;
}
