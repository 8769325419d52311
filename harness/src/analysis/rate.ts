/** A rate of k events in n trials with its 95% Wilson interval (calibration's false positives and power). */

export interface Rate {
  rate: number;
  /** 95% Wilson interval of the rate. */
  interval: [number, number];
  trials: number;
}

/** 95% Wilson score interval of k successes in n trials. */
export function wilsonInterval(k: number, n: number, z = 1.959964): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const den = 1 + (z * z) / n;
  const mid = (p + (z * z) / (2 * n)) / den;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / den;
  return [Math.max(0, mid - half), Math.min(1, mid + half)];
}

export function rateOf(k: number, n: number): Rate {
  return { rate: n ? k / n : 0, interval: wilsonInterval(k, n), trials: n };
}
