/**
 * Series styles: sixteen colours that stay apart from each other, each with its own dash from the
 * ninth on, so a chart of up to 64 lines never draws two alike. Reference lines (C, the pipe's
 * ceiling) are dark and neutral, drawn thin and dotted.
 */
const COLORS = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#bcbd22',
  '#393b79',
  '#7b4173',
  '#637939',
  '#e7969c',
  '#0b6e4f',
  '#f0b400',
  '#6baed6',
];
/** Solid for the first sixteen, then long dashes, dots, dash-dot. */
const DASHES: (number[] | undefined)[] = [undefined, [10, 4], [2, 3], [8, 3, 2, 3]];
const REFERENCE_COLORS = ['#111827', '#6b7280', '#a16207'];

export interface SeriesStyle {
  stroke: string;
  dash?: number[];
}

export function seriesStyle(i: number): SeriesStyle {
  const dash = DASHES[Math.floor(i / COLORS.length) % DASHES.length];
  return { stroke: COLORS[i % COLORS.length]!, ...(dash ? { dash } : {}) };
}

export function referenceStyle(i: number): SeriesStyle {
  return { stroke: REFERENCE_COLORS[i % REFERENCE_COLORS.length]!, dash: [2, 3] };
}

/** Recorded on the chart's box: tests check that no two lines of a chart look alike. */
export function recordStyles(el: HTMLElement, styles: readonly SeriesStyle[]): void {
  el.dataset.styles = JSON.stringify(styles.map((s) => `${s.stroke} ${(s.dash ?? []).join(',')}`));
}

/** Tick labels as drawn (uPlot paints them on a canvas), on the chart's box for tests and tools. */
export function recordTicks(el: HTMLElement, axis: 'x' | 'y', labels: string[]): string[] {
  el.dataset[`${axis}ticks`] = JSON.stringify(labels.filter(Boolean));
  return labels;
}
