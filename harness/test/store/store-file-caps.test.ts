// The store's own files (machines.json, a machine's index.json and noise.json, a profile's
// catalog, a window's commits and its trend columns) were read with plain strings, plain records
// and unbounded numbers, and the check before a site build only parsed them: a `constructor` key,
// a 1.7e308 value, a 5,000-character subject or a window id of "../.." went into the site. They
// now get results.json's patterns, caps, Object.prototype-name refusal and bounded numbers.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkStore } from '../../src/store/check.js';
import { publishRun } from '../../src/store/publish-run.js';
import { wcResults } from '../helpers/results.js';

const M = 'test-machine';
const A = 'a'.repeat(40);
const SHARD = `${M}/trends/smoke/0000/wc/wall_time.json`;
const PROTO = /Object\.prototype property/;
let pristine: string;

beforeAll(async () => {
  pristine = join(mkdtempSync(join(tmpdir(), 'jsio-store-caps-')), 'store');
  await publishRun(pristine, wcResults(A));
});

/** A copy of the store with one file changed, as JSON (a function) or as text (a replacement). */
function crafted(file: string, change: ((v: any) => void) | [string, string]): string {
  const store = join(mkdtempSync(join(tmpdir(), 'jsio-store-caps-')), 'store');
  cpSync(pristine, store, { recursive: true });
  const text = readFileSync(join(store, file), 'utf8');
  if (Array.isArray(change)) {
    expect(text).toContain(change[0]);
    writeFileSync(join(store, file), text.replace(change[0], change[1]));
  } else {
    const v = JSON.parse(text);
    change(v);
    writeFileSync(join(store, file), JSON.stringify(v));
  }
  return store;
}

const seriesOf = (v: any) => Object.values(v.series)[0] as any;

describe('a store file crafted by whoever can publish', () => {
  it('the store as published passes, and so does the site’s fixture store', () => {
    expect(() => checkStore(pristine)).not.toThrow();
    expect(() => checkStore(join(import.meta.dirname, '../../../gh-pages/test/fixtures/store'))).not.toThrow();
  });

  it.each([
    ['machines.constructor', 'machines.json', (v: any) => (v.machines.constructor = v.machines[M])],
    ['commits.0.subject', `${M}/index.json`, (v: any) => (v.commits[0].subject = 'x'.repeat(5000))],
    ['runs.constructor', `${M}/index.json`, (v: any) => (v.commits[0].runs.constructor = v.commits[0].runs.smoke)],
    ['runs.smoke.window', `${M}/index.json`, (v: any) => (v.commits[0].runs.smoke.window = '../..')],
    ['commits.0.sha', `${M}/index.json`, (v: any) => (v.commits[0].sha = '../../etc')],
    ['experiments.0', `${M}/index.json`, (v: any) => (v.commits[0].runs.smoke.experiments = ['<img src=x>'])],
    ['windows.0.id', `${M}/trends/smoke/catalog.json`, (v: any) => (v.windows[0].id = '../../../x')],
    ['experiments.valueOf', `${M}/trends/smoke/catalog.json`, (v: any) => (v.experiments.valueOf = v.experiments.wc)],
    [
      'unit',
      `${M}/trends/smoke/catalog.json`,
      (v: any) => (v.experiments.wc.metrics.wall_time.unit = 'u'.repeat(5000)),
    ],
    ['commits.0.file', `${M}/trends/smoke/0000/commits.json`, (v: any) => (v.commits[0].file = '../../../../x.json')],
    ['commits.0.ref', `${M}/trends/smoke/0000/commits.json`, (v: any) => (v.commits[0].ref = 'r'.repeat(5000))],
    ['values.0', SHARD, (v: any) => (seriesOf(v).values[0] = 1.7e308)],
    ['ranges.0', SHARD, (v: any) => (seriesOf(v).ranges[0] = -1e300)],
    ['values.0', SHARD, (v: any) => (seriesOf(v).values[0] = 'NaN')],
    ['variant', SHARD, (v: any) => (seriesOf(v).variant = 'v'.repeat(5000))],
    ['params.constructor', SHARD, (v: any) => (seriesOf(v).params = { constructor: 1 })],
    ['experiment', SHARD, (v: any) => (v.experiment = '../wc')],
  ])('refuses a bad %s in %s', (field, file, change) => {
    const store = crafted(file, change);
    expect(() => checkStore(store)).toThrow(field);
  });

  it.each([
    ['machines.json', `"machines":{`, `"machines":{"__proto__":{},`],
    [`${M}/index.json`, `"runs":{`, `"runs":{"__proto__":{},`],
    [`${M}/trends/smoke/catalog.json`, `"metrics":{`, `"metrics":{"__proto__":{},`],
    [SHARD, `"series":{`, `"series":{"__proto__":{},`],
    [SHARD, `"params":{`, `"params":{"__proto__":1,`],
  ])('%s: refuses a __proto__ key', (file, from, to) => {
    const store = crafted(file, [from, to]);
    expect(() => checkStore(store)).toThrow(PROTO);
  });

  it('a window’s list holds 400 commits and its columns 400 points', () => {
    const store = crafted(SHARD, (v: any) => {
      v.commits = Array.from({ length: 400 }, (_, i) => i.toString(16).padStart(40, '0'));
      for (const s of Object.values(v.series) as any[]) {
        s.values = v.commits.map(() => 1.5);
        s.ranges = v.commits.map(() => null);
      }
    });
    expect(() => checkStore(store)).not.toThrow();
  });

  it('a publish refuses a crafted index in one line, before writing', async () => {
    const store = crafted(`${M}/index.json`, (v: any) => (v.commits[0].runs.constructor = v.commits[0].runs.smoke));
    const before = readFileSync(join(store, M, 'index.json'), 'utf8');
    await expect(publishRun(store, wcResults('b'.repeat(40)))).rejects.toThrow('runs.constructor');
    expect(readFileSync(join(store, M, 'index.json'), 'utf8')).toBe(before);
  });

  it('noise.json: refuses a 1e308 threshold, a constructor key and __proto__', () => {
    const noise = (thresholds: string) => {
      const store = crafted('machines.json', () => {});
      writeFileSync(
        join(store, M, 'noise.json'),
        `{"schema":2,"machine":"${M}","created":"2026-11-21T00:00:00Z","method":"paired","repeats":3,"thresholds":${thresholds}}`,
      );
      return store;
    };
    expect(() => checkStore(noise('{"wc/c/bs=4096 wall_time":0.03}'))).not.toThrow();
    expect(() => checkStore(noise('{"wc/c/bs=4096 wall_time":1e308}'))).toThrow('thresholds');
    expect(() => checkStore(noise('{"constructor":0.1}'))).toThrow('thresholds.constructor');
    expect(() => checkStore(noise('{"__proto__":0.1}'))).toThrow(PROTO);
  });
});
