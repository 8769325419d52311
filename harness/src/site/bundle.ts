/**
 * The site's scripts and stylesheet, bundled with esbuild for the build to put into index.html:
 * the app (every view; uPlot inside it but evaluated only by the views that draw charts, as
 * gh-pages/src/charts/uplot-module.ts imports it), the stylesheet the app imports (uPlot's), and
 * the preloader, each minified into one text.
 */
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { uplotLazyIntl } from './uplot-lazy-intl.js';

export interface Bundle {
  js: string;
  css: string;
}

export async function bundleApp(src: string): Promise<Bundle> {
  const { outputFiles } = await build({
    entryPoints: { app: join(src, 'src', 'main.ts') },
    bundle: true,
    minify: true,
    format: 'esm',
    // As tsconfig.json: the code already needs its runtime (Object.hasOwn).
    target: 'es2022',
    // One script: a dynamic import is kept in it, its module's top level run on first import.
    splitting: false,
    outdir: 'site',
    logLevel: 'silent',
    loader: { '.css': 'css' },
    plugins: [uplotLazyIntl],
    write: false,
  });
  const text = (ext: string) =>
    outputFiles
      .filter((f) => f.path.endsWith(ext))
      .map((f) => f.text)
      .join('');
  return { js: text('.js').trim(), css: text('.css') };
}

/**
 * The preloader never loads a module on demand: what it reaches that way (each view's renderer in
 * gh-pages/src/views/index.ts, beside the preload rule it does read) stays out of its bundle.
 */
const noDynamicImports: Plugin = {
  name: 'no-dynamic-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined));
  },
};

/** The preloader (gh-pages/src/preload.ts), minified into one script. */
export async function bundlePreloader(src: string): Promise<string> {
  const out = await build({
    entryPoints: [join(src, 'src', 'preload.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    plugins: [noDynamicImports],
  });
  return out.outputFiles[0]!.text.trim();
}

/** What the site's benchmark reads of a view's entry (gh-pages/src/views/index.ts). */
export interface LandingView {
  name: string;
  charts: boolean;
  landing?: string;
}

/**
 * The site's view table as its benchmark (./perf.ts) reads it: gh-pages/src/views/index.ts bundled
 * for Node without the renderers (never called here) and loaded from memory. Read from the site's
 * sources when the benchmark runs, not bundled into the harness: the harness's CLI carries no site code.
 */
export async function loadViewTable(src: string): Promise<LandingView[]> {
  const out = await build({
    entryPoints: [join(src, 'src', 'views', 'index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    plugins: [noDynamicImports],
  });
  const code = Buffer.from(out.outputFiles[0]!.text).toString('base64');
  const m = (await import(`data:text/javascript;base64,${code}`)) as { siteViews: () => readonly LandingView[] };
  return m
    .siteViews()
    .map(({ name, charts, landing }) => ({ name, charts, ...(landing === undefined ? {} : { landing }) }));
}
