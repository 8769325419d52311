// The site's data layer: the store's file types, the loader, and series shaping (one file each).
export { DataError, Profile, Store } from './data/load-store.js';
export { lineLabel, type TrendChartSpec, trendChartKey, trendCharts } from './data/series.js';
export type * from './data/types.js';
