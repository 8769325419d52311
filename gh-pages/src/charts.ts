// The site's charts (uPlot): axes, the series palette, trends across commits, a metric over a parameter.
export { type AxisUnit, axisUnit, commitLabels, commitSplits, xAxis, yTickLabels } from './charts/axes.js';
export { color, type SeriesStyle, seriesStyle } from './charts/palette.js';
export { type TrendInput, type TrendLine, trendChart } from './charts/trend-chart.js';
export { loadCharts } from './charts/uplot-module.js';
export { wide, type XYInput, type XYLine, xyChart } from './charts/xy-chart.js';
