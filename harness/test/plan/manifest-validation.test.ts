// Every manifest in the repository validates and names only files that exist; a bad manifest
// is refused with the file, the field path and the bad value.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllExperiments, parseManifest } from '../../src/plan/experiments.js';
import { ROOT } from '../helpers/cli.js';
import { parseMutated } from '../helpers/manifest.js';

const experiments = loadAllExperiments(join(ROOT, 'programs'));

describe('the repository’s manifests', () => {
  it('finds the experiments', () => {
    expect(experiments.map((e) => e.id)).toContain('wc');
  });

  it.each(experiments.map((e) => [e.id, e] as const))('%s names only files that exist', (_id, e) => {
    for (const v of e.manifest.variants) {
      if (v.source) expect(existsSync(join(e.dir, v.source)), `${e.id}/${v.id}: ${v.source}`).toBe(true);
      if (v.build?.kind === 'just-static') expect(existsSync(join(e.dir, v.build.config))).toBe(true);
    }
    if (e.manifest.generate) expect(existsSync(join(e.dir, e.manifest.generate.script))).toBe(true);
  });

  it.each(experiments.map((e) => [e.id, e] as const))('%s variant sources follow <subject>-<runtime>', (id, e) => {
    for (const v of e.manifest.variants) if (v.source) expect(v.source.startsWith(`${id}-`), v.source).toBe(true);
  });
});

const good = {
  schema: 1,
  title: 't',
  question: 'q',
  parameters: { bs: { description: 'block', unit: 'B', values: { smoke: [1], quick: [1], standard: [1], full: [1] } } },
  profiles: Object.fromEntries(
    ['smoke', 'quick', 'standard', 'full'].map((p) => [p, { runs: 1, warmup: 0, constants: { max: 10 } }]),
  ),
  derive: { count: 'floor(max / bs)' },
  reports: { bytes: { unit: 'B', direction: 'bigger' } },
  validate: [{ field: 'bytes', equals: 'count * bs' }],
  variants: [
    { id: 'c', description: 'd', runtime: 'native', source: 'x-c.c', build: { kind: 'gcc' }, command: '{bin} {bs}' },
  ],
  headline: { at: { bs: 1 }, metrics: ['throughput'] },
};

function check(mutate: (m: any) => void): string {
  const r = parseMutated(good, mutate, ['x-c.c']);
  return r === 'valid' ? r : r.message;
}

describe('a bad manifest', () => {
  it('accepts the baseline', () => {
    expect(check(() => {})).toBe('valid');
  });

  it.each([
    ['an unknown key', (m: any) => (m.colour = 'red'), /\n {2}colour: unknown key \(got "red"\)/],
    [
      'a bad variant id',
      (m: any) => (m.variants[0].id = 'Bad Id'),
      /variants\.0\.id: lower-case letters, digits and dashes \(got "Bad Id"\)/,
    ],
    [
      'a number output without its field',
      (m: any) => (m.variants[0].output = 'number'),
      /variants\.0\.numberField: required when output is "number"/,
    ],
    [
      'a duplicate variant id',
      (m: any) => m.variants.push({ ...m.variants[0] }),
      /variants\.1\.id: duplicate variant id \(got "c"\)/,
    ],
    [
      'a missing source file',
      (m: any) => (m.variants[0].source = 'nope.c'),
      /variants\.0\.source: file not found \(got "nope\.c"\)/,
    ],
    [
      'an unknown name in derive',
      (m: any) => (m.derive.count = 'floor(maxx / bs)'),
      /derive\.count: unknown name "maxx" in profile smoke/,
    ],
    ['a missing profile', (m: any) => delete m.profiles.full, /profiles\.full: /],
    ['a negative run count', (m: any) => (m.profiles.quick.runs = -1), /profiles\.quick\.runs: .*\(got -1\)/],
    [
      'a check on an unreported field',
      (m: any) => (m.validate[0].field = 'lines'),
      /validate\.0\.field: not a reported field \(got "lines"\)/,
    ],
    [
      'a check with two comparisons',
      (m: any) => (m.validate[0].atLeast = '1'),
      /validate\.0: give exactly one of equals, atLeast, atMost/,
    ],
    [
      'a ratio to an unknown variant',
      (m: any) =>
        (m.summary = { at: { bs: 1 }, metrics: ['throughput'], ratios: [{ metric: 'throughput', to: 'nope' }] }),
      /summary\.ratios: unknown variant \(got "nope"\)/,
    ],
    [
      'a node version that is not a major',
      (m: any) => (m.runtimes = { node: ['22.1'] }),
      /runtimes\.node\.0: "current" or a major version \(got "22\.1"\)/,
    ],
    [
      'a per-profile node list missing a profile',
      (m: any) => (m.runtimes = { node: { smoke: ['current'], quick: ['current'], standard: ['22'] } }),
      /runtimes\.node\.full: .*/,
    ],
    [
      'an answer at an unknown parameter',
      (m: any) =>
        (m.summary = {
          at: { bs: 1 },
          metrics: ['throughput'],
          answers: [{ question: 'q?', metric: 'wall_time', base: { bz: 1 }, head: { bz: 2 } }],
        }),
      /summary\.answers\.0\.base: unknown parameter \(got "bz"\)/,
    ],
    [
      'an answer changing a parameter its base does not set',
      (m: any) =>
        (m.summary = {
          at: { bs: 1 },
          metrics: ['throughput'],
          answers: [{ question: 'q?', metric: 'wall_time', base: { bs: 1 }, head: { node: '22' } }],
        }),
      /summary\.answers\.0: `head` must change parameters that `base` sets/,
    ],
    [
      'an ignored parameter that does not exist',
      (m: any) => (m.variants[0].ignores = ['pool']),
      /variants\.0\.ignores: unknown parameter \(got "pool"\)/,
    ],
    [
      'an ignored parameter used in the command',
      (m: any) => (m.variants[0].ignores = ['bs']),
      /variants\.0\.command: placeholder \{bs\} names a parameter the variant ignores/,
    ],
    [
      'an ignored parameter in the variant’s selector',
      (m: any) => Object.assign(m.variants[0], { ignores: ['bs'], when: { bs: 1 }, command: '{bin}' }),
      /variants\.0\.ignores: "bs" is also in its when selector/,
    ],
  ])('with %s names the file, the field and the value', (_what, mutate, message) => {
    const msg = check(mutate);
    expect(msg).toMatch(/manifest\.json is invalid:/);
    expect(msg).toMatch(message);
  });

  it('that is not JSON names the file', () => {
    expect(() => parseManifest('/x/manifest.json', '/x', '{ nope')).toThrow(/\/x\/manifest\.json is not valid JSON/);
  });
});
