import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { parseManifest, loadExperiment } from '../src/manifest/load.js';
import { expand } from '../src/plan.js';
import { evaluate } from '../src/expr.js';
const good: any = {
  schema: 1, title: 't', question: 'q',
  parameters: { bs: { description: 'block', unit: 'B', values: { smoke: [1], quick: [1], standard: [1], full: [1] } } },
  profiles: Object.fromEntries(['smoke', 'quick', 'standard', 'full'].map((p) => [p, { runs: 1, warmup: 0, constants: { max: 10 } }])),
  derive: { count: 'floor(max / bs)' },
  reports: { bytes: { unit: 'B', direction: 'bigger' } },
  validate: [{ field: 'bytes', equals: 'count * bs' }],
  variants: [{ id: 'c', description: 'd', runtime: 'native', source: 'x-c.c', build: { kind: 'gcc' }, command: '{bin} {bs}' }],
  headline: { at: { bs: 1 }, metrics: ['throughput'] },
};
function check(mutate: (m: any) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-m-'));
  writeFileSync(join(dir, 'x-c.c'), '');
  const m = structuredClone(good); mutate(m);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
  try { const e = loadExperiment(dir); try { expand([e], 'smoke', {}); return 'valid+expanded'; } catch (x) { return 'EXPAND ' + (x as Error).name + ': ' + (x as Error).message; } } catch (e) { return (e as Error).name + ': ' + (e as Error).message; }
}
it('probe', () => {
  const cases: [string, (m: any) => void][] = [
    ['unknown key', (m) => (m.colour = 'red')],
    ['unknown variant key', (m) => (m.variants[0].colour = 'red')],
    ['derive bad char', (m) => (m.derive.count = 'max; 1')],
    ['derive syntax', (m) => (m.derive.count = 'max +')],
    ['derive unknown fn', (m) => (m.derive.count = 'sqrt(max)')],
    ['validate unknown name', (m) => (m.validate[0].equals = 'count * bss')],
    ['validate bad syntax', (m) => (m.validate[0].equals = 'count *')],
    ['throughputBytes unknown', (m) => (m.throughputBytes = 'nope')],
    ['template unknown', (m) => (m.variants[0].command = '{bin} {blocksize}')],
    ['input pipe unknown', (m) => (m.input = { pipe: 'dd bs={blk}' })],
    ['headline at unknown param', (m) => (m.headline.at = { bz: 1 })],
    ['headline metric', (m) => (m.headline.metrics = ['thruput'])],
    ['divide by zero', (m) => (m.derive.count = 'max / 0')],
    ['string param', (m) => (m.parameters.bs.values.smoke = ['abc'])],
  ];
  for (const [n, f] of cases) console.log(n, '=>', check(f));
  console.log(evaluate('1/0', {}), evaluate('max()', {}), evaluate('log2(-1)', {}));
});
