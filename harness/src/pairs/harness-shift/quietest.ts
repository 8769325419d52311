/**
 * Which of an experiment's candidate points a harness shift goes on measuring after its candidate
 * rounds: the one that settles soonest — how far its round's ratio (head / base) moved from one
 * round to the next, squared, times what a round of it costs. That is what the pooled interval's
 * width is made of: a point whose rounds stray by 10 % needs dozens of rounds to place a shift
 * within ±1.5 %; one that strays by 1 % needs six; and the rounds needed grow with the square of
 * the spread, while the rounds that fit in the deadline shrink with a round's seconds (a point
 * whose runtime starts slowly, or whose runs are long, costs several times a C point's round). The
 * spread of a point's own runs within one round cannot see it (a whole bench invocation lands in
 * one state or another: page placement, a cold cache's eviction), so it serves only as a floor.
 * The choice reads differences between a point's rounds, which a constant shift cancels, never
 * the ratio's level, so it cannot lean the shift either way. Pure.
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

/** Sample standard deviation of a point's per-round log(head / base); undefined below two rounds. */
export function roundToRoundSpread(logRatios: readonly number[]): number | undefined {
  const xs = logRatios.filter(Number.isFinite);
  if (xs.length < 2) return undefined;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

/** One side's runs in a round: their relative spread (relativeSpread) and how many there were. */
export interface SideRuns {
  spread: number;
  runs: number;
}

/**
 * The least a round's log-ratio can stray given its sides' runs alone: the median of n runs whose
 * relative spread is s strays by about 1.2533 s / √n, and a ratio adds both sides' variances.
 */
export function runsFloor(sides: readonly SideRuns[]): number | undefined {
  if (!sides.length || sides.some((s) => !(s.runs >= 1) || !Number.isFinite(s.spread))) return undefined;
  return Math.sqrt(sides.reduce((a, s) => a + (1.2533 * s.spread) ** 2 / s.runs, 0));
}

/**
 * A candidate's spread: its rounds' spread, never below what its runs alone imply (two rounds can
 * agree by luck); the runs' floor alone when it has one round; undefined when it has neither.
 */
export function candidateSpread(logRatios: readonly number[], sides: readonly SideRuns[]): number | undefined {
  const between = roundToRoundSpread(logRatios);
  const floor = runsFloor(sides);
  if (between === undefined) return floor;
  return floor === undefined ? between : Math.max(between, floor);
}

export interface Candidate {
  id: string;
  experiment: string;
  /** candidateSpread over its candidate rounds; undefined when it has none. */
  spread: number | undefined;
  /** Seconds a later round of it is expected to take, both sides; undefined when unknown. */
  seconds?: number | undefined;
}

/**
 * What a candidate costs to settle, in relative terms: spread² × seconds per round. Seconds count
 * only when every candidate of the experiment has them (else the spread alone orders them).
 */
export function settleCost(c: Candidate, withSeconds: boolean): number {
  if (c.spread === undefined) return Number.POSITIVE_INFINITY;
  return withSeconds ? c.spread ** 2 * c.seconds! : c.spread;
}

/**
 * The `per` candidates of each experiment that settle soonest (settleCost), in the order given
 * among equals; candidates without a spread come last (kept only when an experiment has nothing better).
 */
export function keepQuietest(candidates: readonly Candidate[], per: number): Set<string> {
  const by = new Map<string, Candidate[]>();
  for (const c of candidates) by.set(c.experiment, [...(by.get(c.experiment) ?? []), c]);
  const keep = new Set<string>();
  for (const list of by.values()) {
    const withSeconds = list.every((c) => c.seconds !== undefined && Number.isFinite(c.seconds) && c.seconds > 0);
    const key = (c: Candidate) => settleCost(c, withSeconds);
    for (const c of [...list].sort((a, b) => key(a) - key(b)).slice(0, per)) keep.add(c.id);
  }
  return keep;
}
