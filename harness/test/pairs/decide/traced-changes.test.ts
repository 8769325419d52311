// What a point's traced paths add to the plan: the paths no static rule names, the reasons a
// changed one gives, and a point made affected by such a reason alone (its identity unchanged).
import { describe, expect, it } from 'vitest';
import type { MeasuredInputs } from '../../../src/model/measured-inputs.js';
import { planImpact } from '../../../src/pairs/decide/impact.js';
import { lockKeyOf, onlyTraced, tracedReasons } from '../../../src/pairs/decide/traced-changes.js';

const identity: MeasuredInputs = {
  ok: true,
  digest: 'd1',
  parts: {
    'file programs/wc/wc.js': 'a',
    'package through2': '4.0.2 sha512-x',
    'package.json fields package.json': '{"type":"module"}',
    'manifest entry': 'm',
  },
};

describe('traced paths against the static identity', () => {
  it("keeps what no static rule names; a named file, a package.json's fields, a pinned package and a folder holding a named file are named", () => {
    const paths = [
      'programs',
      'programs/wc',
      'programs/wc/wc.js',
      'programs/wc/x.json',
      'node_modules/through2/index.js',
      'node_modules/readable-stream/lib.js',
      'package.json',
      'programs/wc/package.json',
    ];
    expect(onlyTraced(paths, identity)).toEqual([
      'programs/wc/x.json',
      'node_modules/readable-stream/lib.js',
      'programs/wc/package.json',
    ]);
  });

  it("a listed folder's names are not what the static identity names", () => {
    expect(onlyTraced(['programs/wc'], identity, new Set(['programs/wc']))).toEqual(['programs/wc']);
  });

  it('an unprovable identity names nothing', () => {
    expect(onlyTraced(['programs/wc/wc.js'], { ok: false, reason: 'x' })).toEqual(['programs/wc/wc.js']);
  });

  it('reasons only for the changed paths no static rule names', () => {
    const changed = new Set(['programs/wc/wc.js', 'programs/wc/x.json']);
    expect(
      tracedReasons(['programs/wc/wc.js', 'programs/wc/x.json', 'programs/wc/y.json'], identity, (p) => changed.has(p)),
    ).toEqual(['seen only by tracing: programs/wc/x.json']);
  });

  it("finds the innermost installed package a path is in, none for npm's own files", () => {
    expect(lockKeyOf('node_modules/a/index.js')).toBe('node_modules/a');
    expect(lockKeyOf('node_modules/@s/b/lib/x.js')).toBe('node_modules/@s/b');
    expect(lockKeyOf('node_modules/a/node_modules/@s/c/x.js')).toBe('node_modules/a/node_modules/@s/c');
    expect(lockKeyOf('node_modules/.bin/tool')).toBeUndefined();
    expect(lockKeyOf('node_modules/.package-lock.json')).toBeUndefined();
    expect(lockKeyOf('programs/wc/x.js')).toBeUndefined();
  });
});

describe('planImpact with traced reasons', () => {
  const point = (id: string) => ({ id, experiment: 'wc', identity });
  it('makes a point with an unchanged identity affected, and never draws it for the control', () => {
    const ids = [point('wc/a/bs=1'), point('wc/b/bs=1')];
    const extra = new Map([['wc/a/bs=1', ['seen only by tracing: programs/wc/x.json']]]);
    const plan = planImpact(ids, ids, 5, 1, extra);
    expect(plan.affected.get('wc/a/bs=1')).toEqual(['seen only by tracing: programs/wc/x.json']);
    expect(plan.measure.get('wc/a/bs=1')).toBe('affected');
    expect(plan.measure.get('wc/b/bs=1')).toBe('control');
  });

  it('adds the traced reason after the static ones', () => {
    const head = [
      {
        ...point('wc/a/bs=1'),
        identity: { ...identity, digest: 'd2', parts: { ...identity.parts, 'manifest entry': 'n' } },
      },
    ];
    const plan = planImpact([point('wc/a/bs=1')], head, 0, 1, new Map([['wc/a/bs=1', ['seen only by tracing: x']]]));
    expect(plan.affected.get('wc/a/bs=1')).toEqual(['changed: manifest entry', 'seen only by tracing: x']);
  });
});
