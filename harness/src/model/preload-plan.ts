/**
 * The site's preload plan: what each view of the default machine and workload fetches before its
 * first chart, as site-relative URLs. The site build writes it into index.html
 * (harness/src/site/preload-build.ts) and the page's preloader (gh-pages/src/preload.ts) asks for
 * the files of the view its URL names while the bundle is still on its way.
 */
export interface PreloadPlan {
  machine: string;
  profile: string;
  machines: string;
  catalog: string;
  noise: string;
  /** The machine's trend marks (Trends; the build writes an empty file where there are none). */
  marks: string;
  regressions: string;
  /** The folders of the windows a view opens on: `<window>commits.json` (Overview, Trends, Sweeps, Compare). */
  windows: string[];
  /** Overview: the experiments' newest run files. */
  runs: string[];
  /** Sweeps: each experiment's newest run file, experiments sorted (the first is the default). */
  latest: [string, string][];
  /** Compare: the build's comparison of the two newest commits (newest-pair.json), else their run files. */
  compare: string[];
  /** Trends: per experiment and metric, which of `windows` hold its shard (`<window><experiment>/<metric>.json`). */
  shards: Record<string, Record<string, number[]>>;
}
