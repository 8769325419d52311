/**
 * uPlot, evaluated only by the views that draw charts: the bundle keeps it behind this dynamic
 * import (its top level runs on the first import), and evaluating it builds its number and date
 * formats, several milliseconds of the main thread that Compare, Regressions and Runtimes, which
 * draw no chart, do not pay. The app starts it as a chart view starts (main.ts).
 */
import type uPlot from 'uplot';

let loaded: typeof uPlot | undefined;
let loading: Promise<void> | undefined;

/** Resolves once charts can be drawn; a view that draws any awaits it first. */
export function loadCharts(): Promise<void> {
  loading ??= import('uplot').then((m) => {
    loaded = m.default;
  });
  return loading;
}

/** The uPlot class, once loadCharts() has resolved. */
export function UPlot(): typeof uPlot {
  if (!loaded) throw new Error('a chart was drawn before loadCharts() resolved');
  return loaded;
}
