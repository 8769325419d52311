/** How many of a chart's lines are drawn, kept on its box as the legend shows and hides them. */
import type uPlot from 'uplot';

/**
 * Records `data-shown` (lines drawn) and `data-lines` (lines in the legend) on the chart's box when
 * it is made and whenever a legend click shows or hides a line: tests and tools read them.
 */
export function shownRecorder(el: HTMLElement): uPlot.Plugin {
  const record = (u: uPlot) => {
    const lines = u.series.slice(1);
    el.dataset.shown = String(lines.filter((s) => s.show !== false).length);
    el.dataset.lines = String(lines.length);
  };
  return { hooks: { ready: record, setSeries: record } };
}

/** Whether the chart's line `i` (0-based, the x series left out) is drawn now. */
export const isShown = (u: uPlot, i: number) => u.series[i + 1]?.show !== false;
