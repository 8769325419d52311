/**
 * An esbuild plugin that makes uPlot build its two Intl objects on first use instead of when its
 * module is evaluated. The first Intl object a page builds initializes ICU, on the main thread of a
 * fresh page and before the first chart, although the site formats its axes' and legends' values
 * itself (gh-pages/src/charts/) and draws no time zone. What it saves, measured with
 * `npm run site:perf` and a CPU profile of Sweeps: docs/pages.md.
 *
 * The edit is made to exact source lines of the pinned uPlot (package-lock.json); when they are
 * not found the build fails naming this file, so an upgrade is looked at rather than silently
 * losing the change.
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

interface Edit {
  from: string;
  to: string;
}

export const UPLOT_EDITS: readonly Edit[] = [
  {
    from: "const numFormatter = new Intl.NumberFormat(domEnv ? nav.language : 'en-US');\nconst fmtNum = val => numFormatter.format(val);",
    to: "let numFormatter;\nconst fmtNum = val => (numFormatter ??= new Intl.NumberFormat(domEnv ? nav.language : 'en-US')).format(val);",
  },
  {
    from: 'const localTz = new Intl.DateTimeFormat().resolvedOptions().timeZone;',
    to: 'let localTzName;\nconst localTz = () => (localTzName ??= new Intl.DateTimeFormat().resolvedOptions().timeZone);',
  },
  { from: 'else if (tz == localTz)', to: 'else if (tz == localTz())' },
];

/** uPlot's source with the edits made; throws naming the first edit whose line is not there exactly once. */
export function lazyIntl(source: string, file: string): string {
  let out = source;
  for (const e of UPLOT_EDITS) {
    const at = out.indexOf(e.from);
    if (at < 0 || out.indexOf(e.from, at + 1) >= 0)
      throw new Error(
        `${file}: uPlot's source changed (expected this line once: ${JSON.stringify(e.from.split('\n')[0])}); update harness/src/site/uplot-lazy-intl.ts for the new version`,
      );
    out = out.slice(0, at) + e.to + out.slice(at + e.from.length);
  }
  if (/\blocalTz\b(?!\s*\(|\s*=)/.test(out.replace(/const localTz = /, '')))
    throw new Error(`${file}: uPlot reads localTz where harness/src/site/uplot-lazy-intl.ts does not call it`);
  return out;
}

export const uplotLazyIntl: Plugin = {
  name: 'uplot-lazy-intl',
  setup(build) {
    build.onLoad({ filter: /[\\/]uplot[\\/]dist[\\/]uPlot\.esm\.js$/ }, async (args) => ({
      contents: lazyIntl(await readFile(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
  },
};
