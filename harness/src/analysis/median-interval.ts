/**
 * A distribution-free 95% interval for a median from its samples: the order statistics whose
 * ranks a Binomial(n, 1/2) puts 2.5% outside on either side. Below 6 samples no such pair
 * reaches 95%, so the interval is the samples' whole range (and says so). Pure.
 */
export function medianInterval(samples: readonly number[]): { low: number; high: number; exact: boolean } | undefined {
  const xs = samples.filter(Number.isFinite).sort((a, b) => a - b);
  const n = xs.length;
  if (!n) return undefined;
  if (n < 6) return { low: xs[0]!, high: xs[n - 1]!, exact: false };
  // Cumulative binomial(n, 1/2) from the left; the largest k with P(X < k) <= 2.5%.
  let p = 0.5 ** n;
  let cdf = p;
  let k = 0;
  while (k + 1 < n && cdf <= 0.025) {
    k++;
    p = (p * (n - k + 1)) / k;
    cdf += p;
  }
  const lo = Math.max(0, k - 1);
  return { low: xs[lo]!, high: xs[n - 1 - lo]!, exact: true };
}
