/**
 * Splitting a paired diff's time budget between its points. Each round, every undecided point asks
 * for the pairs its next look needs (decideSequential's `more`); pairs cost different times per
 * point (a Node point's pair takes ten times a C point's). The round's seconds are shared
 * max-min fairly: a point asking for less than an equal share gets all it asks, and what it
 * leaves is shared among the others; a point asking for more gets its share in whole blocks of
 * two pairs (then its next look is cut short and becomes its last). Pure, so the runner's
 * schedule is tested without measuring anything.
 */
export interface PairRequest {
  /** Pairs the point asks for. */
  pairs: number;
  /** Seconds one pair of this point takes (both sides, warm-ups excluded), measured so far. */
  secondsPerPair: number;
}

/** Pairs granted to each request (same order), within `roundSeconds` in total (what is left of the tier's share). */
export function shareBudget(requests: readonly PairRequest[], roundSeconds: number): number[] {
  requests.forEach((r, i) => {
    if (!(Number.isInteger(r.pairs) && r.pairs >= 0) || !(r.secondsPerPair > 0 && Number.isFinite(r.secondsPerPair))) {
      throw new RangeError(
        `request ${i + 1}: pairs must be a non-negative integer and secondsPerPair a positive number (got ${r.pairs}, ${r.secondsPerPair})`,
      );
    }
  });
  const granted = requests.map(() => 0);
  let unspent = Math.max(0, roundSeconds);
  // Cheapest requests first: each that fits in an equal share of what is left gets all it asks.
  const order = requests
    .map((_, i) => i)
    .sort(
      (a, b) => requests[a]!.pairs * requests[a]!.secondsPerPair - requests[b]!.pairs * requests[b]!.secondsPerPair,
    );
  let k = 0;
  for (; k < order.length; k++) {
    const i = order[k]!;
    const cost = requests[i]!.pairs * requests[i]!.secondsPerPair;
    const equalShare = unspent / (order.length - k);
    if (cost > equalShare) break;
    granted[i] = requests[i]!.pairs;
    unspent -= cost;
  }
  // The rest get an equal share each, in whole blocks of two pairs (a single pair when that is all).
  const rest = order.slice(k);
  for (const i of rest) {
    const equalShare = unspent / rest.length;
    const affordable = Math.floor(equalShare / requests[i]!.secondsPerPair + 1e-9);
    granted[i] = Math.min(requests[i]!.pairs, affordable >= 2 ? affordable - (affordable % 2) : affordable);
  }
  return granted;
}
