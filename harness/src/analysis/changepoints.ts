/**
 * Change-point detection on a benchmark's history: binary segmentation on the log of the values
 * (so a 10% step means the same at 1 ms and at 1 s). A split is accepted when the means on either
 * side differ by more than the larger of
 *   - MIN_SHIFT (3%): smaller steps are within the day-to-day drift of benchmark machines, and
 *   - NOISE_FACTOR (4) x the series' noise, estimated robustly as 1.4826 x the median absolute
 *     difference between consecutive points / sqrt(2) (differences cancel the steps themselves),
 * and each side has at least MIN_SEGMENT points. A calibrated per-benchmark threshold (from
 * `npm run calibrate`) can raise the minimum shift. Null values (missing runs) are skipped.
 */
export const MIN_SHIFT = 0.03;
const NOISE_FACTOR = 4;
export const MIN_SEGMENT = 3;

export interface ChangePoint {
  /** Index into the series of the first point after the change. */
  index: number;
  /** after / before, of the segment medians. */
  ratio: number;
}

function med(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function noiseOf(logs: number[]): number {
  if (logs.length < 3) return 0;
  const diffs = logs.slice(1).map((v, i) => Math.abs(v - logs[i]!));
  return (1.4826 * med(diffs)) / Math.SQRT2;
}

export function detectChangePoints(
  values: readonly (number | null)[],
  minShift = MIN_SHIFT,
  noiseFactor = NOISE_FACTOR,
): ChangePoint[] {
  const idx: number[] = [];
  const logs: number[] = [];
  values.forEach((v, i) => {
    if (v !== null && v > 0 && Number.isFinite(v)) {
      idx.push(i);
      logs.push(Math.log(v));
    }
  });
  const threshold = Math.max(Math.log1p(minShift), noiseFactor * noiseOf(logs));
  const found: number[] = [];
  // Prefix sums make every segment mean O(1): years of history stay fast in the browser.
  const prefix = new Float64Array(logs.length + 1);
  for (let i = 0; i < logs.length; i++) prefix[i + 1] = prefix[i]! + logs[i]!;
  const mean = (a: number, b: number) => (prefix[b]! - prefix[a]!) / (b - a);
  const split = (a: number, b: number) => {
    if (b - a < 2 * MIN_SEGMENT) return;
    let best = -1;
    let bestGain = 0;
    for (let k = a + MIN_SEGMENT; k <= b - MIN_SEGMENT; k++) {
      const d = Math.abs(mean(a, k) - mean(k, b));
      // Weight by segment sizes (a CUSUM-like statistic) so edges do not win by chance.
      const gain = d * Math.sqrt(((k - a) * (b - k)) / (b - a));
      if (gain > bestGain) {
        bestGain = gain;
        best = k;
      }
    }
    if (best < 0 || Math.abs(mean(a, best) - mean(best, b)) <= threshold) return;
    found.push(best);
    split(a, best);
    split(best, b);
  };
  split(0, logs.length);
  found.sort((x, y) => x - y);
  return found.map((k, j) => {
    const prev = j === 0 ? 0 : found[j - 1]!;
    const next = j + 1 < found.length ? found[j + 1]! : logs.length;
    const before = Math.exp(med(logs.slice(prev, k)));
    const after = Math.exp(med(logs.slice(k, next)));
    return { index: idx[k]!, ratio: after / before };
  });
}
