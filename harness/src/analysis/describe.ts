import { max, mean, median, min, sampleStandardDeviation } from 'simple-statistics';
import type { Stats } from '../formats/results-format.js';

export function describe(samples: readonly number[]): Stats {
  const xs = [...samples];
  return {
    n: xs.length,
    mean: mean(xs),
    median: median(xs),
    stddev: xs.length > 1 ? sampleStandardDeviation(xs) : 0,
    min: min(xs),
    max: max(xs),
  };
}
