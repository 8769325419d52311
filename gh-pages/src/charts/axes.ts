/**
 * Axes: one unit per y axis (named once, in its label), x ticks placed where they mean something
 * (the measured parameter values, powers of two for bytes, whole commits), every label unique.
 */
import { formatParam } from '../../../harness/src/lib/format.js';

export interface AxisUnit {
  label: string;
  scale: number;
  format: (v: number) => string;
}

const SCALED: Record<string, [number, string][]> = {
  s: [
    [1, 's'],
    [1e-3, 'ms'],
    [1e-6, 'µs'],
    [1e-9, 'ns'],
  ],
  ms: [
    [1e3, 's'],
    [1, 'ms'],
    [1e-3, 'µs'],
  ],
  ns: [
    [1e6, 'ms'],
    [1e3, 'µs'],
    [1, 'ns'],
  ],
  B: [
    [2 ** 30, 'GiB'],
    [2 ** 20, 'MiB'],
    [2 ** 10, 'KiB'],
    [1, 'B'],
  ],
  'MB/s': [
    [1e3, 'GB/s'],
    [1, 'MB/s'],
  ],
  // A run's count is hundreds of millions; one per read of C is tens.
  instructions: [
    [1e9, 'G instructions'],
    [1e6, 'M instructions'],
    [1e3, 'k instructions'],
    [1, 'instructions'],
  ],
};

/** The y axis: a unit chosen from the largest value it shows, plain numbers in that unit. */
export function axisUnit(values: readonly (number | null | undefined)[], unit: string): AxisUnit {
  const max = Math.max(
    0,
    ...values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)).map(Math.abs),
  );
  const steps = SCALED[unit];
  const [scale, label] = steps?.find(([f]) => max >= f) ?? steps?.at(-1) ?? [1, unit];
  const format = (v: number) => {
    const x = v / scale;
    const a = Math.abs(x);
    return a === 0 ? '0' : a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : a >= 1 ? x.toFixed(2) : x.toPrecision(2);
  };
  return { label, scale, format };
}

/**
 * A tick uPlot left out to make room (a crowded log axis gives null for it): labelled '', never
 * "null" or an exception.
 */
export type Tick = number | null | undefined;
const real = (t: Tick): t is number => typeof t === 'number' && Number.isFinite(t);

/** Tick labels of a y axis, unique: more digits until neighbours differ, log axes at decades. */
export function yTickLabels(ticks: readonly Tick[], axis: AxisUnit, log: boolean): string[] {
  const decades = ticks.filter(isDecade);
  const shown = log && decades.length >= 2 ? (t: Tick) => isDecade(t) : real;
  for (const digits of [0, 1, 2, 3, 4]) {
    const labels = ticks.map((t) =>
      real(t) && shown(t) ? (digits === 0 ? axis.format(t) : (t / axis.scale).toPrecision(digits + 2)) : '',
    );
    const used = labels.filter(Boolean);
    if (new Set(used).size === used.length) return labels;
  }
  return ticks.map((t) => (real(t) ? (t / axis.scale).toPrecision(6) : ''));
}

/** A parameter's tick labels: '' where uPlot left a tick out. */
export function xTickLabels(ticks: readonly Tick[], format: (v: number) => string): string[] {
  return ticks.map((t) => (real(t) ? format(t) : ''));
}

function isDecade(v: Tick): boolean {
  if (!real(v) || v <= 0) return false;
  const e = Math.log10(v);
  return Math.abs(e - Math.round(e)) < 1e-9;
}

/**
 * The x axis of a parameter: ticks at the measured values (thinned to fit), bytes written as sizes
 * (4 KiB, 64 KiB), counts as whole numbers; the label names the parameter and a unit that is not
 * already its name (never "files (files)").
 */
export function xAxis(
  param: string,
  xs: readonly number[],
  unit: string | undefined,
  width: number,
): { label: string; format: (v: number) => string; splits: number[] } {
  const format = (v: number) =>
    unit === 'B' ? formatParam(v, 'B') : Number.isInteger(v) ? String(v) : v.toPrecision(3);
  const fit = Math.max(2, Math.floor(width / 70));
  const step = Math.ceil(xs.length / fit);
  const splits = xs.filter((_, i) => i % step === 0 || i === xs.length - 1);
  const label = !unit || unit === 'B' || unit === param ? param : `${param} (${unit})`;
  return { label, format, splits };
}

/** Commit ticks: whole commits only, as many as fit. */
export function commitSplits(count: number, min: number, max: number, width: number): number[] {
  const lo = Math.max(0, Math.ceil(min));
  const hi = Math.min(count - 1, Math.floor(max));
  const fit = Math.max(2, Math.floor(width / 90));
  const step = Math.max(1, Math.ceil((hi - lo + 1) / fit));
  const splits: number[] = [];
  for (let i = lo; i <= hi; i += step) splits.push(i);
  return splits;
}

/**
 * Commit tick labels: the date, with the time when the ticks share a day, and the commit's order
 * when they share a minute, so no two ticks read alike.
 */
export function commitLabels(dates: readonly string[], all: readonly Tick[]): string[] {
  const ticks = all.filter(real);
  const at = (i: number) => dates[Math.round(i)] ?? '';
  const day = (i: number) => at(i).slice(5, 10);
  const minute = (i: number) => `${at(i).slice(5, 10)} ${at(i).slice(11, 16)}`;
  const unique = (f: (i: number) => string) => new Set(ticks.map(f)).size === ticks.length;
  const label = unique(day) ? day : unique(minute) ? minute : (i: number) => `#${Math.round(i) + 1} ${day(i)}`;
  return all.map((t) => (real(t) ? label(t) : ''));
}
