import { describe, expect, it } from 'vitest';
import { RELEASES_SCHEMA } from '../../src/formats/parts/store-layout.js';
import { checkReleaseChanges, checkReleaseIndex, migrateReleaseFile } from '../../src/formats/release-store-format.js';
import { UserError } from '../../src/lib/errors.js';
import { releaseChange, releaseEntry } from '../releases/helpers.js';

const M = 'bench-a-0a1b2c3d';
const index = (releases: unknown[], over: object = {}) => ({ schema: 2, machine: M, releases, ...over });
const strict = { mode: 'strict' } as const;

/** A valid entry with one field replaced (or, with `undefined`, removed). */
function bad(field: string, value: unknown): unknown {
  const e: Record<string, unknown> = { ...releaseEntry('22.4.1', 100) };
  e[field] = value;
  return e;
}

const BAD_ENTRIES: [string, unknown][] = [
  ['a version that is not one', bad('version', 'x')],
  ['a version that is a path', bad('version', '../../22.4.1')],
  ['a line with markup', bad('line', '<b>node22</b>')],
  ['a profile that is a path', bad('profile', '../quick')],
  ['an experiment name of Object.prototype', bad('experiments', ['constructor'])],
  ['a date that is not one', bad('date', 'yesterday')],
  ['a problem over the text cap', bad('problems', ['x'.repeat(1001)])],
  ['an unknown key', { ...releaseEntry('22.4.1', 100), extra: 1 }],
  [
    'a value under a metric named __proto__',
    { ...releaseEntry('22.4.1', 100), values: [{ ...releaseEntry('22.4.1', 1).values[0]!, metric: '__proto__' }] },
  ],
  [
    'a variant with markup',
    { ...releaseEntry('22.4.1', 100), values: [{ ...releaseEntry('22.4.1', 1).values[0]!, variant: '<img>' }] },
  ],
  [
    'a params key of Object.prototype',
    {
      ...releaseEntry('22.4.1', 100),
      values: [{ ...releaseEntry('22.4.1', 1).values[0]!, params: JSON.parse('{"__proto__": 1}') }],
    },
  ],
  [
    'a value that is not a finite number',
    { ...releaseEntry('22.4.1', 100), values: [{ ...releaseEntry('22.4.1', 1).values[0]!, value: '1e999' }] },
  ],
  [
    'an interval that is not two numbers',
    {
      ...releaseEntry('22.4.1', 100),
      values: [{ ...releaseEntry('22.4.1', 1).values[0]!, interval: [1, '2'] }],
    },
  ],
  ['a cost that is negative', bad('seconds', -1)],
  // An entry with no experiments is checked as well as any other (its values are).
  ['an entry with no experiments and a bad version', bad('version', 'not-a-version')],
];

describe('release index records are checked field by field', () => {
  it.each(BAD_ENTRIES)('an artifact with %s is refused with one line naming the field', (_what, entry) => {
    const raw = index([releaseEntry('22.4.0', 100), entry]);
    let err: unknown;
    try {
      checkReleaseIndex('artifact/index.json', raw, M, strict);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    const msg = (err as Error).message;
    expect(msg).not.toContain('\n');
    expect(msg).toMatch(/^artifact\/index\.json is invalid: releases\.1\./);
  });

  it.each(BAD_ENTRIES)('a store with %s keeps the good entries and says which one it skipped', (_what, entry) => {
    const lines: string[] = [];
    const raw = index([releaseEntry('22.4.0', 100), entry, releaseEntry('22.5.0', 120)]);
    const got = checkReleaseIndex('store/index.json', raw, M, { mode: 'skip', warn: (l) => lines.push(l) });
    expect(got.releases.map((r) => r.version)).toEqual(['22.4.0', '22.5.0']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^store\/index\.json: skipping releases\.1: /);
    expect(lines[0]).not.toContain('\n');
  });

  it('refuses a file that names another machine than its directory', () => {
    expect(() =>
      checkReleaseIndex('f', index([], { machine: 'other-1' }), M, { mode: 'skip', warn: () => {} }),
    ).toThrow(/machine: "other-1" is not the directory's bench-a-0a1b2c3d/);
  });

  it('refuses a list over its cap before looking at any record', () => {
    const many = new Array(20_001).fill(0);
    expect(() => checkReleaseIndex('f', index(many), M, strict)).toThrow(/releases/);
  });

  it('reads a schema 1 file (the records it had are kept)', () => {
    const v1 = { schema: 1, machine: M, releases: [releaseEntry('22.4.0', 100)] };
    expect(migrateReleaseFile(v1)).toMatchObject({ schema: RELEASES_SCHEMA });
    expect(checkReleaseIndex('f', v1, M, strict).releases).toHaveLength(1);
  });
});

describe('changes.json records are checked the same way', () => {
  const file = (changes: unknown[]) => ({ schema: 2, machine: M, changes, candidates: [] });

  it('skips a change whose release is not a version and keeps the rest', () => {
    const lines: string[] = [];
    const got = checkReleaseChanges(
      'c.json',
      file([releaseChange('22.4.1', '22.5.0'), { ...releaseChange('22.4.1', '22.5.0'), to: 'vNext' }]),
      M,
      { mode: 'skip', warn: (l) => lines.push(l) },
    );
    expect(got.changes).toHaveLength(1);
    expect(lines).toEqual([expect.stringMatching(/^c\.json: skipping changes\.1: to: not a release version/)]);
  });

  it('refuses, from an artifact, a ratio that is not a number', () => {
    expect(() =>
      checkReleaseChanges('c.json', file([{ ...releaseChange('22.4.1', '22.5.0'), ratio: null }]), M, strict),
    ).toThrow(/^c\.json is invalid: changes\.0\.ratio: /);
  });
});
