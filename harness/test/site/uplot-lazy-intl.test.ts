// uPlot as the site bundles it builds no Intl object when its module is evaluated (the first one
// initializes ICU, tens of ms before the first chart), and still formats with one when asked;
// a uPlot whose source no longer has the edited lines fails the build by name.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { lazyIntl, UPLOT_EDITS } from '../../src/site/uplot-lazy-intl.js';

const file = createRequire(import.meta.url).resolve('uplot/dist/uPlot.esm.js');
const source = readFileSync(file, 'utf8');

describe('uPlot with lazy Intl', () => {
  it('evaluates the installed uPlot without building an Intl object, and builds one on first use', async () => {
    const real = { NumberFormat: Intl.NumberFormat, DateTimeFormat: Intl.DateTimeFormat };
    const built: string[] = [];
    const counting = <T extends new (...a: never[]) => object>(name: string, C: T) =>
      new Proxy(C, {
        construct(target, args) {
          built.push(name);
          return Reflect.construct(target, args);
        },
      });
    Intl.NumberFormat = counting('NumberFormat', real.NumberFormat);
    Intl.DateTimeFormat = counting('DateTimeFormat', real.DateTimeFormat);
    try {
      const url = `data:text/javascript;base64,${Buffer.from(lazyIntl(source, file)).toString('base64')}`;
      const uPlot = (await import(url)).default as { fmtNum(v: number): string };
      expect(built).toEqual([]);
      expect(uPlot.fmtNum(1234.5)).toBe(new real.NumberFormat('en-US').format(1234.5));
      expect(built).toEqual(['NumberFormat']);
      uPlot.fmtNum(2);
      expect(built).toEqual(['NumberFormat']);
    } finally {
      Intl.NumberFormat = real.NumberFormat;
      Intl.DateTimeFormat = real.DateTimeFormat;
    }
  });

  it('the unedited uPlot does build them as it is evaluated (what the edit is for)', () => {
    for (const e of UPLOT_EDITS) expect(source).toContain(e.from);
    expect(source).toMatch(/^const numFormatter = new Intl\.NumberFormat/m);
  });

  it('refuses a uPlot whose lines changed, naming the file and this module', () => {
    const changed = source.replace('const localTz = new Intl', 'const localTimeZone = new Intl');
    expect(() => lazyIntl(changed, '/x/uPlot.esm.js')).toThrow(
      /\/x\/uPlot\.esm\.js: uPlot's source changed \(expected this line once: "const localTz = .*uplot-lazy-intl\.ts/,
    );
    const twice = `${source}\n${UPLOT_EDITS[2]!.from}`;
    expect(() => lazyIntl(twice, 'f')).toThrow(/expected this line once: "else if \(tz == localTz\)"/);
  });
});
