/** Human formatting of metric values by unit; pure, shared by summaries and comparisons. */
export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '—';
  switch (unit) {
    case 's': {
      const abs = Math.abs(value);
      if (abs >= 1) return `${value.toFixed(3)} s`;
      if (abs >= 1e-3) return `${(value * 1e3).toFixed(2)} ms`;
      return `${(value * 1e6).toFixed(1)} µs`;
    }
    case 'B': {
      const abs = Math.abs(value);
      if (abs >= 2 ** 30) return `${(value / 2 ** 30).toFixed(2)} GiB`;
      if (abs >= 2 ** 20) return `${(value / 2 ** 20).toFixed(1)} MiB`;
      if (abs >= 2 ** 10) return `${(value / 2 ** 10).toFixed(1)} KiB`;
      return `${value} B`;
    }
    case 'ns': {
      const abs = Math.abs(value);
      if (abs >= 1e6) return `${(value / 1e6).toFixed(2)} ms`;
      if (abs >= 1e3) return `${(value / 1e3).toFixed(abs >= 1e5 ? 0 : abs >= 1e4 ? 1 : 2)} µs`;
      return `${value.toFixed(abs >= 100 ? 0 : 1)} ns`;
    }
    case 'MB/s':
      return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} MB/s`;
    default:
      // Large rates (lines/s) read better as whole numbers than in exponent notation.
      if (!Number.isInteger(value) && Math.abs(value) >= 1000) return `${groupDigits(Math.round(value))} ${unit}`;
      return Number.isInteger(value)
        ? `${groupDigits(value)}${unit === 'calls' || unit === 'count' ? '' : ` ${unit}`}`
        : `${value.toPrecision(4)} ${unit}`;
  }
}

/**
 * An integer with its thousands separated by commas ("1,045"), as toLocaleString('en-US') writes
 * it, without starting ICU (the site formats values before its first chart; see compare-text.ts).
 */
export function groupDigits(integer: number): string {
  return BigInt(integer)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function formatRatio(r: number): string {
  return Number.isFinite(r) ? `${r.toFixed(2)}x` : '—';
}

/** Parameter values that read naturally: 65536 bytes -> 64 KiB. */
export function formatParam(value: number | string, unit?: string): string {
  if (unit === 'B' && typeof value === 'number') return formatValue(value, 'B').replace('.0 ', ' ');
  return String(value);
}

/** "45s", "2m05s", "1h02m": rounded to whole seconds first, so 119.6 s is 2m00s, never 1m60s. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return `${total}s`;
  const m = Math.floor(total / 60);
  if (m < 60) return `${m}m${String(total % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/**
 * A confidence level as a percentage with the digits it needs: 0.95 "95", 0.975 "97.5",
 * 0.9995 "99.95" — never "100", which no interval from finite pairs has.
 */
export function formatConfidence(c: number): string {
  const pct = c * 100;
  for (let d = 0; d < 4; d++) {
    const s = pct.toFixed(d);
    if (Number(s) < 100 && Math.abs(Number(s) - pct) <= 0.1 * (100 - pct)) return s;
  }
  return pct >= 100 ? '100' : pct.toFixed(4);
}

/** "1 round", "3 rounds": a count with its noun. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
