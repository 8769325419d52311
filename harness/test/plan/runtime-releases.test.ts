// Any release is a runtime: --param runtime=node@22.4.1 (bun@1.3.11, bun@canary-YYYYMMDD,
// deno@2.7.3) adds that exact release as a runtime of every JavaScript variant of its family,
// keyed and labelled by itself; the pinned majors keep their labels.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/lib/errors.js';
import { assertParamValue } from '../../src/lib/ids.js';
import { compareVersions, lineOf, looksLikeRelease, parseReleaseKey } from '../../src/model/runtime-release.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand, runtimeLabel } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
const scan = loadExperiment(join(ROOT, 'programs', 'scan'));

describe('release keys', () => {
  it('parses exact releases and canaries, and leaves pinned names alone', () => {
    expect(parseReleaseKey('node@22.4.1')).toEqual({ family: 'node', version: '22.4.1', key: 'node@22.4.1' });
    expect(parseReleaseKey('bun@1.4.2-canary.20260928.1')?.version).toBe('1.4.2-canary.20260928.1');
    expect(parseReleaseKey('bun@canary-20260928')).toEqual({
      family: 'bun',
      canaryDate: '20260928',
      key: 'bun@canary-20260928',
    });
    for (const k of ['node@22', 'bun', 'deno', 'node@22.4', 'deno@2.0.0-canary.20260101.1', 'just@0.1.13'])
      expect(parseReleaseKey(k)).toBeUndefined();
    expect(looksLikeRelease('node@22')).toBe(false);
    expect(looksLikeRelease('node@22.x')).toBe(true);
  });

  it('orders versions numerically, a canary before the release it precedes', () => {
    const vs = ['1.10.0', '1.4.2', '1.4.2-canary.20260928.1', '1.4.2-canary.20260906.1', '1.4.10', '1.4.1'];
    expect([...vs].sort(compareVersions)).toEqual([
      '1.4.1',
      '1.4.2-canary.20260906.1',
      '1.4.2-canary.20260928.1',
      '1.4.2',
      '1.4.10',
      '1.10.0',
    ]);
    expect(lineOf('node', '22.4.1')).toBe('node22');
    expect(lineOf('bun', '1.3.11')).toBe('bun');
  });

  it('labels a release by its key and a pinned major as before; the store accepts the label', () => {
    expect(runtimeLabel('node@22.4.1')).toBe('node@22.4.1');
    expect(runtimeLabel('node@22')).toBe('node22');
    expect(assertParamValue('runtime', 'node@22.4.1')).toBe('node@22.4.1');
  });
});

describe('--param runtime=<release>', () => {
  it('runs each variant of the family under the release, and native variants as usual', () => {
    const points = expand([wc], 'smoke', {
      variants: ['c', 'readsync', 'node-stream'],
      params: { bs: [4096], runtime: ['node@22.4.1', 'bun@1.3.11'] },
    });
    expect(points.map((p) => [p.id, p.runtime])).toEqual([
      ['wc/c/bs=4096', 'gcc'],
      ['wc/node-stream/bs=4096,runtime=node@22.4.1', 'node@22.4.1'],
      ['wc/readsync/bs=4096,runtime=node@22.4.1', 'node@22.4.1'],
      ['wc/readsync/bs=4096,runtime=bun@1.3.11', 'bun@1.3.11'],
    ]);
  });

  it('mixes with pinned labels', () => {
    const points = expand([wc], 'smoke', {
      variants: ['readsync'],
      params: { bs: [4096], runtime: ['bun', 'deno@2.7.3'] },
    });
    expect(points.map((p) => p.params.runtime)).toEqual(['bun', 'deno@2.7.3']);
  });

  it('refuses a malformed release in one line, and a release no chosen variant runs under', () => {
    expect(() => expand([wc], 'smoke', { params: { runtime: ['node@22.x'] } })).toThrow(
      /^--param runtime=node@22\.x: not a release/,
    );
    // scan's JavaScript variants all run under Node.
    expect(() => expand([scan], 'smoke', { params: { runtime: ['deno@2.7.3'] } })).toThrow(UserError);
  });
});
