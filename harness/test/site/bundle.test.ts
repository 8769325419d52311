// The bundle's files as the page loads them: uPlot's module (and what it imports) for the chart
// views' preload; app.js importing nothing statically, which would cost a request before any view.
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { chartModules } from '../../src/site/bundle.js';

type Output = Metafile['outputs'][string];
const output = (
  inputs: string[],
  imports: [string, 'import-statement' | 'dynamic-import'][],
  entryPoint?: string,
): Output => ({
  bytes: 1,
  inputs: Object.fromEntries(inputs.map((i) => [i, { bytesInOutput: 1 }])),
  imports: imports.map(([path, kind]) => ({ path, kind })),
  exports: [],
  ...(entryPoint ? { entryPoint } : {}),
});
const meta = (outputs: Record<string, Output>): Metafile => ({ inputs: {}, outputs });
const APP_INPUTS = ['gh-pages/src/main.ts', 'node_modules/uplot/dist/uPlot.min.css'];

describe('chartModules', () => {
  it("names uPlot's module, then the modules it imports", () => {
    const m = meta({
      'site/app.js': output(APP_INPUTS, [['site/uPlot.esm.js', 'dynamic-import']], 'gh-pages/src/main.ts'),
      'site/app.css': output(APP_INPUTS, []),
      'site/uPlot.esm.js': output(
        ['node_modules/uplot/dist/uPlot.esm.js'],
        [['site/chunk.js', 'import-statement']],
        'node_modules/uplot/dist/uPlot.esm.js',
      ),
      'site/chunk.js': output([], []),
    });
    expect(chartModules(m)).toEqual(['uPlot.esm.js', 'chunk.js']);
  });

  it('is none when uPlot is in app.js', () => {
    const m = meta({ 'site/app.js': output([...APP_INPUTS, 'node_modules/uplot/dist/uPlot.esm.js'], [], 'x') });
    expect(chartModules(m)).toEqual([]);
  });

  it('refuses an app.js that imports a module statically', () => {
    const m = meta({ 'site/app.js': output(APP_INPUTS, [['site/chunk.js', 'import-statement']], 'x') });
    expect(() => chartModules(m)).toThrow('app.js imports chunk.js statically');
  });
});
