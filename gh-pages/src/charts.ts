// The site's charts (uPlot) as the views draw them: trends across commits, a metric over a parameter.
export { trendChart } from './charts/trend-chart.js';
export { loadCharts } from './charts/uplot-module.js';
export { wide, xyChart } from './charts/xy-chart.js';
