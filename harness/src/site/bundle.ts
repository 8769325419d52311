/**
 * The site's scripts, bundled with esbuild: app.js (every view) with uPlot split off into a file
 * of its own that only the views drawing charts load (gh-pages/src/charts/uplot-module.ts), the
 * stylesheet the bundle imports (uPlot's), and the preloader, minified into one script; the build
 * inlines the last two into index.html.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { build, type Metafile } from 'esbuild';

/** What the page loads besides app.js: the chart views' module files (the uPlot one first), and the bundle's CSS. */
export interface Bundle {
  charts: string[];
  css: string;
}

/** Writes app.js and its chunks into outDir; returns the rest. */
export async function bundleSite(src: string, outDir: string): Promise<Bundle> {
  const { metafile, outputFiles } = await build({
    entryPoints: { app: join(src, 'src', 'main.ts') },
    bundle: true,
    minify: true,
    format: 'esm',
    // ES2022 as tsconfig.json: lowering class fields would put esbuild's helper into a chunk that
    // app.js imports, one more request before any view runs.
    target: 'es2022',
    splitting: true,
    outdir: outDir,
    // Stable names: an in-place build (the gh-pages checkout) overwrites its files.
    chunkNames: '[name]',
    logLevel: 'silent',
    loader: { '.css': 'css' },
    metafile: true,
    // The scripts are written below; the stylesheet goes into the page.
    write: false,
  });
  let css = '';
  for (const f of outputFiles) {
    if (f.path.endsWith('.css')) css += f.text;
    else {
      mkdirSync(dirname(f.path), { recursive: true });
      writeFileSync(f.path, f.contents);
    }
  }
  return { charts: chartModules(metafile), css };
}

/**
 * The module holding uPlot and those it imports. app.js must import nothing statically: each
 * import would be a request the page makes only once app.js has arrived.
 */
export function chartModules(metafile: Metafile): string[] {
  const outputs = Object.entries(metafile.outputs).filter(([f]) => f.endsWith('.js'));
  const statics = (o: Metafile['outputs'][string]) =>
    o.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path);
  const app = outputs.find(([f]) => basename(f) === 'app.js');
  if (!app) throw new Error('esbuild wrote no app.js');
  const first = statics(app[1]);
  if (first.length) throw new Error(`app.js imports ${first.map((f) => basename(f)).join(', ')} statically`);
  const uplot = outputs.find(
    ([f, o]) => f !== app[0] && Object.keys(o.inputs).some((i) => /node_modules\/uplot\/.*\.js$/.test(i)),
  );
  return uplot ? [uplot[0], ...statics(uplot[1])].map((f) => basename(f)) : [];
}

/** The preloader (gh-pages/src/preload.ts), minified into one script to inline. */
export async function bundlePreloader(src: string): Promise<string> {
  const out = await build({
    entryPoints: [join(src, 'src', 'preload.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text.trim();
}
